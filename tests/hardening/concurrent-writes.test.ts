/**
 * Two users liking, collecting and following each other at once, many times over: every write lands (no deadlock
 * surfaces as an error) and every counter ends equal to a recount of the rows it counts.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setVideoCollect, setVideoLike } from '../../src/server/services/interactions.ts';
import { setFollow } from '../../src/server/services/social.ts';
import { connect, useDb } from '../../src/server/db/client.ts';
import { freshDb, type TestDb } from '../setup/test-db.ts';

let t: TestDb;
// As many connections as a server's pool (PG_POOL_MAX), so that as many writes overlap.
let pool: pg.Pool;
let a: number;
let b: number;
let worksOfA: number[];
let worksOfB: number[];

beforeAll(async () => {
  t = await freshDb();
  let db;
  ({ db, pool } = connect(t.url, 10));
  useDb(db);
  // Two creators with public works each, so that each can like and collect the other's.
  const { rows } = await t.pool.query<{ author_id: number; ids: number[] }>(`
    select author_id, (array_agg(id order by id))[1:6] as ids from videos
    where deleted_at is null and visibility = 'public' and status = 'published'
    group by author_id having count(*) >= 6 order by author_id limit 2`);
  expect(rows).toHaveLength(2);
  [a, b] = [rows[0]!.author_id, rows[1]!.author_id];
  [worksOfA, worksOfB] = [rows[0]!.ids, rows[1]!.ids];
  // On a full heap page an update cannot stay on its page (no HOT update): the row moves, and a scan that visits rows
  // in physical order (a bitmap heap scan, which `id in (a, b)` gets) meets the two users in a new order. An index on
  // the counters makes every update move the row, as a busy, full table does now and then.
  await t.pool.query(
    'create index users_counters_test_idx on users (follower_count, following_count, favoriting_count, total_favorited, collect_count)',
  );
});
afterAll(async () => {
  await pool?.end();
  await t?.close();
});

/** Runs every write of a round at once and returns the failures. */
async function round(on: boolean): Promise<unknown[]> {
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < worksOfA.length; i++) {
    writes.push(
      setVideoLike(a, worksOfB[i]!, on),
      setVideoLike(b, worksOfA[i]!, on),
      setVideoCollect(a, worksOfB[i]!, on),
      setVideoCollect(b, worksOfA[i]!, on),
      setFollow(a, b, on),
      setFollow(b, a, on),
    );
  }
  const results = await Promise.allSettled(writes);
  return results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
}

/** Each counter of both users minus a recount of the rows it counts (the seed's counters need not start equal). */
async function drift(): Promise<Record<string, number>> {
  const { rows } = await t.pool.query<{ id: number } & Record<string, number>>(
    `select id,
       favoriting_count - (select count(*)::int from likes l where l.user_id = u.id) as favoriting,
       total_favorited - (select count(*)::int from likes l join videos v on v.id = l.video_id where v.author_id = u.id) as favorited,
       collect_count - (select count(*)::int from collects c where c.user_id = u.id) as collects,
       following_count - (select count(*)::int from follows f where f.follower_id = u.id) as following,
       follower_count - (select count(*)::int from follows f where f.followee_id = u.id) as followers
     from users u where id = any($1) order by id`,
    [[a, b]],
  );
  return Object.fromEntries(
    rows.flatMap(({ id, ...counts }) => Object.entries(counts).map(([k, v]) => [`${id}.${k}`, v])),
  );
}

describe('concurrent writes between two users', () => {
  it('all land, and every counter moves with its rows', async () => {
    const before = await drift();
    const failures: unknown[] = [];
    for (let i = 0; i < 8; i++) failures.push(...(await round(i % 2 === 0)), ...(await round(i % 2 === 0)));
    const messages = failures.map((f) =>
      f instanceof Error ? `${f.message} ${String((f.cause as Error | undefined)?.message ?? '')}` : String(f),
    );
    expect(messages).toEqual([]);

    expect(await drift()).toEqual(before);
  });
});
