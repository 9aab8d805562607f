/** A viewer acting on a video or comment: like, collect, watch later, history, not interested, share. */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { lockUsers } from '../db/lock-order.ts';
import type { DbOrTx } from '../db/types.ts';
import {
  collects,
  commentLikes,
  comments,
  likes,
  notInterested,
  users,
  videos,
  watchHistory,
  watchLater,
} from '../db/schema.ts';
import { addVideoStat } from './daily-stats.ts';
import { invalid, notFound } from '../errors.ts';
import { visibleWorks } from './visibility.ts';
import { notify, retract } from './notifications.ts';

// Counts move only when the row really changed (an insert that inserted, a delete that deleted), so repeats and
// concurrent duplicates count once; a duplicate insert waits on the first one's unique key instead of a lock of ours.

/** Every (user, thing) pair table has the same shape. */
type PairTable = typeof likes;

/** Adds or removes a (user, target) row; true when a row was actually inserted or deleted. */
async function setPair(tx: DbOrTx, table: PairTable, userId: number, targetId: number, on: boolean): Promise<boolean> {
  if (on) {
    const rows = await tx
      .insert(table)
      .values({ userId, targetId })
      .onConflictDoNothing()
      .returning({ userId: table.userId });
    return rows.length > 0;
  }
  const rows = await tx
    .delete(table)
    .where(and(eq(table.userId, userId), eq(table.targetId, targetId)))
    .returning({ userId: table.userId });
  return rows.length > 0;
}

/** The video with the columns the writes need, if `viewerId` may see it; else notFound('error.videoNotFound'). */
async function liveVideo(tx: DbOrTx, videoId: number, viewerId: number) {
  const [v] = await tx
    .select({ id: videos.id, authorId: videos.authorId, durationMs: videos.durationMs })
    .from(videos)
    .where(and(eq(videos.id, videoId), visibleWorks(viewerId)));
  if (!v) throw notFound('error.videoNotFound');
  return v;
}

/** Adds `delta` to one counter of a live video; notFound when it was deleted meanwhile (the row lock re-checks). */
async function bumpVideo(
  tx: DbOrTx,
  videoId: number,
  column: 'diggCount' | 'collectCount',
  delta: number,
): Promise<number> {
  const col = videos[column];
  const [row] = await tx
    .update(videos)
    .set({ [column]: sql`${col} + ${delta}` })
    .where(and(eq(videos.id, videoId), isNull(videos.deletedAt)))
    .returning({ n: col });
  if (!row) throw notFound('error.videoNotFound');
  return row.n;
}

async function videoCount(tx: DbOrTx, videoId: number, column: 'diggCount' | 'collectCount'): Promise<number> {
  const [row] = await tx.select({ n: videos[column] }).from(videos).where(eq(videos.id, videoId));
  return row?.n ?? 0;
}

/** Likes or unlikes a video; keeps the video's digg_count, the author's total_favorited and the liker's favoriting_count. */
export async function setVideoLike(
  userId: number,
  videoId: number,
  liked: boolean,
): Promise<{ liked: boolean; diggCount: number }> {
  return db().transaction(async (tx) => {
    const video = await liveVideo(tx, videoId, userId);
    if (!(await setPair(tx, likes, userId, videoId, liked)))
      return { liked, diggCount: await videoCount(tx, videoId, 'diggCount') };
    const delta = liked ? 1 : -1;
    const diggCount = await bumpVideo(tx, videoId, 'diggCount', delta);
    await addVideoStat(videoId, 'likes', delta, tx);
    // Both users locked lowest id first (lock-order.ts), so opposite likes and follows cannot deadlock.
    await lockUsers(tx, [userId, video.authorId]);
    await tx
      .update(users)
      .set({
        favoritingCount: sql`${users.favoritingCount} + case when ${users.id} = ${userId} then ${delta} else 0 end`,
        totalFavorited: sql`${users.totalFavorited} + case when ${users.id} = ${video.authorId} then ${delta} else 0 end`,
      })
      .where(sql`${users.id} in (${userId}, ${video.authorId})`);
    const note = { userId: video.authorId, actorId: userId, kind: 'like_video' as const, videoId };
    if (liked) await notify(tx, note);
    else await retract(tx, note);
    return { liked, diggCount };
  });
}

/** Collects or uncollects a video; keeps the video's collect_count and the collector's collect_count. */
export async function setVideoCollect(
  userId: number,
  videoId: number,
  collected: boolean,
): Promise<{ collected: boolean; collectCount: number }> {
  return db().transaction(async (tx) => {
    await liveVideo(tx, videoId, userId);
    if (!(await setPair(tx, collects, userId, videoId, collected))) {
      return { collected, collectCount: await videoCount(tx, videoId, 'collectCount') };
    }
    const delta = collected ? 1 : -1;
    const collectCount = await bumpVideo(tx, videoId, 'collectCount', delta);
    await tx
      .update(users)
      .set({ collectCount: sql`${users.collectCount} + ${delta}` })
      .where(eq(users.id, userId));
    return { collected, collectCount };
  });
}

