import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFreshDb } from '../../../tests/setup/test-db.ts';
import type { Db } from '../db/client.ts';
import { recountAll } from '../db/recount.ts';
import {
  countShare,
  markNotInterested,
  recordHistory,
  setCommentLike,
  setVideoCollect,
  setVideoLike,
  setWatchLater,
} from './interactions.ts';

let db: Db;
useFreshDb((fresh) => (db = fresh));

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  const { rows } = await db.execute(query);
  if (!rows[0]) throw new Error('test fixture query found nothing');
  return rows[0] as T;
}

let picks = 0;

/** A live video and a user (not its author) who neither liked nor collected it. */
async function freshPair(): Promise<{ videoId: number; authorId: number; userId: number }> {
  return one(sql`
    select v.id as "videoId", v.author_id as "authorId", u.id as "userId"
    from videos v join users u on u.id <> v.author_id
    where v.deleted_at is null
      and not exists (select 1 from likes l where l.video_id = v.id and l.user_id = u.id)
      and not exists (select 1 from collects c where c.video_id = v.id and c.user_id = u.id)
      and not exists (select 1 from watch_history h where h.video_id = v.id and h.user_id = u.id)
      and not exists (select 1 from likes l where l.video_id = v.id and l.user_id = v.author_id)
    order by md5(v.id || ':' || u.id) limit 1 offset ${picks++}`);
}

const video = (id: number) =>
  one<{ digg: number; collect: number; share: number; play: number; duration: number }>(
    sql`select digg_count as digg, collect_count as collect, share_count as share, play_count as play, duration_ms as duration from videos where id = ${id}`,
  );
const user = (id: number) =>
  one<{ favorited: number; favoriting: number; collects: number }>(
    sql`select total_favorited as favorited, favoriting_count as favoriting, collect_count as collects from users where id = ${id}`,
  );
const notes = async (userId: number, actorId: number, kind: string) =>
  (
    await db.execute(
      sql`select id, read_at from notifications where user_id = ${userId} and actor_id = ${actorId} and kind = ${kind}`,
    )
  ).rows;

/** Every counter in the database, to compare before and after recountAll. */
async function counters() {
  const q = async (s: ReturnType<typeof sql>) => (await db.execute(s)).rows;
  return {
    users: await q(
      sql`select id, following_count, follower_count, aweme_count, total_favorited, favoriting_count, collect_count from users order by id`,
    ),
    videos: await q(
      sql`select id, digg_count, comment_count, collect_count, share_count, play_count from videos order by id`,
    ),
    comments: await q(sql`select id, digg_count, reply_count from comments order by id`),
  };
}

const kindOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { kind?: string }) => e.kind,
  );

describe('setVideoLike', () => {
  it('counts a like once, ignores a repeat, and the unlike restores every count', async () => {
    const { videoId, authorId, userId } = await freshPair();
    const [v0, a0, u0] = [await video(videoId), await user(authorId), await user(userId)];

    expect(await setVideoLike(userId, videoId, true)).toEqual({ liked: true, diggCount: v0.digg + 1 });
    expect((await user(authorId)).favorited).toBe(a0.favorited + 1);
    expect((await user(userId)).favoriting).toBe(u0.favoriting + 1);
    expect(await notes(authorId, userId, 'like_video')).toHaveLength(1);

    expect(await setVideoLike(userId, videoId, true)).toEqual({ liked: true, diggCount: v0.digg + 1 });
    expect((await user(authorId)).favorited).toBe(a0.favorited + 1);
    expect(await notes(authorId, userId, 'like_video')).toHaveLength(1);

    expect(await setVideoLike(userId, videoId, false)).toEqual({ liked: false, diggCount: v0.digg });
    expect(await setVideoLike(userId, videoId, false)).toEqual({ liked: false, diggCount: v0.digg });
    expect(await user(authorId)).toEqual(a0);
    expect(await user(userId)).toEqual(u0);
    expect(await notes(authorId, userId, 'like_video')).toHaveLength(0);
  });

  it('removes the notification when the like is undone, even one the author already read', async () => {
    const { videoId, authorId, userId } = await freshPair();
    await setVideoLike(userId, videoId, true);
    await db.execute(
      sql`update notifications set read_at = now() where user_id = ${authorId} and actor_id = ${userId}`,
    );
    await setVideoLike(userId, videoId, false);
    expect(await notes(authorId, userId, 'like_video')).toHaveLength(0);
  });

  it('counts a self-like on both sides of the same user without notifying', async () => {
    const { videoId, authorId } = await freshPair();
    const [v0, a0] = [await video(videoId), await user(authorId)];
    await setVideoLike(authorId, videoId, true);
    expect((await video(videoId)).digg).toBe(v0.digg + 1);
    expect(await user(authorId)).toEqual({ ...a0, favorited: a0.favorited + 1, favoriting: a0.favoriting + 1 });
    expect(await notes(authorId, authorId, 'like_video')).toHaveLength(0);
    await setVideoLike(authorId, videoId, false);
    expect(await user(authorId)).toEqual(a0);
  });

  it('counts two concurrent likes by the same user once', async () => {
    const { videoId, userId } = await freshPair();
    const before = (await video(videoId)).digg;
    const results = await Promise.all([setVideoLike(userId, videoId, true), setVideoLike(userId, videoId, true)]);
    expect(results.map((r) => r.diggCount)).toEqual([before + 1, before + 1]);
    expect((await video(videoId)).digg).toBe(before + 1);
  });

  it('does not deadlock when two users like each other’s videos at once', async () => {
    const [a, b] = await Promise.all([freshPair(), freshPair()]);
    const pairs = await Promise.all([
      setVideoLike(a.authorId, b.videoId, true),
      setVideoLike(b.authorId, a.videoId, true),
      setVideoLike(a.userId, b.videoId, true),
      setVideoLike(b.userId, a.videoId, true),
    ]);
    expect(pairs.every((p) => p.liked)).toBe(true);
  });
});

