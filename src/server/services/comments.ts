/** Reading comments: top-level comments of a video and the replies of one comment. */
import { and, desc, asc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { db } from '../db/client.ts';
import { commentLikes, comments, users, videos } from '../db/schema.ts';
import { notBlockedBy } from './blocks.ts';
import { userCardColumns, type UserCard } from './user-cards.ts';
import { cursorKey, finite } from './list-cursor.ts';
import {
  emptyPage,
  fromMicros,
  keyedPage,
  MAX_SKIP,
  micros,
  pageLimit,
  skipOf,
  type Page,
  type Paged,
} from './video-cards.ts';
import { visibleWorks } from './visibility.ts';

export interface CommentView {
  id: number;
  videoId: number;
  parentId: number | null;
  text: string;
  diggCount: number;
  replyCount: number;
  createdAt: Date;
  user: UserCard;
  replyTo: { secUid: string; nickname: string } | null;
  /** The video's author liked this comment (作者赞过). */
  authorLiked: boolean;
  isAuthor: boolean;
}

const replyUser = alias(users, 'reply_user');

function select() {
  return db()
    .select({
      // The key of the comment lists: created_at to the microsecond.
      at: micros(comments.createdAt),
      id: comments.id,
      videoId: comments.videoId,
      parentId: comments.parentId,
      text: comments.text,
      diggCount: comments.diggCount,
      replyCount: comments.replyCount,
      createdAt: comments.createdAt,
      user: userCardColumns,
      replyToSecUid: replyUser.secUid,
      replyToNickname: replyUser.nickname,
      authorLiked: sql<boolean>`exists (select 1 from ${commentLikes} cl where cl.comment_id = ${comments.id} and cl.user_id = ${videos.authorId})`,
      isAuthor: sql<boolean>`${comments.userId} = ${videos.authorId}`,
      videoComments: videos.commentCount,
    })
    .from(comments)
    .innerJoin(users, eq(users.id, comments.userId))
    .innerJoin(videos, eq(videos.id, comments.videoId))
    .leftJoin(replyUser, eq(replyUser.id, comments.replyToUserId))
    .$dynamic();
}

type Row = Awaited<ReturnType<ReturnType<typeof select>['execute']>>[number];

function view({ replyToSecUid, replyToNickname, videoComments: _count, at: _at, ...r }: Row): CommentView {
  return {
    ...r,
    replyTo: replyToSecUid && replyToNickname ? { secUid: replyToSecUid, nickname: replyToNickname } : null,
  };
}

/**
 * Comments the viewer may see: on a work the viewer may see, not deleted, and not written by someone the viewer blocked
 * (anonymous viewers see all).
 */
function visibleComment(viewerId: number | null): SQL {
  return and(visibleWorks(viewerId), isNull(comments.deletedAt), notBlockedBy(viewerId, comments.userId))!;
}

/** On comments aliased `c`: not written by someone the viewer blocked (blocks.ts's rule, picked with the ids). */
function notBlocked(viewerId: number | null): SQL {
  const rule = notBlockedBy(viewerId, sql`c.user_id`);
  return rule ? sql`and ${rule}` : sql``;
}

/**
 * Top-level comments of a video as `viewerId` sees them, most liked first, then newest; read down comments_top_idx from
 * the cursor (likes, time, id of the last comment shown). The page's ids are picked first, on comments alone: what
each row then reads (its author, whether the video's author liked it) is read for those rows only, however the
planner would guess a whole video's comments. `total` is the video's comment_count read by the same
 * statement as the rows (so a comment on the page is in the count), or null on an empty page.
 */
export async function list(
  videoId: number,
  page: Page,
  viewerId: number | null,
): Promise<Paged<CommentView> & { total: number | null }> {
  const limit = pageLimit(page, 20);
  const key = cursorKey(page.cursor, 'cmt', 3);
  const skip = key ? 0 : skipOf(page);
  if (skip > MAX_SKIP) return { ...emptyPage(page), total: null };
  const ids = sql`(select c.id from comments c
    where c.video_id = ${videoId} and c.parent_id is null and c.deleted_at is null ${notBlocked(viewerId)}
      ${key ? sql`and (c.digg_count, c.created_at, c.id) < (${finite(key[0]!)}::bigint, ${fromMicros(key[1]!)}, ${finite(key[2]!)}::bigint)` : sql``}
    order by c.digg_count desc, c.created_at desc, c.id desc limit ${limit + 1} offset ${skip})`;
  const rows = await select()
    .where(and(sql`${comments.id} in ${ids}`, visibleComment(viewerId)))
    .orderBy(desc(comments.diggCount), desc(comments.createdAt), desc(comments.id));
  const p = keyedPage(rows, limit, 'cmt', (r) => [r.diggCount, r.at, r.id], page);
  return { ...p, items: p.items.map(view), total: rows[0]?.videoComments ?? null };
}

/** Replies under one top-level comment as `viewerId` sees them, oldest first, from the cursor (time and id). */
export async function replies(commentId: number, page: Page, viewerId: number | null): Promise<Paged<CommentView>> {
  const limit = pageLimit(page, 10);
  const key = cursorKey(page.cursor, 'reply', 2);
  const skip = key ? 0 : skipOf(page);
  if (skip > MAX_SKIP) return emptyPage(page);
  const ids = sql`(select c.id from comments c
    where c.parent_id = ${commentId} and c.deleted_at is null ${notBlocked(viewerId)}
      ${key ? sql`and (c.created_at, c.id) > (${fromMicros(key[0]!)}, ${finite(key[1]!)}::bigint)` : sql``}
    order by c.created_at, c.id limit ${limit + 1} offset ${skip})`;
  const rows = await select()
    .where(and(sql`${comments.id} in ${ids}`, visibleComment(viewerId)))
    .orderBy(asc(comments.createdAt), asc(comments.id));
  const p = keyedPage(rows, limit, 'reply', (r) => [r.at, r.id], page);
  return { ...p, items: p.items.map(view) };
}

/** Which of `commentIds` the viewer has liked. */
export async function likedCommentIds(viewerId: number, commentIds: number[]): Promise<Set<number>> {
  if (!commentIds.length) return new Set();
  const rows = await db()
    .select({ id: commentLikes.targetId })
    .from(commentLikes)
    .where(and(eq(commentLikes.userId, viewerId), inArray(commentLikes.targetId, commentIds)));
  return new Set(rows.map((r) => r.id));
}

/** One comment as `viewerId` sees it (what a repeated publish answers), or null when it is gone or hidden. */
export async function commentView(id: number, viewerId: number | null): Promise<CommentView | null> {
  const [row] = await select().where(and(eq(comments.id, id), visibleComment(viewerId)));
  return row ? view(row) : null;
}

/** A live comment's ids (to check a comment belongs to a video), or null; null too when `viewerId` may not see its video. */
export async function getComment(
  id: number,
  viewerId: number | null,
): Promise<{ id: number; videoId: number; parentId: number | null; userId: number; replyCount: number } | null> {
  const [row] = await db()
    .select({
      id: comments.id,
      videoId: comments.videoId,
      parentId: comments.parentId,
      userId: comments.userId,
      replyCount: comments.replyCount,
    })
    .from(comments)
    .innerJoin(videos, eq(videos.id, comments.videoId))
    .where(and(eq(comments.id, id), isNull(comments.deletedAt), visibleWorks(viewerId)));
  return row ?? null;
}

/** A video's comment_count, or null when the video is unknown, deleted or hidden from `viewerId`. */
export async function commentTotal(videoId: number, viewerId: number | null): Promise<number | null> {
  const [row] = await db()
    .select({ n: videos.commentCount })
    .from(videos)
    .where(and(eq(videos.id, videoId), visibleWorks(viewerId)));
  return row ? row.n : null;
}
