import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFreshDb } from '../../../tests/setup/test-db.ts';
import type { Db } from '../db/client.ts';
import { listFriends } from './friends.ts';
import { setFollow } from './social.ts';

let db: Db;
useFreshDb((fresh) => (db = fresh));

const mutualIds = async (viewer: number) =>
  (
    await db.execute<{ id: number }>(sql`
      select a.followee_id as id from follows a join follows b on b.follower_id = a.followee_id and b.followee_id = a.follower_id
      where a.follower_id = ${viewer} order by id`)
  ).rows.map((r) => r.id);

describe('listFriends', () => {
  it('lists exactly the mutual follows, and pages without repeats', async () => {
    const { rows } = await db.execute<{ id: number }>(sql`
      select a.follower_id as id from follows a join follows b on b.follower_id = a.followee_id and b.followee_id = a.follower_id
      group by a.follower_id order by count(*) desc, a.follower_id limit 1`);
    const viewer = rows[0]!.id;
    const expected = await mutualIds(viewer);
    expect(expected.length).toBeGreaterThan(1);
    const first = await listFriends(viewer, { count: 1 });
    expect(first.hasMore).toBe(true);
    const rest = await listFriends(viewer, { cursor: first.cursor, count: 50 });
    const ids = [...first.items, ...rest.items].map((f) => f.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort((a, b) => a - b)).toEqual(expected);
  });

  it('drops a friend once either side unfollows', async () => {
    const { rows } = await db.execute<{ a: number; b: number }>(sql`
      select a.follower_id as a, a.followee_id as b from follows a
      join follows b on b.follower_id = a.followee_id and b.followee_id = a.follower_id limit 1`);
    const { a, b } = rows[0]!;
    expect((await listFriends(a, { count: 50 })).items.map((f) => f.id)).toContain(b);
    await setFollow(b, a, false);
    expect((await listFriends(a, { count: 50 })).items.map((f) => f.id)).not.toContain(b);
    expect((await listFriends(b, { count: 50 })).items.map((f) => f.id)).not.toContain(a);
  });
});