describe('setVideoCollect', () => {
  it('counts a collect once on the video and the collector, and uncollect restores', async () => {
    const { videoId, userId } = await freshPair();
    const [v0, u0] = [await video(videoId), await user(userId)];
    expect(await setVideoCollect(userId, videoId, true)).toEqual({ collected: true, collectCount: v0.collect + 1 });
    expect(await setVideoCollect(userId, videoId, true)).toEqual({ collected: true, collectCount: v0.collect + 1 });
    expect((await user(userId)).collects).toBe(u0.collects + 1);
    expect(await setVideoCollect(userId, videoId, false)).toEqual({ collected: false, collectCount: v0.collect });
    expect(await setVideoCollect(userId, videoId, false)).toEqual({ collected: false, collectCount: v0.collect });
    expect(await user(userId)).toEqual(u0);
  });
});

describe('setCommentLike', () => {
  /** A live comment its author has not liked, and another user who has not liked it either. */
  async function freshComment() {
    const c = await one<{ commentId: number; authorId: number; digg: number }>(sql`
      select c.id as "commentId", c.user_id as "authorId", c.digg_count as digg
      from comments c join videos v on v.id = c.video_id
      where c.deleted_at is null and v.deleted_at is null
        and not exists (select 1 from comment_likes l where l.comment_id = c.id and l.user_id = c.user_id)
      order by md5(c.id::text) limit 1 offset ${picks++}`);
    const u = await one<{ id: number }>(sql`
      select id from users u where id <> ${c.authorId}
        and not exists (select 1 from comment_likes l where l.comment_id = ${c.commentId} and l.user_id = u.id)
      order by md5(id || ':' || ${c.commentId}) limit 1`);
    return { ...c, userId: u.id };
  }

  it('counts once, notifies the comment author, and the unlike restores', async () => {
    const { commentId, authorId, userId, digg } = await freshComment();
    expect(await setCommentLike(userId, commentId, true)).toEqual({ liked: true, diggCount: digg + 1 });
    expect(await setCommentLike(userId, commentId, true)).toEqual({ liked: true, diggCount: digg + 1 });
    expect(await notes(authorId, userId, 'like_comment')).toHaveLength(1);
    expect(await setCommentLike(userId, commentId, false)).toEqual({ liked: false, diggCount: digg });
    expect(await setCommentLike(userId, commentId, false)).toEqual({ liked: false, diggCount: digg });
    expect(await notes(authorId, userId, 'like_comment')).toHaveLength(0);
  });

  it('does not notify the author for a like of their own comment', async () => {
    const { commentId, authorId, digg } = await freshComment();
    expect(await setCommentLike(authorId, commentId, true)).toEqual({ liked: true, diggCount: digg + 1 });
    expect(await notes(authorId, authorId, 'like_comment')).toHaveLength(0);
    await setCommentLike(authorId, commentId, false);
  });

  it('refuses a deleted comment', async () => {
    const deleted = await one<{ id: number }>(sql`select id from comments where deleted_at is not null limit 1`);
    const { userId } = await freshComment();
    expect(await kindOf(setCommentLike(userId, deleted.id, true))).toBe('not_found');
  });
});

