/**
 * 为什么推荐 through the API: every recommend item carries its reason, 减少此类 and 不感兴趣 change the next page at once,
 * and bad input is an envelope error that stores nothing.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { FEED_POOLS } from '../../src/shared/feed-reason.ts';
import { call, expectErrorA, ok, one, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
const W = '/aweme/v1/web';

interface Item {
  aweme_id: string;
  author: { sec_uid: string };
  recommend_reason: { code: string; text: string; signals: string[]; channel_id: number; channel_name: string };
}

let me: { id: number };
let token: string;

beforeAll(async () => {
  // A member with history, so that their feed has affinity channels.
  me = await one(ctx, sql`select user_id as id from likes group by user_id order by count(*) desc, user_id limit 1`);
  token = await tokenFor(me.id);
});

const feed = async (query: Record<string, string | number> = {}, as = token) =>
  (await ok('GET', `${W}/tab/feed/`, { token: as, query: { count: 10, ...query } })) as {
    aweme_list: Item[];
    cursor: string;
  };

/** How many items of each channel a page holds. */
const perChannel = (items: Item[]) => {
  const m = new Map<number, number>();
  for (const a of items) m.set(a.recommend_reason.channel_id, (m.get(a.recommend_reason.channel_id) ?? 0) + 1);
  return m;
};

describe('recommend_reason', () => {
  it('every item of a member’s feed names its pool in words, with its channel', async () => {
    const names = new Map(
      (await ctx.db.execute<{ id: number; channel_id: number }>(sql`select id, channel_id from videos`)).rows.map(
        (r) => [String(r.id), Number(r.channel_id)],
      ),
    );
    const page = await feed();
    expect(page.aweme_list.length).toBe(10);
    const codes = new Set<string>();
    for (const a of page.aweme_list) {
      const r = a.recommend_reason;
      expect(FEED_POOLS).toContain(r.code);
      expect(r.channel_id).toBe(names.get(a.aweme_id));
      expect(r.channel_name.length).toBeGreaterThan(0);
      expect(r.text.length).toBeGreaterThan(0);
      if (r.code === 'affinity' && r.signals.includes('channel')) expect(r.text).toBe(`你常看的${r.channel_name}`);
      if (r.code === 'popular') expect(r.text).toBe('热门');
      if (r.code === 'follow') expect(r.text).toBe('你关注的作者');
      codes.add(r.code);
    }
    // A member with history is not shown the visitors' feed.
    expect([...codes].some((c) => c !== 'popular')).toBe(true);
  });

  it('a visitor’s items are 热门, and Family B’s feed says the same in camelCase', async () => {
    const page = await ok('GET', `${W}/tab/feed/`, { query: { count: 5 } });
    for (const a of page.aweme_list as Item[])
      expect(a.recommend_reason).toMatchObject({ code: 'popular', text: '热门' });
    const b = await ok('POST', '/video/feed', { token, form: { page: 1, size: 5 } });
    expect(b.data.length).toBe(5);
    for (const v of b.data) expect(v.recommendReason.channelId).toBe(v.channelId);
  });
});

