import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DANMAKU_RATE } from '../../services/danmaku.ts';
import { call, expectErrorA, ok, one, tokenFor, useApiDb } from '../../../../tests/api/helpers.ts';

const ctx = useApiDb();
const LIST = '/aweme/v1/web/danmaku/list/';
const SEND = '/aweme/v1/web/danmaku/send/';

describe('danmaku routes', () => {
  it('list answers a video’s danmaku in time order, 404 for an unknown video, 400 without an id', async () => {
    const { video_id } = await one<{ video_id: number }>(
      ctx,
      sql`select video_id from danmaku group by video_id order by count(*) desc limit 1`,
    );
    const body = await ok('GET', LIST, { query: { aweme_id: video_id } });
    expect(body.total).toBe(body.danmaku_list.length);
    const times = body.danmaku_list.map((d: { offset_ms: number }) => d.offset_ms);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expectErrorA(await call('GET', `/api${LIST}`, { query: { aweme_id: 2_000_000_000 } }), 404, 4);
    expectErrorA(await call('GET', `/api${LIST}`), 400, 2);
  });

  it('send needs a login, validates the text and answers the stored danmaku, which the list then holds', async () => {
    const { id } = await one<{ id: number }>(
      ctx,
      sql`select id from videos where deleted_at is null order by id limit 1`,
    );
    const { id: user } = await one<{ id: number }>(ctx, sql`select id from users order by id desc limit 1`);
    expectErrorA(await call('POST', `/api${SEND}`, { form: { aweme_id: id, text: '好', offset_ms: 0 } }), 401, 8);
    const token = await tokenFor(user);
    expectErrorA(await call('POST', `/api${SEND}`, { token, form: { aweme_id: id, text: '', offset_ms: 0 } }), 400, 2);
    expectErrorA(
      await call('POST', `/api${SEND}`, { token, form: { aweme_id: id, text: 'x'.repeat(51), offset_ms: 0 } }),
      400,
      2,
    );
    const sent = await ok('POST', SEND, { token, form: { aweme_id: id, text: '前方高能', offset_ms: 1200 } });
    expect(sent.danmaku).toMatchObject({
      aweme_id: String(id),
      user_id: String(user),
      text: '前方高能',
      offset_ms: 1200,
    });
    const list = await ok('GET', LIST, { query: { aweme_id: id }, token });
    expect(list.danmaku_list.map((d: { danmaku_id: string }) => d.danmaku_id)).toContain(sent.danmaku.danmaku_id);
  });

  it(`answers 429 with Retry-After once a user has sent ${DANMAKU_RATE.limit} in a minute`, async () => {
    const { id } = await one<{ id: number }>(
      ctx,
      sql`select id from videos where deleted_at is null order by id desc limit 1`,
    );
    const { id: user } = await one<{ id: number }>(ctx, sql`select id from users order by id limit 1`);
    const token = await tokenFor(user);
    for (let i = 0; i < DANMAKU_RATE.limit; i++)
      await ok('POST', SEND, { token, form: { aweme_id: id, text: `刷屏${i}`, offset_ms: i } });
    const res = await call('POST', `/api${SEND}`, { token, form: { aweme_id: id, text: '还要', offset_ms: 0 } });
    expectErrorA(res, 429, 7);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
