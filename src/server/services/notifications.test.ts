import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import type { Db } from '../db/client.ts';
import { EventHub, userTopic, type HubEvent } from '../realtime/events.ts';
import { NOTICE_GROUP_NAMES, NOTICE_GROUPS, NOTICE_KINDS } from '../../shared/messaging.ts';
import { deleteComment, publishComment } from './comment-writes.ts';
import { setCommentLike, setVideoLike } from './interactions.ts';
import { listNotifications, markAllRead, notify, retract, unreadCount } from './notifications.ts';
import { setFollow } from './social.ts';

let t: TestDb;
let db: Db;
let hub: EventHub;

beforeAll(async () => {
  t = await freshDb();
  db = t.db;
  hub = new EventHub(t.url);
  await hub.ready();
});
afterAll(async () => {
  await hub.close();
  await t.close();
});

/** The notice events `userId` hears while `act` runs (and shortly after: NOTIFY arrives after the commit). */
async function heard(userId: number, act: () => Promise<unknown>): Promise<HubEvent[]> {
  // Events of earlier commits may still be on their way; let them pass first.
  await new Promise((r) => setTimeout(r, 200));
  const events: HubEvent[] = [];
  const stop = hub.subscribe([userTopic(userId)], (e) => events.push(e));
  try {
    await act();
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    stop();
  }
  return events.filter((e) => e.type === 'notice');
}

/** A user's rows of one kind; `at` is created_at in microseconds. */
const rows = async (userId: number, kind: string) =>
  (
    await db.execute<{ id: number; read: boolean; at: string }>(sql`
    select id, read_at is not null as read, (extract(epoch from created_at) * 1000000)::bigint::text as at
    from notifications where user_id = ${userId} and kind = ${kind} order by id`)
  ).rows;

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

    const all = await listNotifications(me, { group: 'all' });
    expect(all.unread).toBe(3);
    expect(all.items.map((n) => n.kind)).toEqual(['follow', 'like_video', 'like_video']);
    const [follow, likeByOther, likeByFan] = all.items;
    expect(follow).toMatchObject({ video: null, comment: null, actorIsFollowed: false, followsMe: true, readAt: null });
    expect(likeByOther).toMatchObject({ video: { id: videoId, poster: expect.any(String) }, actorIsFollowed: false });
    expect(likeByFan).toMatchObject({
      actorIsFollowed: true,
      followsMe: false,
      actor: { secUid: expect.any(String), nickname: expect.any(String) },
    });

    const likes = await listNotifications(me, { group: 'digg', count: 1 });
    expect(likes).toMatchObject({ cursor: expect.any(Number), hasMore: true, unread: 3 });
    expect(likes.items[0]!.id).toBe(likeByOther!.id);
    const rest = await listNotifications(me, { group: 'digg', cursor: likes.cursor, count: 1 });
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
  it('hides what a blocked user did, from the list and the badge, until the block is lifted', async () => {
    const { me, videoId, fan } = await quietUser();
    await setVideoLike(fan, videoId, true);
    const before = await listNotifications(me, {});
    expect(before.items.some((n) => n.video?.id === videoId)).toBe(true);
    await db.execute(sql`insert into blocks (blocker_id, blocked_id) values (${me}, ${fan})`);
    try {
      const after = await listNotifications(me, {});
      expect(after.items.length).toBe(before.items.length - 1);
      expect(await unreadCount(me)).toBe(before.unread - 1);
    } finally {
      await db.execute(sql`delete from blocks where blocker_id = ${me} and blocked_id = ${fan}`);
      await setVideoLike(fan, videoId, false);
    }
  });
});

