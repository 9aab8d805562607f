import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { t } from '../../src/i18n/t.ts';
import { handleApi } from '../../src/server/api/router.ts';
import { DEMO_EMAIL, demoPassword } from '../../src/server/db/demo.ts';
import { CODE_EMAIL_RATE } from '../../src/server/services/auth/codes.ts';
import { PASSWORD_ACCOUNT_RATE, PASSWORD_PAIR_RATE } from '../../src/server/services/auth/password.ts';
import { lastOutboxCode } from '../../src/server/services/mailer.ts';
import { hit, reset } from '../../src/server/services/rate-limit.ts';
import { call, expectErrorA, ok, responseSchema, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), 'sy-passport-'));

/** A form POST from a given client address (per-IP limits). */
async function post(pathname: string, form: Record<string, string>, ip: string, token?: string) {
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' });
  if (token) headers.set('Token', token);
  const res = await handleApi(
    new Request(`http://shanying.test/api${pathname}`, {
      method: 'POST',
      headers,
      body: new URLSearchParams(form).toString(),
    }),
    { clientAddress: ip },
  );
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

describe('passport API', () => {
  it('logs in with the password, sets an HttpOnly cookie, and the token reads the profile; logout makes it useless', async () => {
    const res = await post('/passport/login/password', { email: DEMO_EMAIL, password: demoPassword() }, '10.0.0.1');
    expect(res.status).toBe(200);
    expect(responseSchema('POST', '/passport/login/password').safeParse(res.body).success).toBe(true);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^sy_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+/);
    // Beside it, the readable hint a page every viewer shares looks for (nothing but 1, gone with the session).
    const hint = res.headers.getSetCookie().find((c) => c.startsWith('sy_member='));
    expect(hint).toMatch(/^sy_member=1; Path=\/; SameSite=Lax; Max-Age=\d+$/);
    const token = res.body.token as string;
    const self = await ok('GET', '/aweme/v1/web/user/profile/self/', { token });
    expect(self.user.sec_uid).toBe(res.body.user.sec_uid);
    const viaCookie = await call('GET', '/api/aweme/v1/web/user/profile/self/', { cookie: cookie.split(';')[0] });
    expect(viaCookie.status).toBe(200);
    const out = await post('/passport/logout', {}, '10.0.0.1', token);
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^sy_session=; .*Max-Age=0/);
    expect(out.headers.getSetCookie()).toContain('sy_member=; Path=/; SameSite=Lax; Max-Age=0');
    expect((await call('GET', '/api/aweme/v1/web/user/profile/self/', { token })).body.status_code).toBe(8);
    expectErrorA(await call('GET', '/api/aweme/v1/web/history/read/', { token }), 401, 8);
  });

  it(`answers a wrong password with its own message, and 429 with Retry-After past ${PASSWORD_PAIR_RATE.limit} tries while the owner still gets in elsewhere`, async () => {
    await reset('pw:');
    const wrong = await post('/passport/login/password', { email: DEMO_EMAIL, password: 'not-it' }, '10.0.0.2');
    expect(wrong.status).toBe(401);
    expect(wrong.body.status_msg).toBe(t('error.wrongPassword'));
    for (let i = 1; i < PASSWORD_PAIR_RATE.limit; i++)
      await post('/passport/login/password', { email: DEMO_EMAIL, password: `nope-${i}` }, '10.0.0.2');
    const limited = await handleApi(
      new Request('http://shanying.test/api/passport/login/password', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: DEMO_EMAIL, password: 'again' }).toString(),
      }),
      { clientAddress: '10.0.0.2' },
    );
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const owner = await post('/passport/login/password', { email: DEMO_EMAIL, password: demoPassword() }, '10.0.0.3');
    expect(owner.status).toBe(200);
  });

  it('under guessing from many addresses, lets in the browser that logged in before (its device cookie) and tells a new one to use the e-mail code', async () => {
    await reset('pw:');
    const login = (ip: string, cookie?: string) =>
      handleApi(
        new Request('http://shanying.test/api/passport/login/password', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
          body: new URLSearchParams({ email: DEMO_EMAIL, password: demoPassword() }).toString(),
        }),
        { clientAddress: ip },
      );
    const first = await login('10.0.2.1');
    expect(first.status).toBe(200);
    const device = first.headers.getSetCookie().find((c) => c.startsWith('sy_device='));
    expect(device).toMatch(/^sy_device=[\w-]{43}; Path=\/api\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
    // The guessing has used up the account's allowance for browsers it does not know (the service test guesses for real).
    for (let i = 0; i < PASSWORD_ACCOUNT_RATE.limit; i++)
      await hit(`pw:acct:${DEMO_EMAIL}`, PASSWORD_ACCOUNT_RATE.limit, PASSWORD_ACCOUNT_RATE.windowMs);

    const stranger = await login('10.0.2.2');
    expect(stranger.status).toBe(429);
    expect(Number(stranger.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await stranger.json()) as { status_msg: string }).status_msg).toBe(t('error.passwordLockedUseCode'));
    const owner = await login('10.0.2.3', device!.split(';')[0]);
    expect(owner.status).toBe(200);
  });

  it('validates the e-mail before sending a code', async () => {
    const empty = await post('/passport/code/send', { email: '' }, '10.0.1.1');
    expect(empty.status).toBe(400);
    expect(empty.body.status_msg).toBe(t('login.error.emailEmpty'));
    expect((await post('/passport/code/send', { email: 'not-an-email' }, '10.0.1.1')).status).toBe(400);
  });

  it('logs in with an e-mailed code, creating the account on first use', async () => {
    const email = `code-${Date.now()}@example.com`;
    const sent = await post('/passport/code/send', { email }, '10.0.1.2');
    expect(sent.body).toEqual({ status_code: 0, retry_after: CODE_EMAIL_RATE.windowMs / 1000 });
    const again = await post('/passport/code/send', { email }, '10.0.1.2');
    expect(again.status).toBe(429);
    const code = await lastOutboxCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const wrongCode = code === '000000' ? '111111' : '000000';
    expect((await post('/passport/login/code', { email, code: wrongCode }, '10.0.1.2')).body.status_msg).toBe(
      t('error.wrongCode'),
    );
    const login = await post('/passport/login/code', { email, code: code! }, '10.0.1.2');
    expect(login.status).toBe(200);
    expect(login.body.created).toBe(true);
    const self = await ok('GET', '/aweme/v1/web/user/profile/self/', { token: login.body.token });
    expect(self.user.nickname).toBe(login.body.user.nickname);
  });

  it('logs in by QR once a logged-in browser confirms, delivering the token once', async () => {
    const created = await post('/passport/qr/create', {}, '10.0.2.1');
    expect(created.body.svg).toContain('<svg');
    expect(created.body.url).toContain(`/passport/qr?ticket=${created.body.ticket}`);
    const status = async () =>
      (await call('GET', '/api/passport/qr/status', { query: { ticket: created.body.ticket } })).body;
    expect((await status()).status).toBe('pending');
    const { rows } = await ctx.db.execute<{ id: number }>(
      `select id from users where is_demo = false order by id limit 1` as never,
    );
    const phone = await tokenFor(rows[0]!.id);
    expect((await post('/passport/qr/confirm', { ticket: created.body.ticket }, '10.0.2.2')).status).toBe(401);
    expect((await post('/passport/qr/scan', { ticket: created.body.ticket }, '10.0.2.2', phone)).status).toBe(200);
    expect((await status()).status).toBe('scanned');
    expect((await post('/passport/qr/confirm', { ticket: created.body.ticket }, '10.0.2.2', phone)).status).toBe(200);
    const done = await status();
    expect(done.status).toBe('confirmed');
    expect(done.user.uid).toBe(String(rows[0]!.id));
    const self = await ok('GET', '/aweme/v1/web/user/profile/self/', { token: done.token });
    expect(self.user.uid).toBe(String(rows[0]!.id));
    const later = await status();
    expect(later.status).toBe('expired');
    expect(later.token).toBeUndefined();
  });

  it('pre-fills the demo account only while the demo seed stands', async () => {
    const demo = await ok('GET', '/passport/demo');
    expect(demo.email).toBe(DEMO_EMAIL);
  });
});