/** Likes or unlikes a live comment of a video the user may see; the comment's author hears of a new like. */
export async function setCommentLike(
  userId: number,
  commentId: number,
  liked: boolean,
): Promise<{ liked: boolean; diggCount: number }> {
  return db().transaction(async (tx) => {
    const live = and(eq(comments.id, commentId), isNull(comments.deletedAt), visibleWorks(userId));
    const [comment] = await tx
      .select({
        userId: comments.userId,
        videoId: comments.videoId,
        text: comments.text,
        diggCount: comments.diggCount,
      })
      .from(comments)
      .innerJoin(videos, eq(videos.id, comments.videoId))
      .where(live);
    if (!comment) throw notFound('error.commentNotFound');
    if (!(await setPair(tx, commentLikes, userId, commentId, liked))) {
      const [now] = await tx.select({ n: comments.diggCount }).from(comments).where(eq(comments.id, commentId));
      return { liked, diggCount: now?.n ?? comment.diggCount };
    }
    const [row] = await tx
      .update(comments)
      .set({ diggCount: sql`${comments.diggCount} + ${liked ? 1 : -1}` })
      .where(and(eq(comments.id, commentId), isNull(comments.deletedAt)))
      .returning({ n: comments.diggCount });
    if (!row) throw notFound('error.commentNotFound');
    const note = {
      userId: comment.userId,
      actorId: userId,
      kind: 'like_comment' as const,
      videoId: comment.videoId,
      commentId,
    };
    if (liked) await notify(tx, { ...note, text: comment.text });
    else await retract(tx, note);
    return { liked, diggCount: row.n };
  });
}

/** Adds a video to or removes it from 稍后再看. */
export async function setWatchLater(userId: number, videoId: number, on: boolean): Promise<{ on: boolean }> {
  await db().transaction(async (tx) => {
    await liveVideo(tx, videoId, userId);
    await setPair(tx, watchLater, userId, videoId, on);
  });
  return { on };
}

/** A new play is counted when the video was never watched by this user or last watched longer ago than this. */
const REPLAY_AFTER = sql`interval '30 minutes'`;

/** Records where the viewer is in a video (观看历史); counts a play for a first or returning watch. */
export async function recordHistory(userId: number, videoId: number, progressMs: number): Promise<void> {
  if (Number.isNaN(progressMs)) throw invalid('error.progressInvalid');
  await db().transaction(async (tx) => {
    const video = await liveVideo(tx, videoId, userId);
    const progress = Math.trunc(Math.min(Math.max(progressMs, 0), video.durationMs));
    const key = and(eq(watchHistory.userId, userId), eq(watchHistory.videoId, videoId));
    // A stale row is refreshed by a guarded update: of two racing calls only the first still sees it stale.
    const returning = await tx
      .update(watchHistory)
      .set({ progressMs: progress, watchedAt: sql`now()` })
      .where(and(key, sql`${watchHistory.watchedAt} < now() - ${REPLAY_AFTER}`))
      .returning({ userId: watchHistory.userId });
    let played = returning.length > 0;
    if (!played) {
      const inserted = await tx
        .insert(watchHistory)
        .values({ userId, videoId, progressMs: progress })
        .onConflictDoNothing()
        .returning({ userId: watchHistory.userId });
      played = inserted.length > 0;
      if (!played)
        await tx
          .update(watchHistory)
          .set({ progressMs: progress, watchedAt: sql`now()` })
          .where(key);
    }
    if (played) {
      await tx
        .update(videos)
        .set({ playCount: sql`${videos.playCount} + 1` })
        .where(eq(videos.id, videoId));
      await addVideoStat(videoId, 'plays', 1, tx);
    }
  });
}

/** Marks a video 不感兴趣 for the viewer; the ranker leaves it out from then on. */
export async function markNotInterested(userId: number, videoId: number): Promise<void> {
  await db().transaction(async (tx) => {
    await liveVideo(tx, videoId, userId);
    await setPair(tx, notInterested, userId, videoId, true);
  });
}

/** Counts one share by `userId` of a video they may see. */
export async function countShare(videoId: number, userId: number): Promise<{ shareCount: number }> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .update(videos)
      .set({ shareCount: sql`${videos.shareCount} + 1` })
      .where(and(eq(videos.id, videoId), visibleWorks(userId)))
      .returning({ shareCount: videos.shareCount });
    if (!row) throw notFound('error.videoNotFound');
    await addVideoStat(videoId, 'shares', 1, tx);
    return row;
  });
}
