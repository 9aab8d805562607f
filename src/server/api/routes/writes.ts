/** Family A writes, POST form-encoded, logged in (Token header): likes, collects, comments, follows, watch later, history, 不感兴趣, shares. */
import { z } from 'zod';
import { COMMENT_MAX } from '../../../shared/comment-text.ts';
import { deleteComment, publishComment } from '../../services/comment-writes.ts';
import { commentTotal, commentView, getComment } from '../../services/comments.ts';
import {
  countShare,
  markNotInterested,
  recordHistory,
  setCommentLike,
  setVideoCollect,
  setVideoLike,
  setWatchLater,
} from '../../services/interactions.ts';
import { setFollow } from '../../services/social.ts';
import { followStatusFor } from '../../services/users.ts';
import { byIds } from '../../services/videos.ts';
import { ApiError, okA } from '../envelope.ts';
import { once } from '../idempotency.ts';
import { flag, id, int, INT4_MAX, text } from '../params.ts';
import { route } from '../registry.ts';
import { bit, bodyA, comment, followStatus } from '../schemas.ts';
import { asBit, commentList } from '../shape.ts';
import { userIdOf, withUserRef } from '../user-ref.ts';

const n = () => z.number().int();
const awemeInput = z.object({ aweme_id: id() });

export const writeRoutes = [
  route({
    method: 'POST',
    path: '/aweme/v1/web/commit/item/digg/',
    family: 'A',
    auth: true,
    summary: 'Like (type=1) or unlike (type=0) a video; liking twice stays one like',
    input: z.object({ aweme_id: id(), type: flag() }),
    response: bodyA({ user_digged: bit, digg_count: n() }),
    handler: async ({ input, viewer }) => {
      const r = await setVideoLike(viewer.id, input.aweme_id, input.type === 1);
      return okA({ user_digged: asBit(r.liked), digg_count: r.diggCount });
    },
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/aweme/collect/',
    family: 'A',
    auth: true,
    summary: 'Collect (action=1) or uncollect (action=0) a video',
    input: z.object({ aweme_id: id(), action: flag() }),
    response: bodyA({ collect_stat: bit, collect_count: n() }),
    handler: async ({ input, viewer }) => {
      const r = await setVideoCollect(viewer.id, input.aweme_id, input.action === 1);
      return okA({ collect_stat: asBit(r.collected), collect_count: r.collectCount });
    },
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/comment/publish',
    idempotent: true,
    family: 'A',
    auth: true,
    summary:
      'Publish a comment, or a reply when reply_id (or reply_to_reply_id) names a comment of the video; text is stored as given',
    input: z.object({
      aweme_id: id(),
      text: text(1, COMMENT_MAX),
      reply_id: int(0, INT4_MAX).optional(),
      reply_to_reply_id: int(0, INT4_MAX).optional(),
    }),
    response: bodyA({ comment, comment_count: n() }),
    handler: async (ctx) => {
      const { input, viewer } = ctx;
      // Douyin sends 0 for "none"; the reply being answered wins over its thread's root.
      const replyTo = input.reply_to_reply_id || input.reply_id || undefined;
      const created = await once(
        ctx,
        'comment',
        (key) => publishComment(viewer.id, input.aweme_id, input.text, replyTo, key),
        async (commentId) => {
          const made = await commentView(commentId, viewer.id);
          if (!made) throw new ApiError(404, 'error.commentNotFound');
          return made;
        },
      );
      const total = (await commentTotal(input.aweme_id, viewer.id)) ?? 0;
      const [shaped] = await commentList(viewer, [created]);
      return okA({ comment: shaped!, comment_count: total });
    },
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/comment/delete',
    family: 'A',
    auth: true,
    summary: "Delete one's own comment (or one on one's own video); a top-level comment takes its replies along",
    input: z.object({ cid: id() }),
    response: bodyA({ comment_count: n() }),
    handler: async ({ input, viewer }) => {
      const r = await deleteComment(viewer.id, input.cid);
      return okA({ comment_count: r.commentCount });
    },
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/comment/digg',
    family: 'A',
    auth: true,
    summary: 'Like (digg_type=1) or unlike (digg_type=0) a comment',
    input: z.object({ cid: id(), aweme_id: id().optional(), digg_type: flag() }),
    response: bodyA({ user_digged: bit, digg_count: n() }),
    handler: async ({ input, viewer }) => {
      if (input.aweme_id !== undefined) {
        const c = await getComment(input.cid, viewer.id);
        if (!c || c.videoId !== input.aweme_id) throw new ApiError(404, 'error.commentNotFound');
      }
      const r = await setCommentLike(viewer.id, input.cid, input.digg_type === 1);
      return okA({ user_digged: asBit(r.liked), digg_count: r.diggCount });
    },
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/commit/follow/user/',
    family: 'A',
    auth: true,
    summary: 'Follow (type=1) or unfollow (type=0) a user named by sec_user_id or user_id',
    input: withUserRef({ type: flag() }),
    response: bodyA({ follow_status: followStatus, follower_count: n(), following_count: n() }),
    handler: async ({ input, viewer }) => {
      const r = await setFollow(viewer.id, await userIdOf(input), input.type === 1);
      return okA({
        follow_status: followStatusFor({ following: r.following, followedBy: r.mutual }),
        follower_count: r.followerCount,
        following_count: r.followingCount,
      });
    },
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/aweme/watchlater/add/',
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: 'Add a video to 稍后再看',
    input: awemeInput,
    response: bodyA({ in_watch_later: bit }),
    handler: async ({ input, viewer }) => {
      const r = await setWatchLater(viewer.id, input.aweme_id, true);
      return okA({ in_watch_later: asBit(r.on) });
    },
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/aweme/watchlater/remove/',
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: 'Remove a video from 稍后再看',
    input: awemeInput,
    response: bodyA({ in_watch_later: bit }),
    handler: async ({ input, viewer }) => {
      const r = await setWatchLater(viewer.id, input.aweme_id, false);
      return okA({ in_watch_later: asBit(r.on) });
    },
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/history/write/',
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: 'Record where the viewer is in a video (progress in ms); a first or returning watch counts a play',
    input: z.object({ aweme_id: id(), progress: int(0, INT4_MAX).default(0).meta({ default: 0 }) }),
    response: bodyA({ play_count: n() }),
    handler: async ({ input, viewer }) => {
      await recordHistory(viewer.id, input.aweme_id, input.progress);
      const [card] = await byIds([input.aweme_id], viewer.id);
      if (!card) throw new ApiError(404, 'error.videoNotFound');
      return okA({ play_count: card.playCount });
    },
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/commit/dislike/item/',
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: 'Mark a video 不感兴趣: the recommend feed leaves it out for the viewer',
    input: awemeInput,
    response: bodyA({}),
    handler: async ({ input, viewer }) => {
      await markNotInterested(viewer.id, input.aweme_id);
      return okA({});
    },
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/aweme/share/',
    family: 'A',
    auth: true,
    summary: 'Count one share of a video',
    input: awemeInput,
    response: bodyA({ share_count: n() }),
    handler: async ({ input, viewer }) => {
      const r = await countShare(input.aweme_id, viewer.id);
      return okA({ share_count: r.shareCount });
    },
  }),
];
