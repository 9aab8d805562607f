/** Family B, the simple backend: `{code, msg, data}` with string codes, form-encoded POST bodies. */
import { z } from 'zod';
import { COMMENT_MAX } from '../../../shared/comment-text.ts';
import { publishComment } from '../../services/comment-writes.ts';
import { commentTotal, list } from '../../services/comments.ts';
import { reasonsOf } from '../../services/feed-reasons.ts';
import { getById } from '../../services/users.ts';
import { discover, followFeed, getDetail, profileTab, recommend } from '../../services/videos.ts';
import { assertTabVisible, PROFILE_TABS } from '../../services/visibility.ts';
import { ApiError, emptyB, okB } from '../envelope.ts';
import { offsetOf, oneName, pageNo, size } from '../family-b-door.ts';
import { id, int, INT4_MAX, offset, text } from '../params.ts';
import { route } from '../registry.ts';
import { bodyB, commentB, feedVideoB, videoB } from '../schemas.ts';
import { commentB as shapeCommentB, videoB as shapeVideoB, videoListB } from '../shape.ts';

// Family B's cursor is an offset by contract: its answers carry no cursor, a client adds the page size itself.
const pageInput = z.object({ cursor: offset(), size: size(10) });
const videoList = bodyB(z.array(videoB));

const selfData = z.object({
  videosList: z.array(videoB),
  publishCount: z.number().int(),
  likeCount: z.number().int(),
  collectCount: z.number().int(),
  hasMore: z.boolean(),
});

