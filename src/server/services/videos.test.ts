import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { recountAll } from '../db/recount.ts';
import { follows, likes, notInterested, users, videos } from '../db/schema.ts';
import * as v from './videos.ts';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t.close());

/** Pages through a whole list and returns every id seen. */
async function drain(fetch: (cursor: number) => Promise<{ items: { id: number }[]; cursor: number; hasMore: boolean }>) {
  const ids: number[] = [];
  let cursor = 0;
  for (let guard = 0; guard < 100; guard++) {
    const page = await fetch(cursor);
    ids.push(...page.items.map((x) => x.id));
    if (!page.hasMore) return ids;
    cursor = page.cursor;
  }
  throw new Error('paging never ended');
}

describe('videos service', () => {
  it('pages through a channel without repeats or gaps', async () => {
    const ids = await drain((cursor) => v.byChannel(300204, { cursor, count: 7 }));
    const [row] = await t.db.select({ n: sql<number>`count(*)::int` }).from(videos).where(and(eq(videos.channelId, 300204), sql`deleted_at is null`));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(row!.n);
    expect(ids.length).toBeGreaterThan(10);
  });

  it('recommend leaves out what the viewer marked not interested and never repeats an author back to back when it can', async () => {
    const [viewer] = await t.db.select({ id: users.id }).from(users).limit(1);
    const first = await v.recommend(viewer!.id, { count: 10 });
    const top = first.items[0]!;
    await t.db.insert(notInterested).values({ userId: viewer!.id, targetId: top.id });
    const after = await v.recommend(viewer!.id, { count: 10 });
    expect(after.items.map((x) => x.id)).not.toContain(top.id);
    const anon = await v.recommend(null, { count: 10 });
    expect(anon.items.map((x) => x.id)).toContain(top.id);
    for (let i = 1; i < first.items.length; i++) expect(first.items[i]!.author.id).not.toBe(first.items[i - 1]!.author.id);
  });

  it('spreadAuthors keeps order but splits runs of one author', () => {
    const row = (id: number, author: number) => ({ id, author: { id: author } });
    expect(v.spreadAuthors([row(1, 1), row(2, 1), row(3, 2), row(4, 3)]).map((r) => r.id)).toEqual([1, 3, 2, 4]);
    expect(v.spreadAuthors([row(1, 1), row(2, 1)]).map((r) => r.id)).toEqual([1, 2]);
  });

  it('hot ranks by recent activity, heaviest first, and a burst of fresh likes lifts a video to the top', async () => {
    // The template is seeded months ago: only the likes made here fall inside the 7-day window.
    const quiet = await t.db.select({ id: videos.id }).from(videos).orderBy(videos.id).limit(2);
    const fans = await t.db.select({ id: users.id }).from(users).orderBy(users.id).limit(30);
    const fresh = (videoId: number, n: number) => fans.slice(0, n).map((f) => ({ userId: f.id, targetId: videoId, createdAt: new Date() }));
    await t.db.delete(likes).where(sql`${likes.targetId} in (${quiet[0]!.id}, ${quiet[1]!.id})`);
    await t.db.insert(likes).values([...fresh(quiet[0]!.id, 30), ...fresh(quiet[1]!.id, 10)]);
    await recountAll(t.db);
    const ranked = await v.hot({ count: 50 });
    expect(ranked.items[0]!.id).toBe(quiet[0]!.id);
    expect(ranked.items[1]!.id).toBe(quiet[1]!.id);
    for (let i = 1; i < ranked.items.length; i++) expect(ranked.items[i - 1]!.heat).toBeGreaterThanOrEqual(ranked.items[i]!.heat);
  });

  it('detail carries hashtags and the viewer state; unknown ids are null', async () => {
    const [like] = await t.db.select().from(likes).limit(1);
    const d = await v.getDetail(like!.targetId, like!.userId);
    expect(d?.userDigged).toBe(true);
    expect((await v.getDetail(like!.targetId, null))?.userDigged).toBe(false);
    expect(d!.hashtags.length).toBeGreaterThan(0);
    for (const h of d!.hashtags) expect(d!.desc).toContain(`#${h}`);
    expect(await v.getDetail(2_000_000_000, null)).toBeNull();
  });

  it('related never includes the video itself or the excluded ids', async () => {
    const [some] = await v.discover({ count: 1 }).then((p) => p.items);
    const first = await v.related(some!.id, { count: 5 });
    expect(first.items.length).toBe(5);
    expect(first.items.map((x) => x.id)).not.toContain(some!.id);
    const next = await v.related(some!.id, { count: 5, exclude: first.items.map((x) => x.id) });
    for (const x of next.items) expect(first.items.map((y) => y.id)).not.toContain(x.id);
  });

  it('follow and friend feeds show only followed and mutual authors', async () => {
    const [demo] = await t.db.select({ id: users.id }).from(users).where(eq(users.isDemo, true));
    const followed = new Set((await t.db.select({ id: follows.followeeId }).from(follows).where(eq(follows.followerId, demo!.id))).map((r) => r.id));
    const feed = await v.followFeed(demo!.id, { count: 50 });
    expect(feed.items.length).toBeGreaterThan(0);
    for (const x of feed.items) expect(followed.has(x.author.id)).toBe(true);
    const friends = await v.friendFeed(demo!.id, { count: 50 });
    expect(friends.items.length).toBeGreaterThan(0);
    for (const x of friends.items) {
      const [back] = await t.db.select().from(follows).where(and(eq(follows.followerId, x.author.id), eq(follows.followeeId, demo!.id)));
      expect(back).toBeTruthy();
    }
  });

  it('profile tabs list the rows behind their counts', async () => {
    const [u] = await t.db.select().from(users).where(sql`${users.awemeCount} > 3 and ${users.favoritingCount} > 3`).limit(1);
    const posts = await drain((cursor) => v.profileTab(u!.id, 'post', { cursor, count: 50 }));
    expect(posts.length).toBe(u!.awemeCount);
    const liked = await drain((cursor) => v.profileTab(u!.id, 'like', { cursor, count: 50 }));
    expect(liked.length).toBe(u!.favoritingCount);
  });
});