describe('watch later, not interested, share', () => {
  it('adds and removes watch later idempotently', async () => {
    const { videoId, userId } = await freshPair();
    const rows = async () =>
      (await db.execute(sql`select 1 from watch_later where user_id = ${userId} and video_id = ${videoId}`)).rows
        .length;
    expect(await setWatchLater(userId, videoId, true)).toEqual({ on: true });
    expect(await setWatchLater(userId, videoId, true)).toEqual({ on: true });
    expect(await rows()).toBe(1);
    expect(await setWatchLater(userId, videoId, false)).toEqual({ on: false });
    expect(await setWatchLater(userId, videoId, false)).toEqual({ on: false });
    expect(await rows()).toBe(0);
  });

  it('marks not interested once however often it is called', async () => {
    const { videoId, userId } = await freshPair();
    await markNotInterested(userId, videoId);
    await markNotInterested(userId, videoId);
    const { rows } = await db.execute(
      sql`select 1 from not_interested where user_id = ${userId} and video_id = ${videoId}`,
    );
    expect(rows).toHaveLength(1);
  });

  it('counts each share', async () => {
    const { videoId, userId } = await freshPair();
    const before = (await video(videoId)).share;
    expect(await countShare(videoId, userId)).toEqual({ shareCount: before + 1 });
    expect(await countShare(videoId, userId)).toEqual({ shareCount: before + 2 });
  });
});

describe('recordHistory', () => {
  const history = (userId: number, videoId: number) =>
    one<{ progress: number }>(
      sql`select progress_ms as progress from watch_history where user_id = ${userId} and video_id = ${videoId}`,
    );

  it('counts a play for a new row, not for a quick return, and again after 30 minutes', async () => {
    const { videoId, userId } = await freshPair();
    const v0 = await video(videoId);
    await recordHistory(userId, videoId, 1200);
    expect((await video(videoId)).play).toBe(v0.play + 1);
    expect((await history(userId, videoId)).progress).toBe(1200);

    await recordHistory(userId, videoId, 2400);
    expect((await video(videoId)).play).toBe(v0.play + 1);
    expect((await history(userId, videoId)).progress).toBe(2400);

    await db.execute(
      sql`update watch_history set watched_at = now() - interval '31 minutes' where user_id = ${userId} and video_id = ${videoId}`,
    );
    await Promise.all([recordHistory(userId, videoId, 100), recordHistory(userId, videoId, 100)]);
    expect((await video(videoId)).play).toBe(v0.play + 2);
  });

  it('clamps progress to the video’s duration', async () => {
    const { videoId, userId } = await freshPair();
    const { duration } = await video(videoId);
    await recordHistory(userId, videoId, -50);
    expect((await history(userId, videoId)).progress).toBe(0);
    await recordHistory(userId, videoId, duration + 10_000);
    expect((await history(userId, videoId)).progress).toBe(duration);
  });

  it('counts a new row once when two first records race', async () => {
    const { videoId, userId } = await freshPair();
    const before = (await video(videoId)).play;
    await Promise.all([recordHistory(userId, videoId, 10), recordHistory(userId, videoId, 20)]);
    expect((await video(videoId)).play).toBe(before + 1);
  });
});

describe('unknown and deleted targets', () => {
  it('answers not_found for an unknown video or comment', async () => {
    const { userId } = await freshPair();
    const missing = 2_000_000_000;
    const calls = [
      setVideoLike(userId, missing, true),
      setVideoLike(userId, missing, false),
      setVideoCollect(userId, missing, true),
      setCommentLike(userId, missing, true),
      setWatchLater(userId, missing, true),
      recordHistory(userId, missing, 0),
      markNotInterested(userId, missing),
      countShare(missing, userId),
    ];
    expect(await Promise.all(calls.map(kindOf))).toEqual(calls.map(() => 'not_found'));
  });

  it('answers not_found for a deleted video and changes nothing', async () => {
    const { videoId, userId } = await freshPair();
    const before = await video(videoId);
    await db.execute(sql`update videos set deleted_at = now() where id = ${videoId}`);
    try {
      expect(await kindOf(setVideoLike(userId, videoId, true))).toBe('not_found');
      expect(await kindOf(setVideoCollect(userId, videoId, true))).toBe('not_found');
      expect(await kindOf(countShare(videoId, userId))).toBe('not_found');
      expect(await video(videoId)).toEqual(before);
    } finally {
      await db.execute(sql`update videos set deleted_at = null where id = ${videoId}`);
    }
  });
});

describe('counts stay true', () => {
  it('equal a full recount after a mixed sequence', async () => {
    const pairs = await Promise.all([freshPair(), freshPair(), freshPair()]);
    for (const [i, p] of pairs.entries()) {
      await setVideoLike(p.userId, p.videoId, true);
      await setVideoCollect(p.userId, p.videoId, true);
      await setVideoLike(p.authorId, p.videoId, true);
      if (i % 2 === 0) await setVideoLike(p.userId, p.videoId, false);
      if (i === 1) await setVideoCollect(p.userId, p.videoId, false);
      await recordHistory(p.userId, p.videoId, 500);
    }
    await Promise.all(pairs.map((p) => setVideoLike(p.userId, p.videoId, true)));
    const before = await counters();
    await recountAll(db);
    expect(await counters()).toEqual(before);
  });
});
