/**
 * A generated large site for the tests that need one (100,000 videos and a share of their activity, bench/scale-site.ts
 * at scale 0.1): built once per test run, by the first test file that asks, from the seeded template, and kept as a second
 * template beside it; each file then gets its own copy, as freshDb gives copies of the seed. A run whose files never
 * ask never builds it.
 */
import pg from 'pg';
import { inject } from 'vitest';
import { connect, useDb } from '../../src/server/db/client.ts';
import { generateSite, refreshDerived, sizeFor, type ScaleSize } from '../../bench/scale-site.ts';
import { dropDatabase, withClient, withDatabase } from './pg-admin.ts';
import type { TestDb } from './test-db.ts';

/** The large site's scale: 0.1 of bench:scale's default, so 100,000 videos and 10,000 users. */
export const LARGE_SCALE = Number(process.env.LARGE_SITE_SCALE ?? 0.1);
/**
 * How much of that scale's activity (likes, watches, comments and the rest) the tests' site holds: a third by default,
 * so that building it fits the test run; the works and users, and so the shape of every index, stay at full scale.
 * LARGE_SITE_ACTIVITY=1 builds the whole of it.
 */
export const LARGE_ACTIVITY = Number(process.env.LARGE_SITE_ACTIVITY ?? 0.3);

/** The tests' site: `sizeFor(LARGE_SCALE)` with its activity rows scaled by LARGE_ACTIVITY. */
export function largeSize(): ScaleSize {
  const full = sizeFor(LARGE_SCALE);
  const some = (n: number) => Math.max(1, Math.round(n * LARGE_ACTIVITY));
  return {
    ...full,
    likes: some(full.likes),
    collects: some(full.collects),
    watches: some(full.watches),
    follows: some(full.follows),
    comments: some(full.comments),
    commentLikes: some(full.commentLikes),
    danmaku: some(full.danmaku),
    liveMessages: some(full.liveMessages),
    searches: some(full.searches),
  };
}
// Any fixed key: test files in other processes that ask at once wait for the one building.
const BUILD_LOCK = 7_364_021_030;

let serial = 0;

async function exists(client: pg.Client, name: string): Promise<boolean> {
  return (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
}

/** Builds the large template unless an earlier file of this run did; returns its name. */
async function largeTemplate(admin: string): Promise<string> {
  const seedTemplate = inject('dbTemplate');
  const name = `${seedTemplate}_large`;
  const building = `${seedTemplate}_largebuild`;
  const lock = new pg.Client({ connectionString: admin });
  lock.on('error', () => {});
  await lock.connect();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [BUILD_LOCK]);
    if (await exists(lock, name)) return name;
    await dropDatabase(lock, building);
    await lock.query(
      `CREATE DATABASE ${lock.escapeIdentifier(building)} TEMPLATE ${lock.escapeIdentifier(seedTemplate)} STRATEGY FILE_COPY`,
    );
    const started = performance.now();
    await withClient(withDatabase(admin, building), async (client) => {
      await generateSite(client, largeSize(), new Date());
      await refreshDerived(client);
      await client.query('VACUUM (ANALYZE)');
    });
    if (process.env.SHANYING_TEST_TIMINGS)
      console.log(`large site ready in ${Math.round(performance.now() - started)} ms`);
    await lock.query(`ALTER DATABASE ${lock.escapeIdentifier(building)} RENAME TO ${lock.escapeIdentifier(name)}`);
    await lock.query(`ALTER DATABASE ${lock.escapeIdentifier(name)} ALLOW_CONNECTIONS false`);
    return name;
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [BUILD_LOCK]).catch(() => {});
    await lock.end();
  }
}

/** A private copy of the large site (made the process-wide `db()`), dropped by `close()`. */
export async function largeDb(): Promise<TestDb> {
  const admin = inject('dbAdminUrl');
  const template = await largeTemplate(admin);
  const name = `${template}_${process.pid}_${++serial}`;
  await withClient(admin, (client) =>
    client.query(
      `CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${client.escapeIdentifier(template)} STRATEGY FILE_COPY`,
    ),
  );
  const url = withDatabase(admin, name);
  const { db, pool } = connect(url, 8);
  useDb(db);
  let closed: Promise<void> | undefined;
  return {
    db,
    pool,
    url,
    name,
    close: () =>
      (closed ??= (async () => {
        await pool.end();
        await withClient(admin, (client) => dropDatabase(client, name));
      })()),
  };
}
