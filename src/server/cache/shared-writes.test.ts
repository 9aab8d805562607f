import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { EventHub, publish } from '../realtime/events.ts';
import { onAnonymousContentChange } from './anonymous-content.ts';
import { onMemberWrite } from './member-writes.ts';
import { announceMemberWrite, announceWrite, BATCH_MS, followOtherServers, WRITES_TOPIC } from './shared-writes.ts';

let testDb: TestDb;
// Each hub is one app server's LISTEN connection.
let other: EventHub;
let self: EventHub;

beforeAll(async () => {
  testDb = await freshDb();
  other = new EventHub(testDb.url);
  self = new EventHub(testDb.url);
  await Promise.all([other.ready(), self.ready()]);
});

afterAll(async () => {
  await Promise.all([other.close(), self.close()]);
  await testDb.close();
});

/**
 * The signals raised in this process while `act` runs and until `settled` holds of them (then a moment more, for any
 * that should not come), or, when nothing is awaited, for a fixed while: notifications arrive when the database and
 * the machine let them, a second late on a loaded one.
 */
async function signals(
  act: () => unknown,
  settled?: (seen: readonly (readonly number[])[]) => boolean,
): Promise<(readonly number[])[]> {
  const seen: (readonly number[])[] = [];
  const stop = onAnonymousContentChange((videos) => seen.push(videos));
  try {
    await act();
    // Checked every few milliseconds; the test's own timeout (30 s) bounds the wait.
    if (settled) await vi.waitFor(() => expect(settled(seen)).toBe(true), { timeout: 30_000, interval: 5 });
    await new Promise((r) => setTimeout(r, settled ? BATCH_MS * 10 : 400));
  } finally {
    stop();
  }
  return seen;
}

describe('writes shared between app servers', () => {
  it('raises a write here at once, and on another server when its notification arrives', async () => {
    const stop = followOtherServers(other, 'another server');
    const seen = await signals(
      () => {
        const atOnce: (readonly number[])[] = [];
        const stopSeeing = onAnonymousContentChange((videos) => atOnce.push(videos));
        announceWrite([7]);
        stopSeeing();
        // Raised here before the notification could have gone out.
        expect(atOnce).toEqual([[7]]);
      },
      (seen) => seen.length >= 2,
    );
    stop();
    expect(seen).toEqual([[7], [7]]);
  });

  it('tells who wrote, here and on another server, and a write only its writer sees leaves the anonymous copies be', async () => {
    const stop = followOtherServers(other, 'another server');
    const members: number[] = [];
    const stopMembers = onMemberWrite((id) => members.push(id));
    const seen = await signals(
      () => {
        announceWrite([3], 41);
        announceMemberWrite(42);
        // Raised here before the notifications could have gone out.
        expect(members).toEqual([41, 42]);
      },
      () => members.length >= 4,
    );
    stop();
    stopMembers();
    expect(seen).toEqual([[3], [3]]);
    expect(members).toEqual([41, 42, 41, 42]);
  });

  it('tells the writes of one moment in one notification, and the next moment in another', async () => {
    const notifications: unknown[] = [];
    const stopCounting = other.subscribe([WRITES_TOPIC], (event) => notifications.push(event.data));
    const stop = followOtherServers(other, 'another server');
    const members: number[] = [];
    const stopMembers = onMemberWrite((id) => members.push(id));
    const seen = await signals(
      async () => {
        for (let i = 1; i <= 150; i++) announceWrite([i], 1000 + (i % 3));
        for (let i = 0; i < 20; i++) announceMemberWrite(2000);
        await new Promise((r) => setTimeout(r, BATCH_MS * 5));
        announceMemberWrite(3000);
      },
      (seen) => seen.length >= 152 && notifications.length >= 3 && members.length >= 176,
    );
    stop();
    stopMembers();
    stopCounting();
    // 150 videos are two notifications (at most 100 each); the member write a moment later is a third.
    expect(notifications).toHaveLength(3);
    const remote = seen.slice(150);
    expect(remote.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
    // Here once per write (171); from the channel once per writer a notification names.
    expect(members).toHaveLength(171 + 5);
    expect(members.slice(170).sort()).toEqual([1000, 1001, 1002, 2000, 3000, 3000]);
    // A moment of member writes alone leaves the anonymous copies be.
    expect(notifications[2]).not.toHaveProperty('videos');
  });

  it('skips its own writes when they come back on the channel', async () => {
    const stop = followOtherServers(self);
    const seen = await signals(() => announceWrite([8]));
    stop();
    expect(seen).toEqual([[8]]);
  });

  it('ignores a notification on the topic that is not a write, and stops when told', async () => {
    const stop = followOtherServers(other, 'another server');
    const members: number[] = [];
    const stopMembers = onMemberWrite((id) => members.push(id));
    const malformed = await signals(async () => {
      for (const data of [
        null,
        'x',
        { videos: 'all' },
        { videos: [1, -2] },
        { videos: [1.5] },
        { videos: Array.from({ length: 101 }, (_, i) => i + 1) },
        { members: 'x' },
        { members: [0] },
        { members: [1.5] },
        { members: Array.from({ length: 501 }, (_, i) => i + 1) },
      ]) {
        await publish(WRITES_TOPIC, { type: 'changed', data });
      }
    });
    expect(malformed).toEqual([]);
    stopMembers();
    expect(members).toEqual([]);
    stop();
    const after = await signals(() =>
      publish(WRITES_TOPIC, { type: 'changed', data: { from: 'a third server', videos: [9] } }),
    );
    expect(after).toEqual([]);
  });
});
