/** The real-time doors (event streams, live chat), the @mention resolver and the channel, hot and friend lists. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveApi } from '../../src/server/api/node.ts';
import { handleApi } from '../../src/server/api/router.ts';
import { EventHub, useHub } from '../../src/server/realtime/events.ts';
import { LIVE_CHAT_RATE } from '../../src/server/services/live.ts';
import { reset } from '../../src/server/services/rate-limit.ts';
import { freshDb, type TestDb } from '../setup/test-db.ts';
import { call, expectErrorB, ok, one, pageAll, tokenFor } from './helpers.ts';

const W = '/aweme/v1/web';
const ctx = {} as { db: TestDb['db'] };
let testDb: TestDb;
let hub: EventHub;
let previous: EventHub | undefined;
let room: { id: number; viewer_count: number };
let ended: { id: number };
let alice: { id: number; token: string };
let bob: { id: number; token: string };

beforeAll(async () => {
  process.env.API_ANON_CACHE = 'off';
  testDb = await freshDb();
  ctx.db = testDb.db;
  hub = new EventHub(testDb.url);
  previous = useHub(hub);
  // The seed's rooms are past broadcasts: one goes on air again, as a publisher would put it.
  room = await one(
    ctx,
    sql`update live_rooms set status = 'live', ended_at = null where id = (select min(id) from live_rooms) returning id, viewer_count`,
  );
  ended = await one(ctx, sql`select id from live_rooms where status = 'ended' order by id limit 1`);
  const users = await testDb.db.execute<{ id: number }>(
    sql`select id from users where not is_demo order by id limit 2 offset 5`,
  );
  alice = { id: users.rows[0]!.id, token: await tokenFor(users.rows[0]!.id) };
  bob = { id: users.rows[1]!.id, token: await tokenFor(users.rows[1]!.id) };
});

afterAll(async () => {
  useHub(previous);
  await hub.close();
  await testDb.close();
});

/** Opens an event stream through the router and reads it as a client would. */
async function open(path: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await handleApi(
    new Request(`http://shanying.test/api${path}`, { headers, signal: controller.signal }),
  );
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    response,
    /** Reads until `pattern` appears in what arrived so far; answers all of it. */
    async until(pattern: RegExp, ms = 3000): Promise<string> {
      const deadline = Date.now() + ms;
      while (!pattern.test(text)) {
        const left = deadline - Date.now();
        if (left <= 0 || !reader) throw new Error(`no ${pattern} within ${ms} ms in ${JSON.stringify(text)}`);
        const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), left))]);
        if (!chunk || chunk.done) continue;
        text += decoder.decode(chunk.value, { stream: true });
      }
      return text;
    },
    async close() {
      await reader?.cancel();
      controller.abort();
    },
  };
}

const viewers = async (id: number) =>
  (await one<{ n: number }>(ctx, sql`select viewer_count as n from live_rooms where id = ${id}`)).n;

