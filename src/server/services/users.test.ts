import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { follows, users } from '../db/schema.ts';
import { getById, getBySecUid } from './users.ts';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t.close());

describe('users service', () => {
  it('reports follower and following counts each in its own place', async () => {
    const [u] = await t.db
      .select()
      .from(users)
      .where(sql`${users.followerCount} <> ${users.followingCount}`)
      .limit(1);
    const p = await getBySecUid(u!.secUid, null);
    const [{ followers }] = (await t.db
      .select({ followers: sql<number>`count(*)::int` })
      .from(follows)
      .where(eq(follows.followeeId, u!.id))) as [{ followers: number }];
    expect(p!.followerCount).toBe(followers);
    expect(p!.followingCount).not.toBe(p!.followerCount);
  });

  it('knows the viewer relation both ways', async () => {
    const [pair] = await t.db
      .select({ a: follows.followerId, b: follows.followeeId })
      .from(follows)
      .where(
        sql`exists (select 1 from follows f2 where f2.follower_id = ${follows.followeeId} and f2.followee_id = ${follows.followerId})`,
      )
      .limit(1);
    const p = await getById(pair!.b, pair!.a);
    expect(p).toMatchObject({ isFollowing: true, followsViewer: true });
    const [oneWay] = await t.db
      .select({ a: follows.followerId, b: follows.followeeId })
      .from(follows)
      .where(
        sql`not exists (select 1 from follows f2 where f2.follower_id = ${follows.followeeId} and f2.followee_id = ${follows.followerId})`,
      )
      .limit(1);
    expect(await getById(oneWay!.b, oneWay!.a)).toMatchObject({ isFollowing: true, followsViewer: false });
    expect(await getById(oneWay!.a, oneWay!.b)).toMatchObject({ isFollowing: false, followsViewer: true });
    const [none] = await t.db
      .select()
      .from(follows)
      .where(and(eq(follows.followerId, oneWay!.b), eq(follows.followeeId, oneWay!.a)));
    expect(none).toBeUndefined();
  });

  it('answers null for unknown users', async () => {
    expect(await getBySecUid('MS4wLjABAAAAnope', null)).toBeNull();
    expect(await getById(2_000_000_000)).toBeNull();
  });
});