export const familyBRoutes = [
  route({
    method: 'GET',
    path: '/video/self',
    family: 'B',
    auth: false,
    summary:
      "A profile tab's videos and the profile's counts; code '404' (HTTP 200) when the tab is empty, 403 for a tab the user keeps from the viewer (401 anonymously for history and watch later)",
    input: z.object({
      showTab: z.enum(PROFILE_TABS).default('post'),
      page: pageNo().default(1).meta({ default: 1 }),
      size: size(10),
      userId: id().optional(),
    }),
    response: z.object({ code: z.enum(['200', '404']), msg: z.string(), data: selfData }),
    handler: async ({ input, viewer }) => {
      const userId = input.userId ?? viewer?.id;
      if (userId === undefined) throw new ApiError(401, 'error.unauthorized');
      const user = await getById(userId, null);
      if (!user) throw new ApiError(404, 'error.userNotFound');
      assertTabVisible(viewer?.id ?? null, user, input.showTab);
      const page = await profileTab(
        user.id,
        input.showTab,
        { skip: offsetOf(input.page, input.size), count: input.size },
        viewer?.id ?? null,
      );
      const data = {
        videosList: await videoListB(viewer, page.items),
        publishCount: user.awemeCount,
        likeCount: user.favoritingCount,
        collectCount: user.collectCount,
        hasMore: page.hasMore,
      };
      return data.videosList.length ? okB(data) : emptyB(data);
    },
  }),
  route({
    method: 'POST',
    path: '/video/feed',
    family: 'B',
    readOnly: true,
    auth: false,
    summary:
      'The recommend feed, paged by a 1-based page or by an offset cursor (one of the two) with size; an empty list is the end. Each video says why it was picked (recommendReason)',
    input: z
      .object({ page: pageNo().optional(), cursor: int(0, INT4_MAX).optional().meta({ default: 0 }), size: size(10) })
      .refine((x) => x.page === undefined || x.cursor === undefined, { path: ['page'], message: 'page_or_cursor' })
      .transform((x) => ({ offset: x.page === undefined ? (x.cursor ?? 0) : offsetOf(x.page, x.size), size: x.size })),
    response: bodyB(z.array(feedVideoB)),
    handler: async ({ input, viewer }) => {
      const page = await recommend(viewer?.id ?? null, { skip: input.offset, count: input.size });
      const [list, reasons] = await Promise.all([videoListB(viewer, page.items), reasonsOf(page.items)]);
      return okB(list.map((v) => ({ ...v, recommendReason: reasons.get(v.id)! })));
    },
  }),
  route({
    method: 'POST',
    path: '/video/getVideosByCursor',
    family: 'B',
    readOnly: true,
    auth: false,
    summary: 'Popular videos across channels (首页), from offset cursor',
    input: pageInput,
    response: videoList,
    handler: async ({ input, viewer }) => {
      const page = await discover({ skip: input.cursor, count: input.size }, viewer?.id ?? null);
      return okB(await videoListB(viewer, page.items));
    },
  }),
  route({
    method: 'POST',
    path: '/comment/list',
    family: 'B',
    readOnly: true,
    auth: false,
    summary: "A video's top-level comments, most liked first",
    input: z.object({ vid: id(), cursor: offset(), size: size(20) }),
    response: bodyB(z.array(commentB)),
    handler: async ({ input, viewer }) => {
      const [total, page] = await Promise.all([
        commentTotal(input.vid, viewer?.id ?? null),
        list(input.vid, { skip: input.cursor, count: input.size }, viewer?.id ?? null),
      ]);
      if (total === null) throw new ApiError(404, 'error.videoNotFound');
      return okB(page.items.map(shapeCommentB));
    },
  }),
  route({
    method: 'POST',
    path: '/comment/add',
    family: 'B',
    auth: true,
    summary:
      'Comment on a video (vid, or videoId), or reply to any comment of its (parentId, or replyId; the answer names the thread’s root); text is stored unescaped',
    input: z
      .object({
        vid: id().optional(),
        videoId: id().optional().meta({ description: 'Another name for vid' }),
        text: text(1, COMMENT_MAX),
        // 0 (or empty) is "no parent", as clients send it.
        parentId: int(0, INT4_MAX).optional(),
        replyId: int(0, INT4_MAX).optional().meta({ description: 'Another name for parentId' }),
      })
      .superRefine(oneName('vid', 'videoId'))
      .superRefine(oneName('parentId', 'replyId', true))
      .transform((x) => ({ vid: (x.vid ?? x.videoId)!, text: x.text, replyTo: x.parentId || x.replyId || undefined })),
    response: bodyB(commentB),
    handler: async ({ input, viewer }) =>
      okB(shapeCommentB(await publishComment(viewer.id, input.vid, input.text, input.replyTo))),
  }),
  route({
    method: 'POST',
    path: '/video/myAttentionVideos',
    family: 'B',
    readOnly: true,
    auth: true,
    summary: 'Videos by the users the viewer follows, newest first',
    input: pageInput,
    response: videoList,
    handler: async ({ input, viewer }) => {
      const page = await followFeed(viewer.id, { skip: input.cursor, count: input.size });
      return okB(await videoListB(viewer, page.items));
    },
  }),
  route({
    method: 'POST',
    path: '/video/myLikeVideos',
    family: 'B',
    readOnly: true,
    auth: true,
    summary: 'Videos the viewer liked, latest first',
    input: pageInput,
    response: videoList,
    handler: async ({ input, viewer }) => {
      const page = await profileTab(viewer.id, 'like', { skip: input.cursor, count: input.size }, viewer.id);
      return okB(await videoListB(viewer, page.items));
    },
  }),
  route({
    method: 'POST',
    path: '/video/myVideos',
    family: 'B',
    readOnly: true,
    auth: true,
    summary: "The viewer's own videos, newest first",
    input: pageInput,
    response: videoList,
    handler: async ({ input, viewer }) => {
      const page = await profileTab(viewer.id, 'post', { skip: input.cursor, count: input.size }, viewer.id);
      return okB(await videoListB(viewer, page.items));
    },
  }),
  route({
    method: 'POST',
    path: '/video/getVideoInfoById',
    family: 'B',
    readOnly: true,
    auth: false,
    summary: 'One video with the viewer’s like and collect state',
    input: z.object({ videoId: id() }),
    response: bodyB(videoB),
    handler: async ({ input, viewer }) => {
      const detail = await getDetail(input.videoId, viewer?.id ?? null);
      if (!detail) throw new ApiError(404, 'error.videoNotFound');
      return okB(
        shapeVideoB(detail, {
          liked: new Set(detail.userDigged ? [detail.id] : []),
          collected: new Set(detail.userCollected ? [detail.id] : []),
        }),
      );
    },
  }),
];