describe('live room chat', () => {
  it('reaches every viewer of the room as an SSE chat event', async () => {
    const first = await open(`/live/room/events?room_id=${room.id}`);
    const second = await open(`/live/room/events?room_id=${room.id}`);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(first.response.headers.get('cache-control')).toContain('no-cache');
    await first.until(/event: viewers\ndata: \{"count":\d+\}/);
    await second.until(/event: viewers/);
    expect(await viewers(room.id)).toBe(room.viewer_count + 2);

    const sent = await ok('POST', '/live/room/chat', {
      token: alice.token,
      form: { room_id: room.id, text: '  主播好！<b>hi</b>  ' },
    });
    expect(sent.code).toBe('200');
    expect(sent.data).toMatchObject({ roomId: String(room.id), text: '主播好！<b>hi</b>' });
    const line = `id: ${sent.data.id}\nevent: chat\ndata: ${JSON.stringify(sent.data)}\n\n`;
    expect(await first.until(/主播好/)).toContain(line);
    expect(await second.until(/主播好/)).toContain(line);

    await first.close();
    await expect.poll(() => viewers(room.id)).toBe(room.viewer_count + 1);
    await second.close();
    await expect.poll(() => viewers(room.id)).toBe(room.viewer_count);
    expect(hub.listeners()).toBe(0);
  });

  it('keeps a member who opens a room on air in their 观看历史 → 直播 (webcast/feed); an ended room is no watch', async () => {
    const stream = await open(`/live/room/events?room_id=${room.id}`, { token: alice.token });
    await stream.until(/event: viewers/);
    await stream.close();
    const over = await open(`/live/room/events?room_id=${ended.id}`, { token: bob.token });
    await over.until(/event: viewers/);
    await over.close();
    const watched = await ok('GET', `${W}/webcast/feed/`, { token: alice.token });
    expect(watched.data.map((r: { rid: string }) => r.rid)).toEqual([String(room.id)]);
    expect(watched.data[0].latest_watch_time).toBeGreaterThan(Date.now() - 60_000);
    expect((await ok('GET', `${W}/webcast/feed/`, { token: bob.token })).data).toEqual([]);
  });

  it('replays what a reconnecting client missed after its Last-Event-ID', async () => {
    const a = await ok('POST', '/live/room/chat', { token: bob.token, form: { room_id: room.id, text: '第一句' } });
    const b = await ok('POST', '/live/room/chat', { token: bob.token, form: { room_id: room.id, text: '第二句' } });
    const stream = await open(`/live/room/events?room_id=${room.id}`, { 'last-event-id': a.data.id });
    const text = await stream.until(/event: viewers/);
    expect(text).toContain(`id: ${b.data.id}\nevent: chat`);
    expect(text).not.toContain(`id: ${a.data.id}\n`);
    await stream.close();
  });

  it('needs a login, a room on air and 1 to 100 characters', async () => {
    expectErrorB(await call('POST', '/api/live/room/chat', { form: { room_id: room.id, text: '你好' } }), 401);
    expectErrorB(
      await call('POST', '/api/live/room/chat', { token: alice.token, form: { room_id: room.id, text: '   ' } }),
      400,
    );
    expectErrorB(
      await call('POST', '/api/live/room/chat', {
        token: alice.token,
        form: { room_id: room.id, text: '字'.repeat(101) },
      }),
      400,
    );
    await ok('POST', '/live/room/chat', { token: alice.token, form: { room_id: room.id, text: '字'.repeat(100) } });
    expectErrorB(
      await call('POST', '/api/live/room/chat', { token: alice.token, form: { room_id: ended.id, text: '还在吗' } }),
      409,
    );
    expectErrorB(
      await call('POST', '/api/live/room/chat', { token: alice.token, form: { room_id: 999_999, text: '你好' } }),
      404,
    );
    expectErrorB(await call('GET', '/api/live/room/events', { query: { room_id: 999_999 } }), 404);
  });

  it(`limits each user to ${LIVE_CHAT_RATE.limit} lines per ${LIVE_CHAT_RATE.windowMs / 1000} seconds`, async () => {
    await reset(`live-chat:${bob.id}`);
    for (let i = 0; i < LIVE_CHAT_RATE.limit; i++)
      await ok('POST', '/live/room/chat', { token: bob.token, form: { room_id: room.id, text: `刷屏${i}` } });
    const refused = await call('POST', '/api/live/room/chat', {
      token: bob.token,
      form: { room_id: room.id, text: '再来' },
    });
    expectErrorB(refused, 429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it("opens with the room's state as it is now, so a page rendered before the host left or ended still learns it", async () => {
    const live = await open(`/live/room/events?room_id=${room.id}`);
    expect(await live.until(/event: state\n/)).toContain('event: state\ndata: {"state":"live"}\n\n');
    await live.close();

    await testDb.db.execute(sql`update live_rooms set paused_at = now() where id = ${room.id}`);
    try {
      const away = await open(`/live/room/events?room_id=${room.id}`);
      expect(await away.until(/event: state\n/)).toContain('event: state\ndata: {"state":"paused"}\n\n');
      await away.close();
    } finally {
      await testDb.db.execute(sql`update live_rooms set paused_at = null where id = ${room.id}`);
    }

    const over = await open(`/live/room/events?room_id=${ended.id}`);
    expect(await over.until(/event: state\n/)).toMatch(/event: state\ndata: \{"state":"ended"(,"replayId":\d+)?\}\n\n/);
    await over.close();
  });

  it('an ended room streams its last viewer count without counting anyone in', async () => {
    const stream = await open(`/live/room/events?room_id=${ended.id}`);
    await stream.until(/event: viewers\ndata: \{"count":0\}/);
    await stream.close();
    expect(await viewers(ended.id)).toBe(0);
  });
});

describe('serveApi', () => {
  it('writes an event stream through as it comes and ends it when the client leaves', async () => {
    const server = http.createServer((req, res) => void serveApi(req, res));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const controller = new AbortController();
      const res = await fetch(`${base}/api/live/room/events?room_id=${room.id}`, { signal: controller.signal });
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes('event: viewers')) text += new TextDecoder().decode((await reader.read()).value);
      expect(hub.listeners(`room:${room.id}`)).toBe(1);
      await ok('POST', '/live/room/chat', { token: alice.token, form: { room_id: room.id, text: '经由网络' } });
      while (!text.includes('经由网络')) text += new TextDecoder().decode((await reader.read()).value);
      controller.abort();
      await expect.poll(() => hub.listeners(`room:${room.id}`)).toBe(0);
      await expect.poll(() => viewers(room.id)).toBe(room.viewer_count);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('GET /api/events', () => {
  it('needs a login', async () => {
    expectErrorB(await call('GET', '/api/events'), 401);
  });

  it("streams the user's unread notification count, at once and on each notice", async () => {
    const { n } = await one<{ n: number }>(
      ctx,
      sql`select count(*)::int as n from notifications where user_id = ${alice.id} and read_at is null`,
    );
    const stream = await open('/events', { token: alice.token });
    await stream.until(new RegExp(`event: notice\\ndata: \\{"unread":${n}\\}`));
    const video = await one<{ id: number }>(
      ctx,
      sql`select id from videos where author_id = ${alice.id} and deleted_at is null limit 1`,
    );
    await ctx.db.execute(
      sql`insert into notifications (user_id, actor_id, kind, video_id) values (${alice.id}, ${bob.id}, 'like_video', ${video.id})`,
    );
    await ctx.db.execute(
      sql`select pg_notify('shanying_events', ${JSON.stringify({ topic: `user:${alice.id}`, type: 'notice', data: null })})`,
    );
    await stream.until(new RegExp(`"unread":${n + 1}\\}`));
    await stream.close();
  });
});

describe('comment/mention/resolve', () => {
  it('answers the users named, leaving unknown names out', async () => {
    const [a, b] = (
      await ctx.db.execute<{ nickname: string; sec_uid: string }>(
        sql`select nickname, sec_uid from users order by id limit 2`,
      )
    ).rows;
    const body = await ok('GET', `${W}/comment/mention/resolve/`, {
      query: { nicknames: `${a!.nickname} 没有这个人 ${b!.nickname} ${a!.nickname}` },
    });
    expect(body.users).toEqual([
      { nickname: a!.nickname, sec_uid: a!.sec_uid },
      { nickname: b!.nickname, sec_uid: b!.sec_uid },
    ]);
  });

  it('refuses an empty list or a name with @', async () => {
    expect((await call('GET', `/api${W}/comment/mention/resolve/`, { query: { nicknames: ' ' } })).status).toBe(400);
    expect((await call('GET', `/api${W}/comment/mention/resolve/`, { query: { nicknames: 'a@b' } })).status).toBe(400);
  });
});

describe('channel, hot and friend lists', () => {
  it('channel/feed pages one channel to its end without repeats', async () => {
    const { n } = await one<{ n: number }>(
      ctx,
      sql`select count(*)::int as n from videos where channel_id = 300203 and deleted_at is null`,
    );
    const ids = await pageAll(async (cursor) => {
      const body = await ok('GET', `${W}/channel/feed/`, { query: { tag_id: 300203, cursor, count: 20 } });
      return {
        ids: body.aweme_list.map((a: { aweme_id: string }) => a.aweme_id),
        next: body.cursor,
        hasMore: body.has_more === 1,
      };
    });
    expect(ids).toHaveLength(n);
    expect(new Set(ids).size).toBe(n);
    expect((await call('GET', `/api${W}/channel/feed/`, { query: { tag_id: 300202 } })).status).toBe(400);
  });

  it('hot/aweme/list ranks by heat, highest first', async () => {
    // Seeded activity is older than the 7-day window of the database clock: make some of our own.
    const vids = (
      await ctx.db.execute<{ id: number }>(sql`select id from videos where deleted_at is null order by id limit 3`)
    ).rows.map((r) => r.id);
    for (const [i, v] of vids.entries()) {
      for (let k = 0; k <= i; k++)
        await ctx.db.execute(
          sql`insert into collects (user_id, video_id) select id, ${v} from users order by id offset ${k * 7 + i} limit 1 on conflict do nothing`,
        );
    }
    const body = await ok('GET', `${W}/hot/aweme/list/`, { query: { count: 10 } });
    const heat = body.aweme_list.map((a: { hot_value: number }) => a.hot_value);
    expect(heat.length).toBeGreaterThan(0);
    expect([...heat].sort((x, y) => y - x)).toEqual(heat);
    expect(body.aweme_list[0].aweme_id).toBe(String(vids[2]));
  });

  it('friend/feed needs a login and shows only friends', async () => {
    expect((await call('GET', `/api${W}/friend/feed/`)).status).toBe(401);
    const demo = await one<{ id: number }>(ctx, sql`select id from users where is_demo`);
    const body = await ok('GET', `${W}/friend/feed/`, { token: await tokenFor(demo.id), query: { count: 10 } });
    const friends = new Set(
      (
        await ctx.db.execute<{ sec_uid: string }>(sql`
        select u.sec_uid from follows a join follows b on b.follower_id = a.followee_id and b.followee_id = a.follower_id
        join users u on u.id = a.followee_id where a.follower_id = ${demo.id}`)
      ).rows.map((r) => r.sec_uid),
    );
    expect(body.aweme_list.length).toBeGreaterThan(0);
    for (const a of body.aweme_list) expect(friends.has(a.author.sec_uid)).toBe(true);
  });
});
