import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFreshDb } from '../../../tests/setup/test-db.ts';
import type { Db } from '../db/client.ts';
import { recountAll } from '../db/recount.ts';
import { isFollowing, listFollowers, listFollowing, setFollow } from './social.ts';

let db: Db;
useFreshDb((fresh) => (db = fresh));

let picks = 0;

/** Two users with no follow between them in either direction. */
async function strangers(): Promise<{ a: number; b: number }> {
  const { rows } = await db.execute<{ a: number; b: number }>(sql`
    select x.id as a, y.id as b from users x join users y on y.id <> x.id
    where not exists (select 1 from follows f where (f.follower_id, f.followee_id) in ((x.id, y.id), (y.id, x.id)))
    order by md5(x.id || ':' || y.id) limit 1 offset ${picks++}`);
  if (!rows[0]) throw new Error('no two strangers in the seed');
  return rows[0];
}

const counts = async (id: number) =>
  (
    await db.execute<{ following: number; followers: number }>(
      sql`select following_count as following, follower_count as followers from users where id = ${id}`,
    )
  ).rows[0]!;
const followNotes = async (to: number, from: number) =>
  (await db.execute(sql`select 1 from notifications where user_id = ${to} and actor_id = ${from} and kind = 'follow'`))
    .rows.length;
const kindOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { kind?: string }) => e.kind,
  );

describe('setFollow', () => {
  it('counts a follow once on both users, notifies once, and the unfollow restores', async () => {
    const { a, b } = await strangers();
    const [a0, b0] = [await counts(a), await counts(b)];
    const followed = {
      following: true,
      mutual: false,
      followerCount: b0.followers + 1,
      followingCount: a0.following + 1,
    };
    expect(await setFollow(a, b, true)).toEqual(followed);
    expect(await setFollow(a, b, true)).toEqual(followed);
    expect(await isFollowing(a, b)).toBe(true);
    expect(await isFollowing(b, a)).toBe(false);
    expect(await followNotes(b, a)).toBe(1);

    const unfollowed = { following: false, mutual: false, followerCount: b0.followers, followingCount: a0.following };
    expect(await setFollow(a, b, false)).toEqual(unfollowed);
    expect(await setFollow(a, b, false)).toEqual(unfollowed);
    expect([await counts(a), await counts(b)]).toEqual([a0, b0]);
    expect(await followNotes(b, a)).toBe(0);
  });

  it('reports mutual once both follow each other', async () => {
    const { a, b } = await strangers();
    expect((await setFollow(a, b, true)).mutual).toBe(false);
    expect((await setFollow(b, a, true)).mutual).toBe(true);
    expect((await setFollow(a, b, true)).mutual).toBe(true);
    expect((await setFollow(a, b, false)).mutual).toBe(false);
  });

  it('refuses to follow oneself and unknown users', async () => {
    const { a } = await strangers();
    await expect(setFollow(a, a, true)).rejects.toMatchObject({ kind: 'invalid', key: 'error.followSelf' });
    expect(await kindOf(setFollow(a, 2_000_000_000, true))).toBe('not_found');
    expect(await kindOf(setFollow(a, 2_000_000_000, false))).toBe('not_found');
  });

  it('counts two concurrent follows once and survives crossing follows without deadlock', async () => {
    const { a, b } = await strangers();
    const b0 = await counts(b);
    await Promise.all([setFollow(a, b, true), setFollow(a, b, true), setFollow(b, a, true)]);
    expect((await counts(b)).followers).toBe(b0.followers + 1);
    expect(await followNotes(b, a)).toBe(1);
  });
});

describe('following and follower lists', () => {
  it('lists newest follows first, pages without repeats, and the two lists differ', async () => {
    const { a } = await strangers();
    const { rows } = await db.execute<{ id: number }>(sql`
      select id from users where id <> ${a}
        and not exists (select 1 from follows where follower_id = ${a} and followee_id = users.id)
      order by id limit 3`);
    for (const { id } of rows) {
      await setFollow(a, id, true);
      await new Promise((r) => setTimeout(r, 5));
    }
    const all = await listFollowing(a, { count: 50 });
    expect(all.items.slice(0, 3).map((u) => u.id)).toEqual(rows.map((r) => r.id).reverse());
    const times = all.items.map((u) => u.followedAt.getTime());
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(all.items[0]).toMatchObject({
      secUid: expect.any(String),
      nickname: expect.any(String),
      followerCount: expect.any(Number),
    });

    const seen: number[] = [];
    let page = await listFollowing(a, { count: 2 });
    seen.push(...page.items.map((u) => u.id));
    while (page.hasMore) {
      page = await listFollowing(a, { cursor: page.cursor, count: 2 });
      seen.push(...page.items.map((u) => u.id));
    }
    expect(seen).toEqual(all.items.map((u) => u.id));
    expect(seen.length).toBe((await counts(a)).following);

    const fans = await listFollowers(rows[0]!.id, { count: 50 });
    expect(fans.items.map((u) => u.id)).toContain(a);
    expect(fans.items.length).toBe((await counts(rows[0]!.id)).followers);
  });
});

describe('counts stay true', () => {
  it('equal a full recount after a mixed sequence', async () => {
    const pairs = [await strangers(), await strangers(), await strangers()];
    for (const [i, { a, b }] of pairs.entries()) {
      await setFollow(a, b, true);
      await setFollow(b, a, true);
      if (i !== 1) await setFollow(a, b, false);
    }
    const snapshot = async () =>
      (await db.execute(sql`select id, following_count, follower_count from users order by id`)).rows;
    const before = await snapshot();
    await recountAll(db);
    expect(await snapshot()).toEqual(before);
  });
});
