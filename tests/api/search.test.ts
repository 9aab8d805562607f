/** Contract tests of the search endpoints: schemas, paging without repeats, logging, 热搜, 猜你想搜 rounds, the 100-character rule. */
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearHotWords } from '../../src/server/services/hot-search.ts';
import { call, expectErrorA, ok, one, pageAll, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
const W = '/aweme/v1/web';

let demo: { id: number };
let token: string;
let tag: { name: string; videos: number };

const logged = async (query: string) =>
  (await one<{ n: number }>(ctx, sql`select count(*)::int as n from search_log where query = ${query}`)).n;

beforeAll(async () => {
  demo = await one(ctx, sql`select id from users where is_demo limit 1`);
  token = await tokenFor(demo.id);
  tag = await one(
    ctx,
    sql`
    select h.name, count(*)::int as videos from hashtags h join video_hashtags vh on vh.hashtag_id = h.id
    join videos v on v.id = vh.video_id and v.deleted_at is null
    group by h.name order by count(*) desc, h.name limit 1`,
  );
});
beforeEach(() => clearHotWords());

describe('general/search/single', () => {
  it('finds every video of a hashtag, paged by offset without repeats', async () => {
    const ids = await pageAll(async (offset) => {
      const body = await ok('GET', `${W}/general/search/single/`, { query: { keyword: tag.name, offset, count: 7 } });
      for (const d of body.data) expect(d.aweme_info.desc).toContain(tag.name);
      return {
        ids: body.data.map((d: { aweme_info: { aweme_id: string } }) => d.aweme_info.aweme_id),
        next: body.cursor,
        hasMore: body.has_more === 1,
      };
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(tag.videos);
  });

  it('logs the first page only, with the viewer’s id', async () => {
    const word = '接口日志测试';
    await ok('GET', `${W}/general/search/single/`, { query: { keyword: ` ${word} ` }, token });
    await ok('GET', `${W}/general/search/single/`, { query: { keyword: word, offset: 10 }, token });
    expect(await logged(word)).toBe(1);
    const row = await one<{ user_id: number }>(ctx, sql`select user_id from search_log where query = ${word}`);
    expect(row.user_id).toBe(demo.id);
  });

  /** Every result of `keyword` under `filters`, walked `count` at a time, as ids with what the checks read. */
  async function walk(keyword: string, filters: Record<string, string | number>, count = 5) {
    const rows: { id: string; digg: number; created: number; ms: number }[] = [];
    await pageAll(async (offset) => {
      const body = await ok('GET', `${W}/general/search/single/`, { query: { keyword, offset, count, ...filters } });
      const page = body.data.map((d: { aweme_info: any }) => ({
        id: d.aweme_info.aweme_id,
        digg: d.aweme_info.statistics.digg_count,
        created: d.aweme_info.create_time,
        ms: d.aweme_info.video.duration,
      }));
      rows.push(...page);
      return { ids: page.map((r: { id: string }) => r.id), next: body.cursor, hasMore: body.has_more === 1 };
    });
    expect(new Set(rows.map((r) => r.id)).size, 'no result twice across pages').toBe(rows.length);
    return rows;
  }

  it('筛选: sort_type orders by likes or by date, publish_time and filter_duration narrow, and each pages whole', async () => {
    const all = await walk(tag.name, {});
    expect(all.length).toBeGreaterThan(10);
    const byLikes = await walk(tag.name, { sort_type: 1 });
    expect(byLikes.map((r) => r.digg)).toEqual([...byLikes.map((r) => r.digg)].sort((a, b) => b - a));
    const newest = await walk(tag.name, { sort_type: 2 });
    expect(newest.map((r) => r.created)).toEqual([...newest.map((r) => r.created)].sort((a, b) => b - a));
    // Reordering keeps the same results.
    expect(new Set(newest.map((r) => r.id))).toEqual(new Set(all.map((r) => r.id)));
    expect(new Set(byLikes.map((r) => r.id))).toEqual(new Set(all.map((r) => r.id)));

    // The newest result made a day old and another four days old, a third a year old: the windows keep what is inside.
    const [fresh, week, old] = all.map((r) => Number(r.id));
    await ctx.db.execute(sql`update videos set created_at = now() - interval '2 hours' where id = ${fresh}`);
    await ctx.db.execute(sql`update videos set created_at = now() - interval '4 days' where id = ${week}`);
    await ctx.db.execute(sql`update videos set created_at = now() - interval '400 days' where id = ${old}`);
    const day = await walk(tag.name, { publish_time: 1, sort_type: 2 });
    expect(day.map((r) => Number(r.id))).toContain(fresh);
    expect(day.map((r) => Number(r.id))).not.toContain(week);
    for (const r of day) expect(r.created).toBeGreaterThan(Date.now() / 1000 - 86_400);
    const sevenDays = (await walk(tag.name, { publish_time: 7 })).map((r) => Number(r.id));
    expect(sevenDays).toEqual(expect.arrayContaining([fresh, week]));
    expect((await walk(tag.name, { publish_time: 180 })).map((r) => Number(r.id))).not.toContain(old);

    // Two results lengthened to 3 and 8 minutes: each length filter holds exactly its own.
    const [mid, long] = all.slice(-2).map((r) => Number(r.id));
    await ctx.db.execute(sql`update videos set duration_ms = 180000 where id = ${mid}`);
    await ctx.db.execute(sql`update videos set duration_ms = 480000 where id = ${long}`);
    expect((await walk(tag.name, { filter_duration: '1-5' })).map((r) => Number(r.id))).toEqual([mid]);
    expect((await walk(tag.name, { filter_duration: '5-10000' })).map((r) => Number(r.id))).toEqual([long]);
    const short = await walk(tag.name, { filter_duration: '0-1' }, 4);
    expect(short).toHaveLength(all.length - 2);
    for (const r of short) expect(r.ms).toBeLessThan(60_000);
  });

  it('筛选 refuses values Douyin does not have, and a filtered search is not logged again for 热搜', async () => {
    const bads: Record<string, string | number>[] = [
      { sort_type: 3 },
      { publish_time: 30 },
      { filter_duration: '2-3' },
    ];
    for (const bad of bads)
      expectErrorA(
        await call('GET', `/api${W}/general/search/single/`, { query: { keyword: tag.name, ...bad } }),
        400,
        2,
      );
    const word = '筛选日志测试';
    await ok('GET', `${W}/general/search/single/`, { query: { keyword: word }, token });
    await ok('GET', `${W}/general/search/single/`, { query: { keyword: word, sort_type: 2 }, token });
    expect(await logged(word)).toBe(1);
  });

  it('answers 400 to a blank keyword and to one over 100 characters, and logs neither', async () => {
    const before = await one<{ n: number }>(ctx, sql`select count(*)::int as n from search_log`);
    expectErrorA(await call('GET', `/api${W}/general/search/single/`, { query: { keyword: '   ' } }), 400, 2);
    expectErrorA(
      await call('GET', `/api${W}/general/search/single/`, { query: { keyword: '搜'.repeat(101) } }),
      400,
      2,
    );
    const after = await one<{ n: number }>(ctx, sql`select count(*)::int as n from search_log`);
    expect(after.n).toBe(before.n);
    await ok('GET', `${W}/general/search/single/`, { query: { keyword: '搜'.repeat(100) } });
  });
});

describe('discover/search (users)', () => {
  it('finds a user by nickname, with the viewer’s follow status, paged without repeats', async () => {
    const target = await one<{ id: number; nickname: string; sec_uid: string }>(
      ctx,
      sql`
      select id, nickname, sec_uid from users where not is_demo order by follower_count desc, id limit 1`,
    );
    await ok('POST', `${W}/commit/follow/user/`, { form: { user_id: target.id, type: 1 }, token });
    const body = await ok('GET', `${W}/discover/search/`, { query: { keyword: target.nickname, type: 'user' }, token });
    expect(body.user_list[0].user_info).toMatchObject({ sec_uid: target.sec_uid, nickname: target.nickname });
    expect(body.user_list[0].user_info.follow_status).toBeGreaterThan(0);
    const anonymous = await ok('GET', `${W}/discover/search/`, { query: { keyword: target.nickname } });
    expect(anonymous.user_list[0].user_info.follow_status).toBe(0);

    const suffix = await one<{ s: string }>(
      ctx,
      sql`
      select right(nickname, 1) as s from users group by 1 order by count(*) desc limit 1`,
    );
    const ids = await pageAll(async (offset) => {
      const page = await ok('GET', `${W}/discover/search/`, { query: { keyword: suffix.s, offset, count: 4 } });
      for (const u of page.user_list) expect(u.user_info.nickname).toContain(suffix.s);
      return {
        ids: page.user_list.map((u: { user_info: { uid: string } }) => u.user_info.uid),
        next: page.cursor,
        hasMore: page.has_more === 1,
      };
    });
    expect(ids.length).toBeGreaterThan(4);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('refuses another type', async () => {
    expectErrorA(await call('GET', `/api${W}/discover/search/`, { query: { keyword: '美食', type: 'video' } }), 400, 2);
  });
});

describe('hot/search/list', () => {
  it('puts a word searched often through the API at the top', async () => {
    const word = '接口热搜冲榜';
    for (let i = 0; i < 25; i++) await ok('GET', `${W}/general/search/single/`, { query: { keyword: word, count: 1 } });
    clearHotWords();
    const body = await ok('GET', `${W}/hot/search/list/`, { query: { count: 6 } });
    expect(body.data.word_list).toHaveLength(6);
    expect(body.data.word_list[0]).toMatchObject({ word, position: 1 });
    expect(body.data.word_list.map((w: { position: number }) => w.position)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

describe('search/sug', () => {
  it('completes a prefix with at most 8 words: its hashtags, users and the titles of the works it finds', async () => {
    const body = await ok('GET', `${W}/search/sug/`, { query: { keyword: tag.name.slice(0, 1) } });
    expect(body.sug_list.length).toBe(8);
    expect(body.sug_list.map((s: { content: string }) => s.content)).toContain(tag.name);
    expectErrorA(await call('GET', `/api${W}/search/sug/`, { query: { keyword: 'x'.repeat(101) } }), 400, 2);
  });
});

describe('api/suggest_words', () => {
  it('换一换: refresh_index gives another set of count words', async () => {
    const sets = [];
    for (const refresh_index of [0, 1]) {
      const body = await ok('GET', `${W}/api/suggest_words/`, { query: { refresh_index, count: 6 }, token });
      const words = body.data[0].words;
      expect(words).toHaveLength(6);
      expect(new Set(words.map((w: { id: string }) => w.id)).size).toBe(6);
      sets.push(words.map((w: { word: string }) => w.word).join());
    }
    expect(sets[1]).not.toBe(sets[0]);
    expectErrorA(await call('GET', `/api${W}/api/suggest_words/`, { query: { count: 9 } }), 400, 2);
  });

  it('puts completions of query first', async () => {
    const body = await ok('GET', `${W}/api/suggest_words/`, { query: { query: tag.name } });
    expect(body.data[0].words[0].word).toBe(tag.name);
  });
});
