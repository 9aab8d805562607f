import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { clearHotWords } from './hot-search.ts';
import { clearSuggestCache, MAX_SUGGESTIONS, suggestByPrefix } from './suggest.ts';
import { tokenize } from './search-tokens.ts';

let t: TestDb;

beforeAll(async () => {
  t = await freshDb();
});
beforeEach(() => {
  clearHotWords();
  clearSuggestCache();
});
afterAll(() => t.close());

async function addVideo(desc: string, digg: number, visibility = 'public'): Promise<number> {
  const { rows } = await t.pool.query(
    `insert into videos (author_id, channel_id, "desc", media, poster, duration_ms, width, height, size_bytes, digg_count, search_tokens, visibility)
     values (1, 300204, $1, 'clips/c01.mp4', 'posters/c01.webp', 10000, 540, 960, 1000, $2, $3, $4) returning id`,
    [desc, digg, tokenize(desc), visibility],
  );
  return rows[0].id;
}

/** A hashtag used by one video. */
async function tag(name: string, videoId: number): Promise<void> {
  await t.pool.query(`insert into hashtags (name) values ($1) on conflict do nothing`, [name]);
  await t.pool.query(`insert into video_hashtags (video_id, hashtag_id) select $1, id from hashtags where name = $2`, [
    videoId,
    name,
  ]);
}

describe('suggestByPrefix', () => {
  it('completes from hot words first, then hashtags, then titles (most liked first), then works found, at most 8', async () => {
    await t.pool.query(`insert into search_log (query) select '补全测试热词' from generate_series(1, 5)`);
    await tag('补全测试话题', await addVideo('别的标题 #补全测试话题', 1));
    await addVideo('补全测试标题甲 #别的', 5);
    await addVideo('补全测试标题乙', 50);
    expect(await suggestByPrefix('补全测试')).toEqual([
      '补全测试热词',
      '补全测试话题',
      '补全测试标题乙',
      '补全测试标题甲',
      // A work the text finds by its hashtag, after the titles that start with the text.
      '别的标题',
    ]);
  });

  it('never gives more than 8, without duplicates', async () => {
    for (const prefix of ['美', '今天', 'a']) {
      const words = await suggestByPrefix(prefix);
      expect(words.length).toBeLessThanOrEqual(MAX_SUGGESTIONS);
      expect(new Set(words.map((w) => w.toLowerCase())).size).toBe(words.length);
    }
    for (let i = 0; i < 12; i++) await addVideo(`满屏补全第${i}集`, i);
    expect(await suggestByPrefix('满屏补全')).toHaveLength(MAX_SUGGESTIONS);
  });

  it('offers users and titles holding the text beside its hashtags: 美 is more than 美食 and 美食分享', async () => {
    const words = await suggestByPrefix('美');
    expect(words).toHaveLength(MAX_SUGGESTIONS);
    const { rows: people } = await t.pool.query<{ nickname: string }>(
      `select nickname from users where nickname like '%美%' order by starts_with(nickname, '美') desc, follower_count desc, id limit 2`,
    );
    expect(people.length).toBeGreaterThan(0);
    for (const p of people) expect(words).toContain(p.nickname);
    const hashtags = await t.pool.query<{ name: string }>(`select name from hashtags where name like '美%'`);
    const tagNames = new Set(hashtags.rows.map((r) => r.name));
    // Hashtags are there, and so are titles of works tagged #美食: neither kind crowds the other out.
    expect(words.some((w) => tagNames.has(w))).toBe(true);
    const titles = words.filter((w) => !tagNames.has(w) && !people.some((p) => p.nickname === w));
    expect(titles.length).toBeGreaterThan(0);
    for (const title of titles) {
      const { rows } = await t.pool.query(
        `select 1 from videos where split_part("desc", ' #', 1) = $1 and "desc" like '%美%'`,
        [title],
      );
      expect(rows.length, title).toBeGreaterThan(0);
    }
  });

  it('offers users whose nickname starts with the text before those only holding it, each the most followed first', async () => {
    await t.pool.query(
      `insert into users (sec_uid, nickname, avatar, follower_count) values
        ('sug-a', '补全人少', 'seed/avatars/1.svg', 1), ('sug-b', '补全人多', 'seed/avatars/1.svg', 9),
        ('sug-c', '名叫补全人', 'seed/avatars/1.svg', 500)`,
    );
    const words = await suggestByPrefix('补全人');
    expect(words.filter((w) => w.includes('补全人'))).toEqual(['补全人多', '补全人少', '名叫补全人']);
  });

  it('matches case-insensitively and treats LIKE wildcards as text', async () => {
    await addVideo('Vlog第一集', 1);
    expect(await suggestByPrefix('VLOG第')).toContain('Vlog第一集');
    expect(await suggestByPrefix('%')).toEqual([]);
    expect(await suggestByPrefix('_')).toEqual([]);
  });

  it.each(['friends', 'private'])(
    'never names a %s work: neither its title nor a hashtag only it uses',
    async (visibility) => {
      const id = await addVideo(`隐藏补全${visibility}标题 #隐藏补全${visibility}话题`, 100, visibility);
      await tag(`隐藏补全${visibility}话题`, id);
      await t.pool.query(`insert into hashtags (name) values ('隐藏补全无人用') on conflict do nothing`);
      expect(await suggestByPrefix('隐藏补全')).toEqual([]);
    },
  );

  it('suggests nothing for blank text', async () => {
    expect(await suggestByPrefix('   ')).toEqual([]);
  });

  it('uses the title prefix index', async () => {
    const { rows } = await t.pool.query(`explain select 1 from videos v where v.deleted_at is null
      and lower(split_part(v.desc, ' #', 1)) like '美%' order by lower(split_part(v.desc, ' #', 1)) using ~<~ limit 200`);
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('videos_title_prefix_idx');
  });
});
