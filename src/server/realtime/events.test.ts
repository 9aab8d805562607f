import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { EventHub, PG_CHANNEL, publish, streamEvents, userTopic, type HubEvent } from './events.ts';

let testDb: TestDb;
let hub: EventHub;

beforeAll(async () => {
  testDb = await freshDb();
  hub = new EventHub(testDb.url);
  await hub.ready();
});

afterAll(async () => {
  await hub.close();
  await testDb.close();
});

/** Collects events of `topic` until `n` arrived (or the time is up). */
function collect(
  topic: string,
  n: number,
  ms = 3000,
): { events: HubEvent[]; done: Promise<HubEvent[]>; stop: () => void } {
  const events: HubEvent[] = [];
  let stop = () => {};
  const done = new Promise<HubEvent[]>((resolve) => {
    const timer = setTimeout(() => resolve(events), ms);
    stop = hub.subscribe([topic], (e) => {
      events.push(e);
      if (events.length >= n) {
        clearTimeout(timer);
        resolve(events);
      }
    });
  });
  return { events, done, stop };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('EventHub', () => {
  it('gives one published event to each of two subscribers, once', async () => {
    const a = collect('room:1', 1);
    const b = collect('room:1', 1);
    const other = collect('room:2', 1, 300);
    await publish('room:1', { type: 'chat', id: '7', data: { text: '你好' } });
    const [ea, eb] = await Promise.all([a.done, b.done]);
    await pause(150);
    expect(ea).toEqual([{ topic: 'room:1', type: 'chat', id: '7', data: { text: '你好' } }]);
    expect(eb).toEqual(ea);
    expect(a.events).toHaveLength(1);
    expect(await other.done).toEqual([]);
    for (const c of [a, b, other]) c.stop();
  });

  it('stops delivering once a subscriber unsubscribes, and forgets empty topics', async () => {
    const kept = collect('room:3', 2);
    const gone = collect('room:3', 1, 500);
    expect(hub.listeners('room:3')).toBe(2);
    gone.stop();
    gone.stop();
    expect(hub.listeners('room:3')).toBe(1);
    await publish('room:3', { type: 'chat', data: 1 });
    await publish('room:3', { type: 'chat', data: 2 });
    expect((await kept.done).map((e) => e.data)).toEqual([1, 2]);
    expect(await gone.done).toEqual([]);
    kept.stop();
    expect(hub.listeners('room:3')).toBe(0);
    expect(hub.listeners()).toBe(0);
  });

  it('receives a NOTIFY sent by another connection (another app server)', async () => {
    const got = collect('room:4', 1);
    const other = new pg.Client({ connectionString: testDb.url });
    await other.connect();
    try {
      await other.query('select pg_notify($1, $2)', [
        PG_CHANNEL,
        JSON.stringify({ topic: 'room:4', type: 'viewers', data: { count: 3 } }),
      ]);
      // Payloads that are not ours are ignored, not fatal.
      await other.query(`NOTIFY ${PG_CHANNEL}, 'not json'`);
    } finally {
      await other.end();
    }
    expect(await got.done).toEqual([{ topic: 'room:4', type: 'viewers', data: { count: 3 }, id: undefined }]);
    got.stop();
  });

  it('delivers an event published inside a transaction only when it commits', async () => {
    const got = collect('room:5', 2, 800);
    await testDb.db
      .transaction(async (tx) => {
        await publish('room:5', { type: 'chat', data: 'rolled back' }, tx);
        throw new Error('rollback');
      })
      .catch(() => {});
    await testDb.db.transaction(async (tx) => {
      await publish('room:5', { type: 'chat', data: 'committed' }, tx);
    });
    expect((await got.done).map((e) => e.data)).toEqual(['committed']);
    got.stop();
  });

  it('refuses a payload pg_notify could not carry', async () => {
    await expect(publish('room:6', { type: 'chat', data: 'x'.repeat(8000) })).rejects.toThrow(RangeError);
  });

  it('reconnects after its LISTEN connection is terminated', async () => {
    const own = new EventHub(testDb.url);
    const events: unknown[] = [];
    const stop = own.subscribe(['room:8'], (e) => events.push(e.data));
    await own.ready();
    await testDb.pool.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where query = 'LISTEN ${PG_CHANNEL}' and pid <> pg_backend_pid() and datname = current_database()`,
    );
    await expect
      .poll(
        async () => {
          await publish('room:8', { type: 'chat', data: 'after' });
          return events.includes('after');
        },
        { timeout: 8000, interval: 300 },
      )
      .toBe(true);
    stop();
    await own.close();
    // The shared hub of this file was terminated too; it is back as well.
    await hub.ready();
  });
});

describe('streamEvents', () => {
  async function read(reader: ReadableStreamDefaultReader<Uint8Array>, until: RegExp, ms = 3000): Promise<string> {
    const decoder = new TextDecoder();
    let text = '';
    const deadline = Date.now() + ms;
    while (!until.test(text)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${until} in ${JSON.stringify(text)}`);
      const chunk = await Promise.race([reader.read(), pause(left).then(() => null)]);
      if (!chunk || chunk.done) break;
      text += decoder.decode(chunk.value, { stream: true });
    }
    return text;
  }

  it('streams the snapshot, then hub events without repeating an id, and cleans up on cancel', async () => {
    const controller = new AbortController();
    let closed = 0;
    const response = streamEvents(
      new Request('http://x/api/live/room/events', { signal: controller.signal }),
      null,
      ['room:9'],
      {
        hub,
        initial: async () => {
          // Published while the snapshot is read: held, then sent once, after it.
          await publish('room:9', { type: 'chat', id: '1', data: 'in snapshot' });
          await publish('room:9', { type: 'chat', id: '2', data: 'after snapshot' });
          await pause(200);
          return [{ event: 'chat', id: '1', data: 'in snapshot' }];
        },
        onClose: () => closed++,
      },
    );
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = response.body!.getReader();
    const text = await read(reader, /after snapshot/);
    expect(text).toMatch(/^retry: \d+\n/);
    expect(text.match(/in snapshot/g)).toHaveLength(1);
    expect(text).toContain('id: 2\nevent: chat\ndata: "after snapshot"\n\n');
    expect(hub.listeners('room:9')).toBe(1);
    await reader.cancel();
    expect(hub.listeners('room:9')).toBe(0);
    expect(closed).toBe(1);
    controller.abort();
    expect(closed).toBe(1);
  });

  it('ends the stream when the request is aborted', async () => {
    const controller = new AbortController();
    let closed = 0;
    const response = streamEvents(new Request('http://x/', { signal: controller.signal }), null, ['room:10'], {
      hub,
      onClose: () => closed++,
    });
    const reader = response.body!.getReader();
    await read(reader, /retry/);
    await expect.poll(() => hub.listeners('room:10')).toBe(1);
    controller.abort();
    expect((await reader.read()).done).toBe(true);
    expect(hub.listeners('room:10')).toBe(0);
    expect(closed).toBe(1);
  });

  it("refuses another user's private topic", () => {
    const viewer = { id: 5, secUid: 's', nickname: 'n', avatar: 'a' };
    expect(() => streamEvents(new Request('http://x/'), viewer, [userTopic(6)], { hub })).toThrow();
    expect(() => streamEvents(new Request('http://x/'), null, [userTopic(5)], { hub })).toThrow();
    const own = streamEvents(new Request('http://x/'), viewer, [userTopic(5)], { hub });
    void own.body!.cancel();
  });
});

describe('notifications on the user stream', () => {
  it('a like by someone else reaches the author as a notice; a self-like does not', async () => {
    const { setVideoLike } = await import('../services/interactions.ts');
    const { rows } = await testDb.pool.query<{ id: number; author_id: number }>(
      `select v.id, v.author_id from videos v where not exists (select 1 from likes l where l.video_id = v.id and l.user_id = (select min(id) from users where id <> v.author_id)) order by v.id limit 1`,
    );
    const video = rows[0]!;
    const { rows: fans } = await testDb.pool.query<{ id: number }>(`select min(id) as id from users where id <> $1`, [
      video.author_id,
    ]);
    // Wait for up to two: a self-like that notified would show as a second event.
    const heard = collect(userTopic(video.author_id), 2, 1500);
    await setVideoLike(video.author_id, video.id, true);
    await setVideoLike(fans[0]!.id, video.id, true);
    const events = await heard.done;
    heard.stop();
    expect(events.map((e) => e.type)).toEqual(['notice']);
  });
});
