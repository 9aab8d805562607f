/** Family A comment reads: comment/list and comment/list/reply. */
import { z } from 'zod';
import { commentTotal, getComment, list, replies } from '../../services/comments.ts';
import { ApiError, okA } from '../envelope.ts';
import { count, cursor, id } from '../params.ts';
import { route } from '../registry.ts';
import { bit, bodyA, comment, nextCursor } from '../schemas.ts';
import { asBit, commentList } from '../shape.ts';

const listBody = bodyA({
  comments: z.array(comment),
  cursor: nextCursor,
  has_more: bit,
  total: z.number().int(),
});

export const commentRoutes = [
  route({
    method: 'GET',
    path: '/aweme/v1/web/comment/list/',
    family: 'A',
    auth: false,
    summary: "A video's top-level comments, most liked first, then newest; cursor is where the next page starts",
    input: z.object({ aweme_id: id(), cursor: cursor(), count: count(20) }),
    response: listBody,
    anonymousCacheMs: 2000,
    handler: async ({ input, viewer }) => {
      const [known, page] = await Promise.all([
        commentTotal(input.aweme_id, viewer?.id ?? null),
        list(input.aweme_id, { cursor: input.cursor, count: input.count }, viewer?.id ?? null),
      ]);
      if (known === null) throw new ApiError(404, 'error.videoNotFound');
      // The page's own count: the two reads may straddle a new comment's commit.
      const total = page.total ?? known;
      return okA({
        comments: await commentList(viewer, page.items),
        cursor: page.cursor,
        has_more: asBit(page.hasMore),
        total,
      });
    },
  }),
  route({
    method: 'GET',
    path: '/aweme/v1/web/comment/list/reply/',
    family: 'A',
    auth: false,
    summary: 'Replies under one top-level comment, oldest first',
    input: z.object({ item_id: id(), comment_id: id(), cursor: cursor(), count: count(10) }),
    response: listBody,
    handler: async ({ input, viewer }) => {
      const root = await getComment(input.comment_id, viewer?.id ?? null);
      if (!root || root.videoId !== input.item_id || root.parentId !== null)
        throw new ApiError(404, 'error.commentNotFound');
      const page = await replies(input.comment_id, { cursor: input.cursor, count: input.count }, viewer?.id ?? null);
      return okA({
        comments: await commentList(viewer, page.items),
        cursor: page.cursor,
        has_more: asBit(page.hasMore),
        total: root.replyCount,
      });
    },
  }),
];
