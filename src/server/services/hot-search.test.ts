import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { useDb } from '../db/client.ts';
import { SEARCH_HEAT_SQL } from '../db/derived.ts';
import { clearHotWords, hotSearchWords } from './hot-search.ts';
import { recordSearch } from './search-log.ts';

let t: TestDb;

/** `n` searches of `word`, `hoursAgo` hours back (by the database clock). */
async function searched(word: string, n: number, hoursAgo: number): Promise<void> {
  await t.pool.query(
    `insert into search_log (query, created_at) select $1, now() - make_interval(secs => $2::float8 * 3600 + g) from generate_series(1, $3) g`,
    [word, hoursAgo, n],
  );
}

beforeAll(async () => {
  t = await freshDb();
});
beforeEach(() => clearHotWords());
afterAll(() => t.close());

describe('hotSearchWords', () => {
  it('is not empty on a site whose seeded searches are all old', async () => {
    const words = await hotSearchWords(6);
    expect(words).toHaveLength(6);
    expect(new Set(words.map((w) => w.sentenceId)).size).toBe(6);
  });

  it('ranks a fresh burst over a larger burst that has decayed, and a bigger burst of last week below both', async () => {
    await searched('热词衰减旧', 10, 20);
    await searched('热词衰减新', 5, 0.2);
    await searched('热词一周前', 40, 24 * 8);
    const words = (await hotSearchWords(50)).map((w) => w.word);
    expect(words.indexOf('热词衰减新')).toBe(0);
    expect(words.indexOf('热词衰减旧')).toBe(1);
    expect(words.indexOf('热词一周前')).toBeGreaterThan(1);
  });

  it('lists the same words with the same heat as summing every search of search_log', async () => {
    // Words whose order the two keys disagree on: fresh one-offs (burst) and old steady words (week).
    for (let k = 0; k < 30; k++) await searched(`热词新一次${k}`, 1, k * 0.05);
    for (let k = 0; k < 30; k++) await searched(`热词老常客${k}`, 6 + (k % 7), 30 + k * 3);
    const { rows } = await t.pool.query<{ word: string; first_id: number; heat: number }>(
      `SELECT query AS word, min(id) AS first_id,
         sum(power(0.5, extract(epoch from now() - created_at)::float8 / 21600)
           + 0.1 * power(0.5, extract(epoch from now() - created_at)::float8 / 302400)) AS heat
       FROM search_log GROUP BY query ORDER BY heat DESC, query LIMIT 200`,
    );
    const words = await hotSearchWords(200);
    expect(words.map((w) => w.word)).toEqual(rows.map((r) => r.word));
    expect(words.map((w) => w.sentenceId)).toEqual(rows.map((r) => Number(r.first_id)));
    words.forEach((w, k) => expect(Math.abs(w.hotValue - Number(rows[k]!.heat) * 10_000)).toBeLessThan(1));
  });

  it('keeps search_heat as its definition over search_log says, for rows logged one by one and in bulk', async () => {
    await recordSearch('热词逐条', { userId: null });
    await recordSearch('热词逐条', { userId: null });
    await searched('热词逐条', 3, 10);
    const { rows } = await t.pool.query(
      `SELECT coalesce(d.query, k.query) AS query FROM (${SEARCH_HEAT_SQL}) d FULL JOIN search_heat k ON k.query = d.query
       WHERE d.query IS NULL OR k.query IS NULL OR d.first_id <> k.first_id
         OR abs(d.burst - k.burst) > 1e-9 OR abs(d.week - k.week) > 1e-9`,
    );
    expect(rows).toEqual([]);
  });

  it('keeps a word searched steadily all week above a one-off from this morning', async () => {
    for (let day = 1; day <= 6; day++) await searched('热词整周', 10, day * 24);
    await searched('热词一次', 2, 3);
    const words = (await hotSearchWords(50)).map((w) => w.word);
    expect(words.indexOf('热词整周')).toBeLessThan(words.indexOf('热词一次'));
  });

  it('gives each word the id of its first search, stable as the window moves', async () => {
    const [first] = await hotSearchWords(1);
    const { rows } = await t.pool.query('select min(id) as id from search_log where query = $1', [first!.word]);
    expect(first!.sentenceId).toBe(rows[0].id);
  });

  it('takes in a logged search within a second', async () => {
    await hotSearchWords(1);
    for (let i = 0; i < 30; i++) await recordSearch('刚刚搜过的词', { userId: null });
    await new Promise((r) => setTimeout(r, 1100));
    await hotSearchWords(1); // a stale read starts the refresh
    await new Promise((r) => setTimeout(r, 200));
    expect((await hotSearchWords(3)).map((w) => w.word)).toContain('刚刚搜过的词');
  });
});

describe('a process pointed at another database', () => {
  it('reads that database’s hot words, not the ones it kept of the first', async () => {
    await searched('热词换库之前', 30, 0.1);
    expect((await hotSearchWords(50)).map((w) => w.word)).toContain('热词换库之前');
    // A clone of the seeded template, made the process-wide database as a test file or a restarted server does.
    const other = await freshDb();
    try {
      const words = (await hotSearchWords(50)).map((w) => w.word);
      expect(words).not.toContain('热词换库之前');
      expect(words.length).toBeGreaterThan(0);
    } finally {
      await other.close();
      useDb(t.db);
    }
  });
});
