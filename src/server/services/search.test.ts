import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { MATCH_POOL, normalizeQuery, searchUsers, searchVideos } from './search.ts';
import { tokenize } from './search-tokens.ts';

let t: TestDb;
let author: { id: number; nickname: string };

async function scalar(query: string, params: unknown[] = []): Promise<number> {
  const { rows } = await t.pool.query(query, params);
  return Number(Object.values(rows[0] as Record<string, unknown>)[0]);
}

/** A video indexed as the seed indexes one: tokens of title, hashtags and the author's nickname. */
async function addVideo(
  desc: string,
  opts: { authorId?: number; nickname?: string; digg?: number; daysAgo?: number } = {},
): Promise<number> {
  const authorId = opts.authorId ?? author.id;
  const nickname = opts.nickname ?? author.nickname;
  const { rows } = await t.pool.query(
    `insert into videos (author_id, channel_id, "desc", media, poster, duration_ms, width, height, size_bytes, digg_count, play_count, search_tokens, created_at)
     values ($1, 300204, $2, 'clips/c01.mp4', 'posters/c01.webp', 10000, 540, 960, 1000, $3, $3 * 10, $4, now() - make_interval(days => $5))
     returning id`,
    [authorId, desc, opts.digg ?? 0, tokenize(`${desc} ${nickname}`), opts.daysAgo ?? 1],
  );
  return rows[0].id;
}

async function addUser(nickname: string, followers = 0): Promise<number> {
  const { rows } = await t.pool.query(
    `insert into users (sec_uid, nickname, avatar, follower_count) values ($1, $2, 'avatars/a01.webp', $3) returning id`,
    [`test-${nickname}-${Math.random().toString(36).slice(2)}`, nickname, followers],
  );
  return rows[0].id;
}

const logCount = () => scalar('select count(*) from search_log');

beforeAll(async () => {
  t = await freshDb();
  const { rows } = await t.pool.query('select id, nickname from users order by id limit 1');
  author = rows[0];
});
afterAll(() => t.close());

describe('normalizeQuery', () => {
  it('trims, and cuts at 100 characters counted as code points', () => {
    expect([...normalizeQuery('美'.repeat(101))].length).toBe(100);
    expect(normalizeQuery(`  ${'𠮷'.repeat(101)}  `)).toBe('𠮷'.repeat(100));
    expect(normalizeQuery('   ')).toBe('');
    expect(normalizeQuery(' 美食 ')).toBe('美食');
  });
});

