/** The comment endpoints as the comment store uses them (through the shared API client), answers in the islands' shape. */
import type { ApiComment } from '../shared/api-shapes.ts';
import { fromApi, type CommentData, type CommentPage } from '../shared/comment-data.ts';
import { apiGet, apiPost } from './api.ts';

const W = '/aweme/v1/web';
export const COMMENT_PAGE = 20;
export const REPLY_PAGE = 10;

interface ApiList {
  comments: ApiComment[];
  cursor: string;
  has_more: 0 | 1;
  total: number;
}

const page = (body: ApiList): CommentPage => ({
  items: body.comments.map(fromApi),
  cursor: body.cursor,
  hasMore: body.has_more === 1,
  total: body.total,
});

/** A page of a video's top-level comments, most liked first. */
export async function fetchComments(awemeId: string, cursor: string | number): Promise<CommentPage> {
  return page(await apiGet<ApiList>(`${W}/comment/list/`, { aweme_id: awemeId, cursor, count: COMMENT_PAGE }));
}

/** A page of the replies under one top-level comment, oldest first. */
export async function fetchReplies(awemeId: string, rootId: string, cursor: string | number): Promise<CommentPage> {
  return page(
    await apiGet<ApiList>(`${W}/comment/list/reply/`, {
      item_id: awemeId,
      comment_id: rootId,
      cursor,
      count: REPLY_PAGE,
    }),
  );
}

/** Publishes a comment, or a reply to `replyTo` (a top-level comment or a reply); answers it and the video's new total. */
export async function sendComment(
  awemeId: string,
  text: string,
  replyTo?: string,
): Promise<{ comment: CommentData; total: number }> {
  const body = await apiPost<{ comment: ApiComment; comment_count: number }>(
    `${W}/comment/publish`,
    {
      aweme_id: awemeId,
      text,
      reply_id: replyTo,
    },
    { idempotent: true },
  );
  return { comment: fromApi(body.comment), total: body.comment_count };
}

/** Deletes one's own comment (a top-level one takes its replies along); answers the video's new total. */
export async function sendDelete(cid: string): Promise<number> {
  return (await apiPost<{ comment_count: number }>(`${W}/comment/delete`, { cid })).comment_count;
}

/** Likes or unlikes a comment; answers the server's state. */
export async function sendCommentLike(
  awemeId: string,
  cid: string,
  liked: boolean,
): Promise<{ liked: boolean; diggCount: number }> {
  const body = await apiPost<{ user_digged: 0 | 1; digg_count: number }>(`${W}/comment/digg`, {
    cid,
    aweme_id: awemeId,
    digg_type: liked ? 1 : 0,
  });
  return { liked: body.user_digged === 1, diggCount: body.digg_count };
}

/** Nickname → sec_uid of the users `names` name; names nobody has are left out. */
export async function resolveNicknames(names: string[]): Promise<Map<string, string>> {
  const body = await apiGet<{ users: { nickname: string; sec_uid: string }[] }>(
    `${W}/comment/mention/resolve/`,
    { nicknames: names.join(' ') },
    { quiet: true },
  );
  return new Map(body.users.map((u) => [u.nickname, u.sec_uid]));
}
