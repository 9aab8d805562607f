import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorA, expectErrorB, ok, one, tokenFor, useApiDb } from '../../../../tests/api/helpers.ts';

const ctx = useApiDb();
let me: { id: number; sec_uid: string };
let token: string;

beforeAll(async () => {
  me = await one(
    ctx,
    sql`select u.id, u.sec_uid from users u where exists (select 1 from likes l where l.user_id = u.id) order by u.id limit 1`,
  );
  token = await tokenFor(me.id);
});

describe('settings routes', () => {
  it('need a login', async () => {
    expectErrorB(await call('GET', '/api/settings'), 401);
    expectErrorB(await call('POST', '/api/settings/privacy', { form: { likes_public: 0 } }), 401);
    expectErrorB(await call('POST', '/api/settings/notify', { form: { follow: 0 } }), 401);
  });

  it('privacy: likes_public=0 hides the likes from others (403) but not from the owner, and 1 shows them again', async () => {
    const favorite = `/api/aweme/v1/web/aweme/favorite/`;
    expect((await call('GET', favorite, { query: { sec_user_id: me.sec_uid } })).status).toBe(200);
    const saved = await ok('POST', '/settings/privacy', { token, form: { likes_public: 0 } });
    expect(saved.data).toEqual({ likesPublic: false, collectsPublic: true });
    expectErrorA(await call('GET', favorite, { query: { sec_user_id: me.sec_uid } }), 403, 9);
    expect((await call('GET', favorite, { query: { sec_user_id: me.sec_uid }, token })).status).toBe(200);
    expect((await ok('GET', '/settings', { token })).data.privacy.likesPublic).toBe(false);
    await ok('POST', '/settings/privacy', { token, form: { likes_public: 1 } });
    expect((await call('GET', favorite, { query: { sec_user_id: me.sec_uid } })).status).toBe(200);
  });

  it('notify: mutes and restores one kind, refuses values other than 0 and 1', async () => {
    const muted = await ok('POST', '/settings/notify', { token, form: { follow: 0 } });
    expect(muted.data.follow).toBe(false);
    expect(muted.data.like_video).toBe(true);
    expect((await ok('POST', '/settings/notify', { token, form: { follow: 1 } })).data.follow).toBe(true);
    expectErrorB(await call('POST', '/api/settings/notify', { token, form: { follow: 'yes' } }), 400);
    expectErrorB(await call('POST', '/api/settings/privacy', { token, form: { likes_public: 2 } }), 400);
  });

  it('feedback: stored with the account when logged in, 400 for empty text, 429 with Retry-After past the limit', async () => {
    const first = await ok('POST', '/feedback', {
      token,
      form: { content: '希望能加一个夜间自动深色', contact: 'me@example.com' },
    });
    const row = await one<{ user_id: number; content: string }>(
      ctx,
      sql`select user_id, content from feedback where id = ${first.data.id}`,
    );
    expect(row).toEqual({ user_id: me.id, content: '希望能加一个夜间自动深色' });
    expectErrorB(await call('POST', '/api/feedback', { form: { content: '   ' } }), 400);
    await ok('POST', '/feedback', { token, form: { content: '第二条反馈内容' } });
    await ok('POST', '/feedback', { token, form: { content: '第三条反馈内容' } });
    const limited = await call('POST', '/api/feedback', { token, form: { content: '第四条反馈内容' } });
    expectErrorB(limited, 429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
