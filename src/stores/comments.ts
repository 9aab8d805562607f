/** Comments of a video as islands use them: paged reads, publish, delete, optimistic likes and @mention links. */
import { map } from 'nanostores';
import { apiGet, apiPost } from '../client/api.ts';
import { COMMENT_COUNT_EVENT, fromApi, type ApiComment, type CommentCountDetail, type CommentData, type CommentPage } from '../shared/comment-data.ts';
import { canPublish } from '../shared/comment-text.ts';
import { mentionedNames, MENTION_RESOLVE_MAX } from '../shared/mention-text.ts';

export { COMMENT_COUNT_EVENT, type CommentCountDetail, type CommentData, type CommentPage, type CommentUser } from '../shared/comment-data.ts';

export const COMMENT_PAGE = 20;
export const REPLY_PAGE = 10;


interface ApiList {
  comments: ApiComment[];
  cursor: number;
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
export async function loadComments(awemeId: string, cursor: number, signal?: AbortSignal): Promise<CommentPage> {
  const body = await apiGet<ApiList>('/aweme/v1/web/comment/list/', { aweme_id: awemeId, cursor, count: COMMENT_PAGE }, { signal });
  void resolveMentionLinks(body.comments.map((c) => c.text));
  return page(body);
}

/** A page of the replies under one top-level comment, oldest first. */
export async function loadReplies(awemeId: string, rootId: string, cursor: number): Promise<CommentPage> {
  const body = await apiGet<ApiList>('/aweme/v1/web/comment/list/reply/', { item_id: awemeId, comment_id: rootId, cursor, count: REPLY_PAGE });
  void resolveMentionLinks(body.comments.map((c) => c.text));
  return page(body);
}

/** Publishes a comment, or a reply to `replyTo` (a top-level comment or a reply); answers it and the new total. */
export async function publishComment(awemeId: string, text: string, replyTo?: string): Promise<{ comment: CommentData; total: number }> {
  if (!canPublish(text)) throw new RangeError('comment text out of bounds');
  const body = await apiPost<{ comment: ApiComment; comment_count: number }>('/aweme/v1/web/comment/publish', {
    aweme_id: awemeId,
    text,
    reply_id: replyTo,
  });
  void resolveMentionLinks([body.comment.text]);
  announceCount(awemeId, body.comment_count);
  return { comment: fromApi(body.comment), total: body.comment_count };
}

/** Deletes one's own comment (a top-level one takes its replies along); answers the new total. */
export async function deleteComment(awemeId: string, cid: string): Promise<number> {
  const body = await apiPost<{ comment_count: number }>('/aweme/v1/web/comment/delete', { cid });
  announceCount(awemeId, body.comment_count);
  return body.comment_count;
}

/** Likes or unlikes a comment; answers the server's state. */
export async function likeComment(awemeId: string, cid: string, liked: boolean): Promise<{ liked: boolean; diggCount: number }> {
  const body = await apiPost<{ user_digged: 0 | 1; digg_count: number }>('/aweme/v1/web/comment/digg', {
    cid,
    aweme_id: awemeId,
    digg_type: liked ? 1 : 0,
  });
  return { liked: body.user_digged === 1, diggCount: body.digg_count };
}

/** Tells the page (counts beside the player, the heading) that a video now has `count` comments. */
export function announceCount(awemeId: string, count: number): void {
  globalThis.dispatchEvent?.(new CustomEvent<CommentCountDetail>(COMMENT_COUNT_EVENT, { detail: { awemeId, count } }));
}

/** Nickname → sec_uid of the users @mentioned in comments seen so far; null when no such user. */
export const $mentionLinks = map<Record<string, string | null>>({});

const asked = new Set<string>();

/** Looks up the users that `texts` mention (one call for the names not asked before); unknown names stay plain text. */
export async function resolveMentionLinks(texts: string[]): Promise<void> {
  const names = [...new Set(texts.flatMap(mentionedNames))].filter((n) => !asked.has(n)).slice(0, MENTION_RESOLVE_MAX);
  if (!names.length) return;
  for (const n of names) asked.add(n);
  try {
    const body = await apiGet<{ users: { nickname: string; sec_uid: string }[] }>(
      '/aweme/v1/web/comment/mention/resolve/',
      { nicknames: names.join(' ') },
      { quiet: true },
    );
    const found = new Map(body.users.map((u) => [u.nickname, u.sec_uid]));
    const next = { ...$mentionLinks.get() };
    for (const n of names) next[n] = found.get(n) ?? null;
    $mentionLinks.set(next);
  } catch {
    // Links are a nicety: on failure the names stay plain text and may be asked again later.
    for (const n of names) asked.delete(n);
  }
}

/** Seeds the links the server already resolved for its first page. */
export function seedMentionLinks(links: Record<string, string>): void {
  const fresh = Object.entries(links).filter(([n]) => !($mentionLinks.get()[n] !== undefined));
  if (!fresh.length) return;
  for (const [n] of fresh) asked.add(n);
  $mentionLinks.set({ ...$mentionLinks.get(), ...Object.fromEntries(fresh) });
}