describe('one notification per actor, kind and target', () => {
  it('like, unlike and like again leave one unread row with a fresh time; the same for a follow and a comment like', async () => {
    const { me, videoId, fan } = await quietUser();
    const comment = await publishComment(me, videoId, '自己的评论');
    const cycle = async (kind: string, set: (on: boolean) => Promise<unknown>) => {
      await set(true);
      await markAllRead(me);
      const [first] = await rows(me, kind);
      expect(first?.read).toBe(true);
      await set(false);
      expect(await rows(me, kind)).toEqual([]);
      await set(true);
      const again = await rows(me, kind);
      expect(again).toHaveLength(1);
      expect(again[0]!.read).toBe(false);
      expect(BigInt(again[0]!.at)).toBeGreaterThan(BigInt(first!.at));
    };
    await cycle('like_video', (on) => setVideoLike(fan, videoId, on));
    await cycle('follow', (on) => setFollow(fan, me, on));
    await cycle('like_comment', (on) => setCommentLike(fan, comment.id, on));
  });

  it('a repeat about the same target replaces the earlier row (a second danmaku on one video)', async () => {
    const { me, videoId, fan, other } = await quietUser();
    await notify(db, { userId: me, actorId: fan, kind: 'danmaku', videoId, text: '第一条' });
    await markAllRead(me);
    await notify(db, { userId: me, actorId: fan, kind: 'danmaku', videoId, text: '第二条' });
    await notify(db, { userId: me, actorId: other, kind: 'danmaku', videoId, text: '别人的' });
    const { items, unread } = await listNotifications(me, { group: 'danmaku' });
    expect(items.map((n) => [n.actor.id, n.comment, n.readAt])).toEqual([
      [other, '别人的', null],
      [fan, '第二条', null],
    ]);
    expect(unread).toBe(2);
  });

  it('undoing a like, a comment like or a follow removes its notification even when already read', async () => {
    const { me, videoId, fan } = await quietUser();
    const comment = await publishComment(me, videoId, '被点赞的评论');
    await setVideoLike(fan, videoId, true);
    await setCommentLike(fan, comment.id, true);
    await setFollow(fan, me, true);
    await markAllRead(me);
    expect((await listNotifications(me)).items).toHaveLength(3);
    await setVideoLike(fan, videoId, false);
    await setCommentLike(fan, comment.id, false);
    await setFollow(fan, me, false);
    expect((await listNotifications(me)).items).toEqual([]);
  });

  it('a silenced kind creates nothing and leaves an earlier row alone', async () => {
    const { me, videoId, fan } = await quietUser();
    await setVideoLike(fan, videoId, true);
    await db.execute(sql`update users set notify_settings = '{"like_video": false}' where id = ${me}`);
    try {
      expect(await notify(db, { userId: me, actorId: fan, kind: 'like_video', videoId })).toBe(false);
      expect(await rows(me, 'like_video')).toHaveLength(1);
      await setFollow(fan, me, true);
      await db.execute(sql`update users set notify_settings = '{"follow": false}' where id = ${me}`);
      await setFollow(fan, me, false);
      await setFollow(fan, me, true);
      expect(await rows(me, 'follow')).toEqual([]);
    } finally {
      await db.execute(sql`update users set notify_settings = '{}' where id = ${me}`);
    }
  });

  it('deleting a comment removes the comment, reply and mention notifications it caused, and tells their recipients', async () => {
    const { me, videoId, fan, other } = await quietUser();
    const [{ nickname }] = (await db.execute<{ nickname: string }>(sql`select nickname from users where id = ${other}`))
      .rows as [{ nickname: string }];
    const root = await publishComment(fan, videoId, `好看 @${nickname} 快来`);
    await publishComment(other, videoId, '同意', root.id);
    const kinds = async () =>
      (
        await db.execute<{ user_id: number; kind: string }>(sql`
        select n.user_id, n.kind from notifications n join comments c on c.id = n.comment_id
        where c.id = ${root.id} or c.parent_id = ${root.id} order by n.user_id, n.kind`)
      ).rows.map((r) => `${r.user_id}:${r.kind}`);
    expect(await kinds()).toEqual([`${me}:comment`, `${fan}:reply`, `${other}:mention`].sort());
    const events = await Promise.all([
      heard(me, () => deleteComment(me, root.id)),
      heard(fan, () => new Promise((r) => setTimeout(r, 100))),
    ]);
    expect(await kinds()).toEqual([]);
    expect(events[0].length).toBeGreaterThan(0);
    expect(events[1].length).toBeGreaterThan(0);
  });
});

