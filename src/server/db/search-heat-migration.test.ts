/**
 * 热搜's kept words on a site that keeps running: the trigger is made in one short transaction, and the searches logged
 * before it are added afterwards, outside any transaction. Searches logged before the trigger, between it and the
 * back-fill, and during the back-fill must each count once, as the definition over search_log says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { SEARCH_HEAT_SQL } from './derived.ts';
import { migrateDb, readMigrations } from './migrate.ts';
import { seed } from './seed.ts';

const MISMATCHES = `
  SELECT coalesce(d.query, k.query) AS query, d.burst AS want, k.burst AS got
  FROM (${SEARCH_HEAT_SQL}) d FULL JOIN search_heat k ON k.query = d.query
  WHERE d.query IS NULL OR k.query IS NULL OR d.first_id <> k.first_id
    OR abs(d.burst - k.burst) > 1e-9 OR abs(d.week - k.week) > 1e-9`;

/** `n` searches of `word`, `hoursAgo` hours back. */
const searches = (word: string, n: number, hoursAgo: number) =>
  `INSERT INTO search_log (query, created_at)
   SELECT '${word}', now() - make_interval(secs => ${hoursAgo} * 3600 + g) FROM generate_series(1, ${n}) g`;

describe('the 热搜 migration on a live site', () => {
  let t: TestDb;
  const q = async (text: string) => (await t.pool.query(text)).rows;

  beforeAll(async () => {
    t = await emptyDb();
    await migrateDb(t.url, { until: '_search_heat' });
    await seed(t.db);
    await q(searches('迁移前的词', 12, 30));
    await q(searches('前后都搜的词', 5, 50));
  }, 120_000);
  afterAll(() => t?.close());

  it('adds the searches from before its trigger once, and keeps every search logged around it', async () => {
    await migrateDb(t.url, { until: '_search_heat_backfill' });
    // The trigger exists and the back-fill has not run: only what was logged since is kept.
    expect(await q('SELECT count(*)::int AS n FROM search_heat')).toEqual([{ n: 0 }]);
    await q(searches('前后都搜的词', 3, 1));
    await q(searches('迁移中的新词', 4, 0));
    expect(await q('SELECT query FROM search_heat ORDER BY query')).toEqual([
      { query: '前后都搜的词' },
      { query: '迁移中的新词' },
    ]);

    // During the back-fill, searches keep being logged.
    let going = true;
    let logged = 0;
    const searcher = (async () => {
      for (let i = 0; going; i++) {
        await t.pool.query(`INSERT INTO search_log (query) VALUES ($1)`, [i % 2 ? '前后都搜的词' : '迁移前的词']);
        logged += 1;
      }
    })();
    try {
      await migrateDb(t.url);
    } finally {
      going = false;
      await searcher;
    }
    expect(logged).toBeGreaterThan(0);
    expect(await q(MISMATCHES)).toEqual([]);
    expect((await q('SELECT count(*)::int AS n FROM search_heat'))[0].n).toBeGreaterThan(10);
  });

  it('adds nothing when its back-fill runs a second time', async () => {
    const backfill = readMigrations().find((m) => m.tag.endsWith('_search_heat_backfill'))!;
    const before = await q('SELECT query, burst, week FROM search_heat ORDER BY query');
    for (const statement of backfill.sql) await q(statement);
    expect(await q('SELECT query, burst, week FROM search_heat ORDER BY query')).toEqual(before);
    expect(await q(`SELECT to_regclass('search_heat_backfill') AS boundary`)).toEqual([{ boundary: null }]);
  });
});
