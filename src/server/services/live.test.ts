/** Live-room viewer counts: joins and leaves move them once, and a process that died with viewers is swept off. */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { livePresence, liveRooms } from '../db/schema.ts';
import { joinRoom, leaveRoom, newPresenceInstance, sweepPresence } from './live.ts';

let t: TestDb;
let roomId: number;
beforeAll(async () => {
  t = await freshDb();
  // The seed's rooms are past broadcasts: one goes on air as a publisher would put it.
  const [room] = await t.db
    .insert(liveRooms)
    .values({ hostId: 2, channelId: 300201, title: '测试直播', cover: '', media: '', status: 'live' })
    .returning({ id: liveRooms.id });
  roomId = room!.id;
});
afterAll(async () => {
  await t.close();
});

async function count(): Promise<number> {
  const [row] = await t.db.select({ n: liveRooms.viewerCount }).from(liveRooms).where(eq(liveRooms.id, roomId));
  return row!.n;
}

async function share(instance: string): Promise<number | undefined> {
  const [row] = await t.db
    .select({ n: livePresence.viewers })
    .from(livePresence)
    .where(and(eq(livePresence.instance, instance), eq(livePresence.roomId, roomId)));
  return row?.n;
}

/** Makes one process's heartbeat look two minutes old, as if it had died then. */
async function age(instance: string): Promise<void> {
  await t.db
    .update(livePresence)
    .set({ seenAt: sql`now() - interval '2 minutes'` })
    .where(eq(livePresence.instance, instance));
}

describe('live viewers', () => {
  it('a join counts once and a leave takes it back, in the room and in this process’s share', async () => {
    const me = newPresenceInstance();
    const before = await count();
    expect(await joinRoom(roomId)).toBe(before + 1);
    expect(await joinRoom(roomId)).toBe(before + 2);
    expect(await share(me)).toBe(2);
    expect(await leaveRoom(roomId)).toBe(before + 1);
    expect(await leaveRoom(roomId)).toBe(before);
    expect(await share(me)).toBeUndefined();
    // A leave with nothing counted in moves nothing.
    expect(await leaveRoom(roomId)).toBe(before);
  });

  it('the viewers of a process killed without closing its streams are swept off the count', async () => {
    const dead = newPresenceInstance();
    const before = await count();
    await joinRoom(roomId);
    await joinRoom(roomId);
    await joinRoom(roomId);
    expect(await count()).toBe(before + 3);
    await age(dead);

    // The restarted server: its own viewers are fresh and stay.
    newPresenceInstance();
    await joinRoom(roomId);
    expect(await sweepPresence()).toBe(3);
    expect(await count()).toBe(before + 1);
    expect(await share(dead)).toBeUndefined();
    // Nothing more to sweep.
    expect(await sweepPresence()).toBe(0);
    await leaveRoom(roomId);
    expect(await count()).toBe(before);
  });

  it('a process whose share was swept while it still ran does not take its leavers off twice', async () => {
    const slow = newPresenceInstance();
    const before = await count();
    await joinRoom(roomId);
    await age(slow);
    await sweepPresence();
    expect(await count()).toBe(before);
    expect(await leaveRoom(roomId)).toBe(before);
    expect(await count()).toBe(before);
  });
});