describe('searchVideos', () => {
  it('finds a two-character Chinese word inside a title', async () => {
    const id = await addVideo('今天的美食探店 #周末');
    const { items } = await searchVideos('美食', { count: 50 });
    expect(items.map((v) => v.id)).toContain(id);
    for (const v of items) expect(`${v.desc} ${v.author.nickname}`).toMatch(/美食/);
  });

  it('does not match a bigram that only spans two separate words', async () => {
    const id = await addVideo('火锅，烧烤');
    expect((await searchVideos('锅烧')).items.map((v) => v.id)).not.toContain(id);
  });

  it('ranks the exact phrase in the title, then all its bigrams in the title, then a hashtag, then the nickname', async () => {
    const nick = '蓝鲸潜水员';
    const diver = await addUser(nick);
    // Popularity is reversed against match quality, so only the tiers can put them in this order.
    const phrase = await addVideo('深海蓝鲸潜水员日记', { digg: 1 });
    const bigrams = await addVideo('看蓝鲸潜水的潜水员', { digg: 10 });
    const tagged = await addVideo('海底的一天 #蓝鲸潜水员', { digg: 100 });
    const byNick = await addVideo('今天出海了', { authorId: diver, nickname: nick, digg: 1000 });
    const { items } = await searchVideos('蓝鲸潜水员', { count: 10 });
    expect(items.map((v) => v.id)).toEqual([phrase, bigrams, tagged, byNick]);
  });

  it('ranks by likes and then freshness within one tier', async () => {
    const older = await addVideo('雪山徒步记录', { digg: 500, daysAgo: 5 });
    const popular = await addVideo('雪山徒步攻略', { digg: 5000, daysAgo: 5 });
    const newer = await addVideo('雪山徒步日常', { digg: 500, daysAgo: 1 });
    const { items } = await searchVideos('雪山徒步', { count: 10 });
    expect(items.map((v) => v.id)).toEqual([popular, newer, older]);
  });

  it('ranks a title match first even when hundreds of more popular videos match elsewhere', async () => {
    await t.pool.query(
      `insert into videos (author_id, channel_id, "desc", media, poster, duration_ms, width, height, size_bytes, digg_count, search_tokens)
       select $1, 300204, '热门合集' || g || ' #珊瑚礁潜水', 'clips/c01.mp4', 'posters/c01.webp', 10000, 540, 960, 1000, 1000 + g, $2
       from generate_series(1, ${MATCH_POOL + 100}) g`,
      [author.id, tokenize(`热门合集 #珊瑚礁潜水 ${author.nickname}`)],
    );
    const quiet = await addVideo('第一次珊瑚礁潜水', { digg: 0, daysAgo: 300 });
    const { items, hasMore } = await searchVideos('珊瑚礁潜水', { count: 5 });
    expect(items[0]!.id).toBe(quiet);
    expect(items[1]!.diggCount).toBeGreaterThan(items[2]!.diggCount);
    expect(hasMore).toBe(true);
  });

  it('pages without repeats or gaps', async () => {
    const all = (await searchVideos('美', { count: 50 })).items.map((v) => v.id);
    const paged: number[] = [];
    let cursor = '0';
    for (;;) {
      const page = await searchVideos('美', { cursor, count: 7 });
      paged.push(...page.items.map((v) => v.id));
      if (!page.hasMore) break;
      cursor = page.cursor;
    }
    expect(all.length).toBeGreaterThan(7);
    expect(new Set(paged).size).toBe(paged.length);
    expect(paged.slice(0, all.length)).toEqual(all);
  });

  it('logs the first page of a search with the user id only, and not the pages after it', async () => {
    const before = await logCount();
    await searchVideos('  搜索日志测试  ', {}, { log: { userId: author.id } });
    await searchVideos('搜索日志测试', { skip: 20 }, { log: { userId: author.id } });
    await searchVideos('搜索日志测试', {}, { log: { userId: null } });
    expect(await logCount()).toBe(before + 2);
    const { rows } = await t.pool.query(
      "select user_id, query from search_log where query = '搜索日志测试' order by id",
    );
    expect(rows).toEqual([
      { user_id: author.id, query: '搜索日志测试' },
      { user_id: null, query: '搜索日志测试' },
    ]);
  });

  it('cuts a 101-character query to 100 before searching and logging', async () => {
    const long = `长${'测'.repeat(100)}`;
    await searchVideos(long, {}, { log: { userId: null } });
    const { rows } = await t.pool.query('select query from search_log order by id desc limit 1');
    expect([...rows[0].query].length).toBe(100);
    expect(rows[0].query).toBe(`长${'测'.repeat(99)}`);
  });

  it('does nothing for an empty or blank query: no results, nothing logged', async () => {
    const before = await logCount();
    for (const blank of ['', '   ', '\n\t　']) {
      expect(await searchVideos(blank, {}, { log: { userId: author.id } })).toEqual({
        items: [],
        cursor: '0',
        hasMore: false,
      });
      expect(await searchUsers(blank, {}, { log: { userId: null } })).toEqual({
        items: [],
        cursor: '0',
        hasMore: false,
      });
    }
    expect(await logCount()).toBe(before);
  });
});

describe('searchUsers', () => {
  it('finds users by nickname: the nickname itself, then those starting with it, then containing it, then by followers', async () => {
    const contains = await addUser('爱吃橘子猫的人', 9000);
    const exact = await addUser('橘子猫', 1);
    const prefixSmall = await addUser('橘子猫日记', 10);
    const prefixBig = await addUser('橘子猫小分队', 500);
    const { items } = await searchUsers('橘子猫', { count: 10 });
    expect(items.map((u) => u.id)).toEqual([exact, prefixBig, prefixSmall, contains]);
    expect(items[0]).toMatchObject({ nickname: '橘子猫', followerCount: 1 });
  });

  it('indexes nicknames in PostgreSQL exactly as the tokenizer does, for seeded and new users alike', async () => {
    await addUser('Crème ケーキ・カフェ😀小王');
    const { rows } = await t.pool.query<{ nickname: string; search_tokens: string[] }>(
      'select nickname, search_tokens from users',
    );
    expect(rows.length).toBeGreaterThan(50);
    for (const r of rows) expect([...r.search_tokens].sort(), r.nickname).toEqual([...tokenize(r.nickname)].sort());
  });

  it('follows a nickname change', async () => {
    const id = await addUser('旧名字');
    await t.pool.query("update users set nickname = '新名字' where id = $1", [id]);
    expect((await searchUsers('新名字')).items.map((u) => u.id)).toContain(id);
    expect((await searchUsers('旧名字')).items.map((u) => u.id)).not.toContain(id);
  });
});
