/**
 * Broadcasts in the database: stream keys (stored hashed, a new one retires the old), going on air (followers told
 * 开播了), a second publisher refused, a dropped publisher continuing the same room, the ends, and 点赞.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { follows, liveHosts, liveRooms, notifications } from '../db/schema.ts';
import {
  beginBroadcast,
  endBroadcast,
  likeRoom,
  LIVE_RESUME_MS,
  pauseBroadcast,
  sweepBroadcasts,
} from './live-broadcasts.ts';
import { issueKey, recordRefusal, saveSettings, verifyKey, getSettings } from './live-hosts.ts';

let t: TestDb;
const HOST = 2;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(async () => {
  await t.close();
});

describe('stream keys', () => {
  it('checks a key against its hash only; a new key retires the old one', async () => {
    const key = await issueKey(HOST);
    expect(key).toMatch(/^u2-[\w-]{43}$/);
    const [row] = await t.db.select().from(liveHosts).where(eq(liveHosts.userId, HOST));
    expect(JSON.stringify(row)).not.toContain(key.slice(3));
    expect(await verifyKey(key)).toBe(HOST);
    expect(await verifyKey(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`)).toBeNull();
    expect(await verifyKey(key.replace(/^u2-/, 'u3-'))).toBeNull();
    expect(await verifyKey('not a key')).toBeNull();
    const next = await issueKey(HOST);
    expect(await verifyKey(key)).toBeNull();
    expect(await verifyKey(next)).toBe(HOST);
  });

  it('keeps settings and the last refusal for the studio', async () => {
    await saveSettings(HOST, { title: ' 夜跑直播 ', channelId: 300207, record: true });
    await recordRefusal(HOST, 'live.refused.bitrate', { kbps: 9000, max: 6000 });
    const s = await getSettings(HOST);
    expect(s).toMatchObject({ title: '夜跑直播', channelId: 300207, record: true, hasKey: true });
    expect(s.refusal).toMatchObject({ key: 'live.refused.bitrate', vars: { kbps: 9000, max: 6000 } });
    await expect(saveSettings(HOST, { title: '  ' })).rejects.toMatchObject({ key: 'error.liveTitleEmpty' });
    await expect(saveSettings(HOST, { channelId: 1 })).rejects.toMatchObject({ key: 'error.channelInvalid' });
  });
});

describe('broadcasts', () => {
  it('goes on air from the settings and tells followers 开播了; a second publisher is refused', async () => {
    const [{ n: followers } = { n: 0 }] = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(follows)
      .where(eq(follows.followeeId, HOST));
    const began = await beginBroadcast(HOST, 'http://web1');
    expect(began).toMatchObject({ resumed: false, recording: true });
    const [room] = await t.db.select().from(liveRooms).where(eq(liveRooms.id, began.roomId));
    expect(room).toMatchObject({ status: 'live', title: '夜跑直播', channelId: 300207, origin: 'http://web1' });
    const told = await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
      .where(and(eq(notifications.kind, 'live'), eq(notifications.roomId, began.roomId)));
    expect(followers).toBeGreaterThan(0);
    expect(told[0]!.n).toBe(followers);
    await expect(beginBroadcast(HOST, 'http://web2')).rejects.toMatchObject({ key: 'live.refused.busy' });
  });

  it('a dropped publisher that comes back continues the same room; ended only after the wait', async () => {
    const on = await beginBroadcast(HOST, 'http://web1').catch(() => null);
    expect(on).toBeNull();
    const [room] = await t.db
      .select({ id: liveRooms.id })
      .from(liveRooms)
      .where(and(eq(liveRooms.hostId, HOST), eq(liveRooms.status, 'live')));
    await pauseBroadcast(room!.id);
    // Too soon to end it: the publisher may come back.
    expect(await endBroadcast(room!.id, LIVE_RESUME_MS)).toBeNull();
    const back = await beginBroadcast(HOST, 'http://web2');
    expect(back).toEqual({ roomId: room!.id, resumed: true, recording: true });

    expect(await likeRoom(room!.id, 3)).toBe(3);
    expect(await likeRoom(room!.id, 2)).toBe(5);

    // Gone for longer than the wait (and its server with it): the sweep ends it.
    await pauseBroadcast(room!.id);
    await t.db
      .update(liveRooms)
      .set({ pausedAt: sql`now() - interval '2 minutes'` })
      .where(eq(liveRooms.id, room!.id));
    expect(await sweepBroadcasts()).toEqual([room!.id]);
    const [ended] = await t.db.select().from(liveRooms).where(eq(liveRooms.id, room!.id));
    expect(ended).toMatchObject({ status: 'ended', viewerCount: 0, origin: null });
    await expect(likeRoom(room!.id, 1)).rejects.toMatchObject({ key: 'live.ended' });
    // The next publish is a new broadcast.
    const next = await beginBroadcast(HOST, 'http://web1');
    expect(next.roomId).not.toBe(room!.id);
    expect(await endBroadcast(next.roomId)).toMatchObject({ roomId: next.roomId, hostId: HOST });
  });

  it('a broadcast whose server stopped reporting is paused by the sweep', async () => {
    const b = await beginBroadcast(HOST, 'http://web1');
    await t.db
      .update(liveRooms)
      .set({
        ingest: {
          width: 1,
          height: 1,
          fps: 1,
          kbps: 1,
          videoCodec: 'H.264',
          audioCodec: 'AAC',
          at: Date.now() - 60_000,
        },
      })
      .where(eq(liveRooms.id, b.roomId));
    await sweepBroadcasts();
    const [room] = await t.db.select().from(liveRooms).where(eq(liveRooms.id, b.roomId));
    expect(room!.pausedAt).not.toBeNull();
    expect(room!.status).toBe('live');
    await endBroadcast(b.roomId);
  });
});
