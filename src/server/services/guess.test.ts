import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { guessWords } from './guess.ts';
import { clearHotWords, hotSearchWords } from './hot-search.ts';

let t: TestDb;
let viewer: number;

beforeAll(async () => {
  t = await freshDb();
  const { rows } = await t.pool.query(
    `insert into users (sec_uid, nickname, avatar) select 'guess-' || g, '猜测用户' || g, 'avatars/a01.webp' from generate_series(1, 3) g returning id`,
  );
  viewer = rows[0].id;
  // Two other people searched 露营 and also 帐篷推荐 (and one of them 咖啡); the viewer searched 露营.
  await t.pool.query(
    `insert into search_log (user_id, query) values
       ($1, '露营'), ($2, '露营'), ($2, '帐篷推荐'), ($3, '露营'), ($3, '帐篷推荐'), ($3, '手冲咖啡')`,
    [viewer, rows[1].id, rows[2].id],
  );
});
beforeEach(() => clearHotWords());
afterAll(() => t.close());

describe('guessWords', () => {
  it('starts with what people who searched the viewer’s words also searched, most shared first, never the viewer’s own', async () => {
    const words = await guessWords(viewer, { count: 6 });
    expect(words.slice(0, 2)).toEqual(['帐篷推荐', '手冲咖啡']);
    expect(words).not.toContain('露营');
    expect(words).toHaveLength(6);
  });

  it('gives a visitor guesses too, without repeating the six hot words shown beside them', async () => {
    const hot = (await hotSearchWords(6)).map((w) => w.word);
    const words = await guessWords(null, { count: 6 });
    expect(words).toHaveLength(6);
    for (const w of words) expect(hot).not.toContain(w);
  });

  it('换一换: each round is another full set, and the rounds wrap around', async () => {
    const rounds = await Promise.all([0, 1, 2].map((round) => guessWords(null, { count: 6, round })));
    expect(rounds[1]).not.toEqual(rounds[0]);
    for (const set of rounds) {
      expect(set).toHaveLength(6);
      expect(new Set(set).size).toBe(6);
    }
    const many = await Promise.all(Array.from({ length: 60 }, (_, round) => guessWords(null, { count: 6, round })));
    expect(many.some((set, i) => i > 0 && JSON.stringify(set) === JSON.stringify(rounds[0]))).toBe(true);
  });

  it('puts the hashtags of the video being watched first', async () => {
    const { rows } = await t.pool.query(`select vh.video_id, array_agg(h.name order by h.id) as tags
      from video_hashtags vh join hashtags h on h.id = vh.hashtag_id group by vh.video_id order by vh.video_id limit 1`);
    const words = await guessWords(null, { count: 8, videoId: rows[0].video_id });
    expect(words.slice(0, rows[0].tags.length)).toEqual(rows[0].tags);
  });
});
