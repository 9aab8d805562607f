import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { collects, comments, likes, users, videos } from '../db/schema.ts';
import { setVideoLike } from './interactions.ts';
import { engagementNow, expireHeat, hot } from './rankings.ts';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t.close());

/** 热度 of `id` as 热点 shows it (undefined when it is not on the first 50). */
const shownHeat = async (id: number) => (await hot({ count: 50 })).items.find((x) => x.id === id)?.heat;

describe('热度, kept by the writes', () => {
  let video: number;
  let fans: number[];
  beforeAll(async () => {
    const [v] = await t.db
      .select({ id: videos.id })
      .from(videos)
      .where(sql`deleted_at is null`)
      .orderBy(videos.id)
      .limit(1);
    video = v!.id;
    fans = (await t.db.select({ id: users.id }).from(users).orderBy(users.id).limit(5)).map((u) => u.id);
    // The template was seeded months ago: its activity is out of the window.
    await t.db.delete(likes).where(eq(likes.targetId, video));
    await expireHeat();
  });

  it('counts a like at once and takes it back on unlike, through the service or a plain insert', async () => {
    expect(await shownHeat(video)).toBeUndefined();
    await setVideoLike(fans[0]!, video, true);
    expect(await shownHeat(video)).toBe(1);
    await t.db.insert(likes).values({ userId: fans[1]!, targetId: video });
    expect(await shownHeat(video)).toBe(2);
    await setVideoLike(fans[0]!, video, false);
    await t.db.delete(likes).where(and(eq(likes.userId, fans[1]!), eq(likes.targetId, video)));
    expect(await shownHeat(video)).toBeUndefined();
  });

  it('weighs a comment 2 while it is not deleted and a collect 3, decayed by their age', async () => {
    const [c] = await t.db
      .insert(comments)
      .values({ videoId: video, userId: fans[2]!, text: '好看' })
      .returning({ id: comments.id });
    expect(await shownHeat(video)).toBe(2);
    await t.db.update(comments).set({ deletedAt: new Date() }).where(eq(comments.id, c!.id));
    expect(await shownHeat(video)).toBeUndefined();
    await t.db.update(comments).set({ deletedAt: null }).where(eq(comments.id, c!.id));
    // A collect made a day ago: 3 × e^-1 = 1.10, so 2 + 1.10 → 4.
    await t.db
      .insert(collects)
      .values({ userId: fans[3]!, targetId: video, createdAt: new Date(Date.now() - 86_400_000) });
    expect(await shownHeat(video)).toBe(Math.ceil(2 + 3 * Math.exp(-1) - 1e-9));
  });

  it('leaves out what was made before the window, and drops an hour once the window has passed it', async () => {
    await t.db
      .insert(likes)
      .values({ userId: fans[4]!, targetId: video, createdAt: new Date(Date.now() - 8 * 86_400_000) });
    const before = await shownHeat(video);
    expect(before).toBe(Math.ceil(2 + 3 * Math.exp(-1) - 1e-9));
    // As if the window had stood still for a day (no schedule, no read): the day's hours are counted again, then go.
    await t.db.execute(sql`update heat_window set start_hour = start_hour - 24`);
    await t.db
      .insert(likes)
      .values({ userId: fans[0]!, targetId: video, createdAt: new Date(Date.now() - 7.5 * 86_400_000) });
    expect(await expireHeat()).toBeGreaterThan(0);
    expect(await shownHeat(video)).toBe(before);
    const { rows } = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from heat_hourly where hour < (select start_hour from heat_window)`,
    );
    expect(rows[0]!.n).toBe(0);
  });
});

describe('the stored ranking', () => {
  it('is engagement × freshness: e^(score − now / 3 days) equals the formula for every work', async () => {
    const { rows } = await t.db.execute<{ score: number; e: number }>(sql`
      select video_rank_score(digg_count, comment_count, collect_count, share_count, play_count, created_at) as score,
        (digg_count + 2 * comment_count + 3 * collect_count + share_count)::float8 / (play_count + 50)
          * exp(-extract(epoch from now() - created_at)::float8 / 259200) as e
      from videos`);
    expect(rows.length).toBeGreaterThan(300);
    const now = Date.now();
    for (const r of rows) {
      const e = Number(r.e);
      if (e === 0) expect(Number(r.score)).toBe(-Infinity);
      else expect(engagementNow(Number(r.score), now) / e).toBeCloseTo(1, 3);
    }
  });
});
