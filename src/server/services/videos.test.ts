import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { recountAll } from '../db/recount.ts';
import { collects, comments, follows, likes, notInterested, users, videos, watchHistory } from '../db/schema.ts';
import { SHARED_POOLS } from './feed-candidates.ts';
import * as v from './videos.ts';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t.close());

/** Pages through a whole list and returns every id seen. */
async function drain(
  fetch: (cursor: string) => Promise<{ items: { id: number }[]; cursor: string; hasMore: boolean }>,
) {
  const ids: number[] = [];
  let cursor = '0';
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
    const [row] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(videos)
      .where(and(eq(videos.channelId, 300204), sql`deleted_at is null`));
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
    for (let i = 1; i < first.items.length; i++)
      expect(first.items[i]!.author.id).not.toBe(first.items[i - 1]!.author.id);
  });

  it("a member goes on from the page everyone is shown (the visitors' cursor) to their own ranking, and back", async () => {
    const [viewer] = await t.db.select({ id: users.id }).from(users).limit(1);
    const shared = await v.recommend(null, { count: 10 });
    const own = await v.recommend(viewer!.id, { count: 10 });
    const next = await v.recommend(viewer!.id, { cursor: shared.cursor, count: 10 });
    expect(next.items.map((x) => x.id)).toEqual(own.items.map((x) => x.id));
    const loggedOut = await v.recommend(null, { cursor: own.cursor, count: 10 });
    expect(loggedOut.items.map((x) => x.id)).toEqual(shared.items.map((x) => x.id));
  });

  it('members whose feeds are asked for all at once each get their own feed', async () => {
    const members = (await t.db.select({ id: users.id }).from(users).orderBy(users.id).limit(12)).map((u) => u.id);
    const together = await Promise.all(members.map((id) => v.recommend(id, { count: 10 })));
    for (const [k, id] of members.entries()) {
      const alone = await v.recommend(id, { count: 10 });
      expect(
        together[k]!.items.map((x) => x.id),
        `member ${id}`,
      ).toEqual(alone.items.map((x) => x.id));
    }
    // Not one ranking for all: the seed's members differ in what they like.
    expect(new Set(together.map((p) => p.items.map((x) => x.id).join())).size).toBeGreaterThan(1);
  });

  it('hot ranks by recent activity, heaviest first, and a burst of fresh likes lifts a video to the top', async () => {
    // The template is seeded months ago: only the likes made here fall inside the 7-day window.
    const quiet = await t.db.select({ id: videos.id }).from(videos).orderBy(videos.id).limit(2);
    const fans = await t.db.select({ id: users.id }).from(users).orderBy(users.id).limit(30);
    const fresh = (videoId: number, n: number) =>
      fans.slice(0, n).map((f) => ({ userId: f.id, targetId: videoId, createdAt: new Date() }));
    await t.db.delete(likes).where(sql`${likes.targetId} in (${quiet[0]!.id}, ${quiet[1]!.id})`);
    await t.db.insert(likes).values([...fresh(quiet[0]!.id, 30), ...fresh(quiet[1]!.id, 10)]);
    await recountAll(t.db);
    const ranked = await v.hot({ count: 50 });
    expect(ranked.items[0]!.id).toBe(quiet[0]!.id);
    expect(ranked.items[1]!.id).toBe(quiet[1]!.id);
    for (let i = 1; i < ranked.items.length; i++)
      expect(ranked.items[i - 1]!.heat).toBeGreaterThanOrEqual(ranked.items[i]!.heat);
  });

  it('hot shows 热度 by its one formula over the week’s likes, comments and collects, never more than their weighted counts', async () => {
    const [target] = await t.db
      .select({ id: videos.id })
      .from(videos)
      .where(sql`deleted_at is null`)
      .orderBy(sql`${videos.id} desc`)
      .limit(1)
      .offset(5);
    const id = target!.id;
    const fans = await t.db.select({ id: users.id }).from(users).orderBy(users.id).limit(4);
    const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    // Four likes and 356 plays: the numbers a visitor compares the heat with.
    await t.db.delete(likes).where(eq(likes.targetId, id));
    await t.db
      .insert(likes)
      .values([0, 0, 12, 36].map((h, k) => ({ userId: fans[k]!.id, targetId: id, createdAt: ago(h) })));
    await t.db.insert(comments).values({ videoId: id, userId: fans[0]!.id, text: '好看', createdAt: ago(2) });
    await t.db
      .insert(collects)
      .values({ userId: fans[1]!.id, targetId: id, createdAt: ago(24) })
      .onConflictDoUpdate({ target: [collects.userId, collects.targetId], set: { createdAt: ago(24) } });
    await recountAll(t.db);
    await t.db.update(videos).set({ playCount: 356 }).where(eq(videos.id, id));

    const shown = (await v.hot({ count: 50 })).items.find((x) => x.id === id)!;
    const now = Date.now();
    const week = (rows: { at: Date }[]) => rows.filter((r) => now - r.at.getTime() < v.HEAT.windowDays * 86_400_000);
    const fade = (rows: { at: Date }[]) =>
      week(rows).reduce((sum, r) => sum + Math.exp(-(now - r.at.getTime()) / 1000 / v.HEAT.decaySeconds), 0);
    const liked = await t.db.select({ at: likes.createdAt }).from(likes).where(eq(likes.targetId, id));
    const commented = await t.db
      .select({ at: comments.createdAt })
      .from(comments)
      .where(and(eq(comments.videoId, id), sql`deleted_at is null`));
    const collected = await t.db.select({ at: collects.createdAt }).from(collects).where(eq(collects.targetId, id));
    const expected = Math.ceil(
      v.HEAT.like * fade(liked) + v.HEAT.comment * fade(commented) + v.HEAT.collect * fade(collected),
    );
    expect(shown.heat).toBe(expected);
    expect(shown.heat).toBeLessThanOrEqual(shown.diggCount + 2 * shown.commentCount + 3 * shown.collectCount);
    expect(shown.heat).toBeLessThan(shown.playCount);
  });

  it('no two neighbouring cards on the first pages of the feed, 首页 and the channels share a poster', async () => {
    const grids = [
      await v.recommend(null, { count: 20 }),
      await v.discover({ count: 48 }),
      ...(await Promise.all(v.CHANNEL_IDS.map((c) => v.byChannel(c, { count: 48 })))),
    ];
    for (const grid of grids) {
      for (let i = 1; i < grid.items.length; i++)
        expect(grid.items[i]!.poster, `card ${i}`).not.toBe(grid.items[i - 1]!.poster);
    }
    const [row] = await t.db
      .select({ n: sql<number>`count(distinct ${videos.poster})::int`, all: sql<number>`count(*)::int` })
      .from(videos);
    expect(row!.n).toBe(row!.all);
  });

  it('hot leaves a hidden work out before paging: a full page, and has_more while more is left', async () => {
    const active = await t.db
      .select({ id: videos.id })
      .from(videos)
      .where(sql`deleted_at is null`)
      .orderBy(videos.id)
      .limit(3);
    const [fan] = await t.db.select({ id: users.id }).from(users).orderBy(users.id).limit(1);
    await t.db
      .insert(likes)
      .values(active.map((a) => ({ userId: fan!.id, targetId: a.id, createdAt: new Date() })))
      .onConflictDoUpdate({ target: [likes.userId, likes.targetId], set: { createdAt: new Date() } });
    const hidden = (await v.hot({ count: 50 })).items[0]!;
    await t.db.update(videos).set({ visibility: 'private' }).where(eq(videos.id, hidden.id));
    try {
      const first = await v.hot({ count: 1 });
      expect(first.items).toHaveLength(1);
      expect(first.hasMore).toBe(true);
      expect(await drain((cursor) => v.hot({ cursor, count: 1 }))).not.toContain(hidden.id);
    } finally {
      await t.db.update(videos).set({ visibility: 'public' }).where(eq(videos.id, hidden.id));
    }
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
    // The video page passes the channel it already has: the same list.
    expect(await v.related(some!.id, { count: 5, channelId: some!.channelId })).toEqual(first);
  });

  it('follow and friend feeds show only followed and mutual authors', async () => {
    const [demo] = await t.db.select({ id: users.id }).from(users).where(eq(users.isDemo, true));
    const followed = new Set(
      (await t.db.select({ id: follows.followeeId }).from(follows).where(eq(follows.followerId, demo!.id))).map(
        (r) => r.id,
      ),
    );
    const feed = await v.followFeed(demo!.id, { count: 50 });
    expect(feed.items.length).toBeGreaterThan(0);
    for (const x of feed.items) expect(followed.has(x.author.id)).toBe(true);
    const friends = await v.friendFeed(demo!.id, { count: 50 });
    expect(friends.items.length).toBeGreaterThan(0);
    for (const x of friends.items) {
      const [back] = await t.db
        .select()
        .from(follows)
        .where(and(eq(follows.followerId, x.author.id), eq(follows.followeeId, demo!.id)));
      expect(back).toBeTruthy();
    }
  });

  it('the follow feed pages through what the viewer may see, however many newer works they may not', async () => {
    const [viewer, author] = await t.db
      .insert(users)
      .values([
        { secUid: 'follow-feed-viewer', nickname: '关注者', avatar: 'seed/avatars/1.svg' },
        { secUid: 'follow-feed-author', nickname: '作者', avatar: 'seed/avatars/2.svg' },
      ])
      .returning({ id: users.id });
    await t.db.insert(follows).values({ followerId: viewer!.id, followeeId: author!.id });
    const [clip] = await t.db.select().from(videos).limit(1);
    const work = (k: number, visibility: 'public' | 'friends') => ({
      authorId: author!.id,
      channelId: clip!.channelId,
      desc: `作品 ${k}`,
      media: clip!.media,
      poster: clip!.poster,
      durationMs: clip!.durationMs,
      width: clip!.width,
      height: clip!.height,
      sizeBytes: clip!.sizeBytes,
      visibility,
      createdAt: new Date(Date.UTC(2026, 0, 1 + k)),
    });
    // Three public works, then ten newer ones for friends (the author does not follow back): more than twice a page.
    const shown = await t.db
      .insert(videos)
      .values([0, 1, 2].map((k) => work(k, 'public')))
      .returning({ id: videos.id });
    await t.db.insert(videos).values(Array.from({ length: 10 }, (_, k) => work(3 + k, 'friends')));
    try {
      const ids = await drain((cursor) => v.followFeed(viewer!.id, { cursor, count: 2 }));
      expect(ids).toEqual(shown.map((r) => r.id).reverse());
    } finally {
      // The other tests count the seed's works.
      await t.db.delete(videos).where(eq(videos.authorId, author!.id));
    }
  });

  it('profile tabs list the rows behind their counts', async () => {
    const [u] = await t.db
      .select()
      .from(users)
      .where(sql`${users.awemeCount} > 3 and ${users.favoritingCount} > 3`)
      .limit(1);
    const posts = await drain((cursor) => v.profileTab(u!.id, 'post', { cursor, count: 50 }, null));
    expect(posts.length).toBe(u!.awemeCount);
    const liked = await drain((cursor) => v.profileTab(u!.id, 'like', { cursor, count: 50 }, null));
    expect(liked.length).toBe(u!.favoritingCount);
  });

  describe('recommend ranker', () => {
    let viewer: number;
    beforeAll(async () => {
      const [u] = await t.db
        .insert(users)
        .values({ secUid: 'ranker-test-viewer', nickname: 'ranker', avatar: 'avatars/a01.webp' })
        .returning({ id: users.id });
      viewer = u!.id;
    });

    /** The viewer's whole feed, in order. */
    const fullFeed = async () => drain((cursor) => v.recommend(viewer, { cursor, count: 50 }));
    const cardsOf = async (ids: number[]) => new Map((await v.byIds(ids, viewer)).map((c) => [c.id, c]));

    it('a viewer with no signals sees the anonymous ranking, and the same feed on every call', async () => {
      // Once the feed's shared pools have caught up with the earlier tests' likes (they may be this far behind).
      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + SHARED_POOLS.ttlMs);
        const mine = await v.recommend(viewer, { count: 20 });
        const anon = await v.recommend(null, { count: 20 });
        expect(mine.items.map((x) => x.id)).toEqual(anon.items.map((x) => x.id));
        expect((await v.recommend(viewer, { count: 20 })).items.map((x) => x.id)).toEqual(mine.items.map((x) => x.id));
      } finally {
        vi.useRealTimers();
      }
    });

    it('pages through the whole catalogue once, without repeats', async () => {
      const ids = await fullFeed();
      const [row] = await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(videos)
        .where(sql`deleted_at is null`);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(row!.n);
    });

    it('likes and collects in a channel raise that channel in the first page', async () => {
      const before = await v.recommend(viewer, { count: 20 });
      const count = (items: { channelId: number }[], ch: number) => items.filter((x) => x.channelId === ch).length;
      // The channel least present at the top, liked and collected deep down the list.
      const channels = [300201, 300203, 300204, 300205, 300206, 300207, 300208, 300209];
      const target = channels.sort((a, b) => count(before.items, a) - count(before.items, b))[0]!;
      const deep = await t.db
        .select({ id: videos.id })
        .from(videos)
        .where(and(eq(videos.channelId, target), sql`deleted_at is null`))
        .orderBy(videos.id)
        .limit(6);
      await t.db.insert(likes).values(deep.map((d) => ({ userId: viewer, targetId: d.id })));
      await t.db.insert(collects).values(deep.slice(0, 3).map((d) => ({ userId: viewer, targetId: d.id })));
      const after = await v.recommend(viewer, { count: 20 });
      expect(count(after.items, target)).toBeGreaterThan(count(before.items, target));
      await t.db.delete(likes).where(eq(likes.userId, viewer));
      await t.db.delete(collects).where(eq(collects.userId, viewer));
    });

    it('following an author lifts their videos; 不感兴趣 on one of them sinks the rest and drops that one', async () => {
      const base = await fullFeed();
      const cards = await cardsOf(base);
      // An author from the middle of the feed with at least three videos.
      const byAuthor = new Map<number, number[]>();
      for (const id of base)
        byAuthor.set(cards.get(id)!.author.id, [...(byAuthor.get(cards.get(id)!.author.id) ?? []), id]);
      const [author, theirs] = [...byAuthor].find(
        ([, ids]) => ids.length >= 3 && base.indexOf(ids[0]!) > base.length / 3,
      )!;
      const bestRank = (feed: number[]) =>
        Math.min(...theirs.filter((id) => feed.includes(id)).map((id) => feed.indexOf(id)));

      await t.db.insert(follows).values({ followerId: viewer, followeeId: author });
      const followed = await fullFeed();
      expect(bestRank(followed)).toBeLessThan(bestRank(base));
      await t.db.delete(follows).where(eq(follows.followerId, viewer));

      await t.db.insert(notInterested).values({ userId: viewer, targetId: theirs[0]! });
      const disliked = await fullFeed();
      expect(disliked).not.toContain(theirs[0]);
      const rest = theirs.slice(1);
      const mean = (feed: number[]) => rest.reduce((sum, id) => sum + feed.indexOf(id), 0) / rest.length;
      expect(mean(disliked)).toBeGreaterThan(mean(base));
      await t.db.delete(notInterested).where(eq(notInterested.userId, viewer));
    });

    it('what was watched in the last days sinks; what is being watched in this session keeps its place', async () => {
      const first = (await v.recommend(viewer, { count: 10 })).items.map((x) => x.id);
      const top = first[0]!;
      await t.db
        .insert(watchHistory)
        .values({ userId: viewer, videoId: top, progressMs: 1000, watchedAt: new Date(Date.now() - 5 * 60_000) });
      expect((await v.recommend(viewer, { count: 10 })).items.map((x) => x.id)).toContain(top);
      await t.db
        .update(watchHistory)
        .set({ watchedAt: new Date(Date.now() - 24 * 3600_000) })
        .where(eq(watchHistory.userId, viewer));
      expect((await v.recommend(viewer, { count: 10 })).items.map((x) => x.id)).not.toContain(top);
      await t.db.delete(watchHistory).where(eq(watchHistory.userId, viewer));
    });

    it('never shows one author twice in a row when another is at hand', async () => {
      const page = await v.recommend(viewer, { count: 30 });
      for (let i = 1; i < page.items.length; i++)
        expect(page.items[i]!.author.id).not.toBe(page.items[i - 1]!.author.id);
    });
  });
});
