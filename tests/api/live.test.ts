/**
 * Live streaming through the API: the studio's 直播 (a key shown once, settings, the broadcast's figures), a host on
 * air marked in 关注 lists (room_id), their followers' 开播了 notices leading to the room, and 点赞.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { beginBroadcast, endBroadcast, reportIngest } from '../../src/server/services/live-broadcasts.ts';
import { verifyKey } from '../../src/server/services/live-hosts.ts';
import { call, expectErrorB, ok, one, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();

describe('live', () => {
  it('the studio makes a key once, keeps settings, and follows the broadcast; followers see the host on air', async () => {
    const host = await one<{ id: number; sec_uid: string }>(
      ctx,
      sql`select u.id, u.sec_uid from users u join follows f on f.followee_id = u.id group by u.id order by count(*) desc limit 1`,
    );
    const fan = await one<{ id: number }>(
      ctx,
      sql`select follower_id as id from follows where followee_id = ${host.id} limit 1`,
    );
    const token = await tokenFor(host.id);

    expect((await call('GET', '/studio/live')).status).toBe(401);
    const made = await ok('POST', '/studio/live/key', { token });
    expect(made.data.server).toMatch(/^rtmp:\/\/[^/]+:\d+\/live$/);
    expect(await verifyKey(made.data.key)).toBe(host.id);
    // The key is never answered again.
    const studio = await ok('GET', '/studio/live', { token });
    expect(JSON.stringify(studio)).not.toContain(made.data.key);
    expect(studio.data).toMatchObject({ hasKey: true, broadcast: null });

    const saved = await ok('POST', '/studio/live/settings', {
      token,
      form: { title: '周末夜跑', channelId: '300207', record: '1' },
    });
    expect(saved.data).toMatchObject({ title: '周末夜跑', channelId: 300207, record: true });
    expectErrorB(await call('POST', '/studio/live/settings', { token, form: { title: '' } }), 400);
    expectErrorB(await call('POST', '/studio/live/settings', { token, form: { channelId: '7' } }), 400);

    const { roomId } = await beginBroadcast(host.id, 'http://127.0.0.1:1');
    await reportIngest(roomId, {
      width: 1280,
      height: 720,
      fps: 30,
      kbps: 2500,
      videoCodec: 'H.264',
      audioCodec: 'AAC',
    });
    const on = await ok('GET', '/studio/live', { token });
    expect(on.data.broadcast).toMatchObject({ roomId, state: 'live', ingest: { width: 1280, kbps: 2500 } });

    // A fan's 关注 list rings the host (room_id), and their notices lead to the room.
    const fanToken = await tokenFor(fan.id);
    const list = await ok('GET', '/aweme/v1/web/user/following/list/', { token: fanToken, query: { count: '50' } });
    const row = list.followings.find((u: { sec_uid: string }) => u.sec_uid === host.sec_uid);
    expect(row?.room_id).toBe(roomId);
    const notices = await ok('GET', '/aweme/v1/web/notice/', { token: fanToken });
    const told = notices.notice_list.find(
      (n: { type: string; room_id: string | null }) => n.room_id === String(roomId),
    );
    expect(told).toMatchObject({ type: 'live', content: '周末夜跑' });

    // 点赞 from the fan, counted; none once the room has ended.
    const liked = await ok('POST', '/live/room/like', {
      token: fanToken,
      form: { room_id: String(roomId), count: '4' },
    });
    expect(liked.data.count).toBe(4);
    expectErrorB(
      await call('POST', '/live/room/like', { token: fanToken, form: { room_id: String(roomId), count: '99' } }),
      400,
    );
    await endBroadcast(roomId);
    expectErrorB(await call('POST', '/live/room/like', { token: fanToken, form: { room_id: String(roomId) } }), 409);
    const after = await ok('GET', '/aweme/v1/web/user/following/list/', { token: fanToken, query: { count: '50' } });
    expect(after.followings.find((u: { sec_uid: string }) => u.sec_uid === host.sec_uid)?.room_id).toBe(0);
  });
});
