import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { useDb } from '../db/client.ts';
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
  it('is not empty on a site whose seeded searches are older than the window', async () => {
    const words = await hotSearchWords(6);
    expect(words).toHaveLength(6);
    expect(new Set(words.map((w) => w.sentenceId)).size).toBe(6);
  });

  it('ranks a fresh burst over a larger burst that has decayed, and drops searches older than 7 days from the window', async () => {
    await searched('热词衰减旧', 10, 20);
    await searched('热词衰减新', 5, 0.2);
    await searched('热词一周前', 40, 24 * 8);
    const words = (await hotSearchWords(50)).map((w) => w.word);
    expect(words.indexOf('热词衰减新')).toBe(0);
    expect(words.indexOf('热词衰减旧')).toBe(1);
    // Eight days old: only the quiet-week fallback may list it, after every word of the window.
    const old = words.indexOf('热词一周前');
    if (old !== -1) expect(old).toBeGreaterThan(1);
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