describe('减少此类 and 不感兴趣', () => {
  it('减少此类 on a channel leaves at most one of it on the next page, and its undo brings the share back', async () => {
    const before = await feed();
    const [channel, count] = [...perChannel(before.aweme_list)].sort((a, b) => b[1] - a[1])[0]!;
    expect(count).toBeGreaterThanOrEqual(2);
    const pick = before.aweme_list.find((a) => a.recommend_reason.channel_id === channel)!;
    const less = await ok('POST', `${W}/commit/dislike/less/`, {
      token,
      form: { aweme_id: pick.aweme_id, kind: 'channel' },
    });
    expect(less).toEqual({ status_code: 0, kind: 'channel', target_id: channel });
    // The next pages, from the top and from the cursor of the page before.
    const after = await feed();
    const next = await feed({ cursor: after.cursor });
    for (const page of [after, next]) {
      expect(perChannel(page.aweme_list).get(channel) ?? 0).toBeLessThanOrEqual(1);
      expect(page.aweme_list.length).toBe(10);
      for (const a of page.aweme_list)
        if (a.recommend_reason.channel_id === channel) expect(a.recommend_reason.signals).toContain('less');
    }
    const undo = await ok('POST', `${W}/commit/dislike/less/cancel/`, {
      token,
      form: { kind: 'channel', target_id: channel },
    });
    expect(undo.removed).toBe(1);
    expect(perChannel((await feed()).aweme_list).get(channel)).toBe(count);
    const again = await ok('POST', `${W}/commit/dislike/less/cancel/`, {
      token,
      form: { kind: 'channel', target_id: channel },
    });
    expect(again.removed).toBe(0);
  });

  it('减少此类 on an author keeps at most one of their works a page', async () => {
    const other = await one<{ id: number }>(
      ctx,
      sql`select f.follower_id as id from follows f join videos v on v.author_id = f.followee_id
        group by f.follower_id, f.followee_id order by count(*) desc limit 1`,
    );
    const theirs = await tokenFor(other.id);
    const authors = (items: Item[]) => {
      const m = new Map<string, number>();
      for (const a of items) m.set(a.author.sec_uid, (m.get(a.author.sec_uid) ?? 0) + 1);
      return m;
    };
    const page = await feed({ count: 30 }, theirs);
    const [author] = [...authors(page.aweme_list)].sort((a, b) => b[1] - a[1])[0]!;
    const pick = page.aweme_list.find((a) => a.author.sec_uid === author)!;
    await ok('POST', `${W}/commit/dislike/less/`, { token: theirs, form: { aweme_id: pick.aweme_id, kind: 'author' } });
    const after = await feed({ count: 10 }, theirs);
    expect(authors(after.aweme_list).get(author) ?? 0).toBeLessThanOrEqual(1);
  });

  it('不感兴趣 takes the work out of the next pages for good', async () => {
    const page = await feed();
    const gone = page.aweme_list[1]!.aweme_id;
    await ok('POST', `${W}/commit/dislike/item/`, { token, form: { aweme_id: gone } });
    const again = await feed();
    const next = await feed({ cursor: again.cursor });
    const ids = [...again.aweme_list, ...next.aweme_list].map((a) => a.aweme_id);
    expect(ids).not.toContain(gone);
  });

  it('keeps a member’s newest 200 rows only', async () => {
    await ctx.db.execute(sql`insert into feed_less (user_id, kind, target_id, created_at)
      select ${me.id}, 'author', g, now() - interval '1 day' from generate_series(100000, 100204) g`);
    const v = await one<{ id: number }>(ctx, sql`select id from videos where deleted_at is null order by id limit 1`);
    await ok('POST', `${W}/commit/dislike/less/`, { token, form: { aweme_id: v.id, kind: 'author' } });
    const n = await one<{ n: number }>(ctx, sql`select count(*)::int as n from feed_less where user_id = ${me.id}`);
    expect(n.n).toBe(200);
    await ctx.db.execute(sql`delete from feed_less where user_id = ${me.id}`);
  });
});

describe('bad input', () => {
  const less = `/api${W}/commit/dislike/less/`;
  const stored = async () =>
    (await one<{ n: number }>(ctx, sql`select count(*)::int as n from feed_less where user_id = ${me.id}`)).n;

  it.each([
    ['an unknown video', { aweme_id: 2_000_000_000, kind: 'channel' }, 404, 4],
    ['a wrong kind', { aweme_id: 1, kind: 'hashtag' }, 400, 2],
    ['a NUL byte in the kind', { aweme_id: 1, kind: 'chan\u0000nel' }, 400, 2],
    ['a NUL byte in the id', { aweme_id: '1\u0000', kind: 'channel' }, 400, 2],
    ['a malformed id', { aweme_id: 'abc', kind: 'channel' }, 400, 2],
    ['no kind', { aweme_id: 1 }, 400, 2],
  ] as const)('%s is an envelope error and stores nothing', async (_, form, status, code) => {
    const n = await stored();
    expectErrorA(await call('POST', less, { token, form }), status, code);
    expect(await stored()).toBe(n);
  });

  it('a malformed body, a visitor and a bad undo are envelope errors too', async () => {
    expectErrorA(
      await call('POST', less, {
        token,
        body: '%E4%ZZ=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      400,
      2,
    );
    expectErrorA(await call('POST', less, { form: { aweme_id: 1, kind: 'channel' } }), 401, 8);
    expectErrorA(
      await call('POST', `/api${W}/commit/dislike/less/cancel/`, { token, form: { kind: 'channel', target_id: -1 } }),
      400,
      2,
    );
  });
});
