import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb } from '../../../tests/setup/test-db.ts';
import type { Db } from '../db/client.ts';
import { setVideoLike } from './interactions.ts';
import { listNotifications, markAllRead, notify } from './notifications.ts';
import { setFollow } from './social.ts';

let db: Db;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ db, close } = await freshDb());
});
afterAll(async () => {
  await close();
});

/** A user with no notifications yet, a live video of theirs, and two other users. */
async function quietUser(): Promise<{ me: number; videoId: number; fan: number; other: number }> {
  const { rows } = await db.execute<{ me: number; videoId: number; fan: number; other: number }>(sql`
    select u.id as me, v.id as "videoId", f.id as fan, o.id as other
    from users u join videos v on v.author_id = u.id and v.deleted_at is null
      join users f on f.id <> u.id join users o on o.id not in (u.id, f.id)
    where not exists (select 1 from notifications n where n.user_id = u.id)
      and not exists (select 1 from likes l where l.video_id = v.id and l.user_id in (f.id, o.id))
      and not exists (select 1 from follows x where x.follower_id = u.id and x.followee_id in (f.id, o.id))
      and not exists (select 1 from follows x where x.followee_id = u.id and x.follower_id in (f.id, o.id))
    order by u.id, v.id, f.id, o.id limit 1`);
  if (!rows[0]) throw new Error('no quiet user in the seed');
  return rows[0];
}

describe('notify', () => {
  it('skips the actor’s own actions and kinds the recipient turned off', async () => {
    const { me, videoId, fan } = await quietUser();
    expect(await notify(db, { userId: me, actorId: me, kind: 'like_video', videoId })).toBe(false);
    await db.execute(sql`update users set notify_settings = '{"like_video": false, "follow": true}' where id = ${me}`);
    try {
      expect(await notify(db, { userId: me, actorId: fan, kind: 'like_video', videoId })).toBe(false);
      expect(await notify(db, { userId: me, actorId: fan, kind: 'follow' })).toBe(true);
      const { items } = await listNotifications(me, {});
      expect(items.map((n) => n.kind)).toEqual(['follow']);
    } finally {
      await db.execute(sql`update users set notify_settings = '{}' where id = ${me}`);
      await db.execute(sql`delete from notifications where user_id = ${me}`);
    }
  });

  it('is rolled back with the transaction it was written in', async () => {
    const { me, fan } = await quietUser();
    await db
      .transaction(async (tx) => {
        await notify(tx, { userId: me, actorId: fan, kind: 'follow' });
        throw new Error('abort');
      })
      .catch(() => undefined);
    expect((await listNotifications(me, {})).items).toEqual([]);
  });
});

describe('listNotifications', () => {
  it('lists newest first with actor, video and the 你的关注 tag, filters by kind, counts unread', async () => {
    const { me, videoId, fan, other } = await quietUser();
    await setFollow(me, fan, true);
    await setVideoLike(fan, videoId, true);
    await setVideoLike(other, videoId, true);
    await setFollow(other, me, true);

    const all = await listNotifications(me, { kind: 'all' });
    expect(all.unread).toBe(3);
    expect(all.items.map((n) => n.kind)).toEqual(['follow', 'like_video', 'like_video']);
    const [follow, likeByOther, likeByFan] = all.items;
    expect(follow).toMatchObject({ video: null, comment: null, actorIsFollowed: false, readAt: null });
    expect(likeByOther).toMatchObject({ video: { id: videoId, poster: expect.any(String) }, actorIsFollowed: false });
    expect(likeByFan).toMatchObject({ actorIsFollowed: true, actor: { secUid: expect.any(String), nickname: expect.any(String) } });

    const likes = await listNotifications(me, { kind: 'like_video', count: 1 });
    expect(likes).toMatchObject({ cursor: 1, hasMore: true, unread: 3 });
    expect(likes.items[0]!.id).toBe(likeByOther!.id);
    const rest = await listNotifications(me, { kind: 'like_video', cursor: likes.cursor, count: 1 });
    expect(rest.items.map((n) => n.id)).toEqual([likeByFan!.id]);
    expect(rest.hasMore).toBe(false);

    await markAllRead(me);
    const read = await listNotifications(me, {});
    expect(read.unread).toBe(0);
    expect(read.items.every((n) => n.readAt instanceof Date)).toBe(true);
  });

  it('hides notifications about a deleted video', async () => {
    const { me, videoId, fan } = await quietUser();
    await setVideoLike(fan, videoId, true);
    const before = await listNotifications(me, {});
    await db.execute(sql`update videos set deleted_at = now() where id = ${videoId}`);
    try {
      const after = await listNotifications(me, {});
      expect(after.items.length).toBe(before.items.length - 1);
      expect(after.items.some((n) => n.video?.id === videoId)).toBe(false);
    } finally {
      await db.execute(sql`update videos set deleted_at = null where id = ${videoId}`);
    }
  });
});