describe('live unread count', () => {
  it('publishes notice when a notification is retracted and when all are marked read, not when nothing changes', async () => {
    const { me, videoId, fan } = await quietUser();
    expect(await heard(me, () => setVideoLike(fan, videoId, true))).toHaveLength(1);
    expect(await unreadCount(me)).toBe(1);
    expect(await heard(me, () => setVideoLike(fan, videoId, false))).toHaveLength(1);
    expect(await unreadCount(me)).toBe(0);
    await setFollow(fan, me, true);
    expect(await heard(me, () => markAllRead(me))).toHaveLength(1);
    expect(await unreadCount(me)).toBe(0);
    expect(await heard(me, () => markAllRead(me))).toHaveLength(0);
    expect(
      await heard(me, () =>
        db.transaction((tx) => retract(tx, { userId: me, actorId: fan, kind: 'like_video', videoId })),
      ),
    ).toHaveLength(0);
  });
});

// One user with one notification of every kind, made once for the group cases.
let everyKind: Promise<number> | undefined;
function userWithEveryKind(): Promise<number> {
  return (everyKind ??= (async () => {
    const { me, videoId, fan } = await quietUser();
    const [c] = (await db.execute<{ id: number }>(sql`select min(id) as id from comments where video_id = ${videoId}`))
      .rows;
    for (const kind of NOTICE_KINDS) {
      const about =
        kind === 'follow'
          ? {}
          : { videoId, ...(kind === 'like_video' || kind === 'danmaku' || !c?.id ? {} : { commentId: c.id }) };
      expect(await notify(db, { userId: me, actorId: fan, kind, ...about, text: kind })).toBe(true);
    }
    return me;
  })());
}

describe('groups', () => {
  it.each(NOTICE_GROUP_NAMES)('%s lists exactly its kinds', async (group) => {
    const me = await userWithEveryKind();
    const { items, unread } = await listNotifications(me, { group });
    expect(items.map((n) => n.kind).sort()).toEqual([...NOTICE_GROUPS[group]].sort());
    expect(unread).toBe(NOTICE_KINDS.length);
  });
});

describe('paging', () => {
  it('pages newest first without repeats or gaps, across runs of equal times and rows written or removed meanwhile', async () => {
    const { me, fan } = await quietUser();
    // 23 rows in runs of up to 5 with the same time, inserted out of time order.
    await db.execute(sql`
      insert into notifications (user_id, actor_id, kind, created_at)
      select ${me}, ${fan}, 'follow', timestamptz '2026-01-01 00:00:00+00' + ((g * 7) % 5) * interval '1 hour' + interval '0.000001 second' * (g % 2)
      from generate_series(1, 23) g`);
    const expected = (
      await db.execute<{ id: number }>(
        sql`select id from notifications where user_id = ${me} order by created_at desc, id desc`,
      )
    ).rows.map((r) => r.id);
    expect(expected).toHaveLength(23);

    for (const count of [1, 3, 4, 7, 23, 50]) {
      const seen: number[] = [];
      let cursor = 0;
      for (let i = 0; i < 30; i++) {
        const page = await listNotifications(me, { cursor, count });
        expect(page.items.length).toBeGreaterThanOrEqual(page.hasMore ? count : 0);
        seen.push(...page.items.map((n) => n.id));
        if (!page.hasMore) break;
        expect(page.cursor).toBeGreaterThan(0);
        cursor = page.cursor;
      }
      expect(seen, `count ${count}`).toEqual(expected);
    }

    // A new row and a removed one between pages: the rest still arrives once, in order.
    const first = await listNotifications(me, { count: 5 });
    await notify(db, { userId: me, actorId: fan, kind: 'danmaku', text: '新的' });
    const removed = expected[12]!;
    await db.execute(sql`delete from notifications where id = ${removed}`);
    const seen = first.items.map((n) => n.id);
    let cursor = first.cursor;
    while (cursor) {
      const page = await listNotifications(me, { cursor, count: 5 });
      seen.push(...page.items.map((n) => n.id));
      cursor = page.hasMore ? page.cursor : 0;
    }
    expect(seen).toEqual(expected.filter((id) => id !== removed));
  });
});
