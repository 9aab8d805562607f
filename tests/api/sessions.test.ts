/**
 * Sessions through the API: the cookie's name and flags by how the site is served, a login ending the browser's
 * previous session, idle and absolute expiry, 退出所有设备, the common-password list, and the code login that a locked
 * password never blocks.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { t } from '../../src/i18n/t.ts';
import { handleApi } from '../../src/server/api/router.ts';
import { sessions } from '../../src/server/db/schema.ts';
import { PASSWORD_ACCOUNT_RATE } from '../../src/server/services/auth/password.ts';
import { lastOutboxCode } from '../../src/server/services/mailer.ts';
import { hit, reset } from '../../src/server/services/rate-limit.ts';
import { hashToken, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../src/server/services/sessions.ts';
import { call, useApiDb } from './helpers.ts';

const ctx = useApiDb();
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), 'sy-sessions-'));
const DAY = 86_400_000;

afterEach(() => {
  delete process.env.PUBLIC_URL;
  delete process.env.TRUST_PROXY;
});

let addresses = 0;
/** A form POST from its own client address, so per-IP limits of one test never reach another. */
async function post(
  pathname: string,
  form: Record<string, string>,
  opts: { token?: string; cookie?: string; headers?: Record<string, string> } = {},
) {
  const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded', ...opts.headers });
  if (opts.token) headers.set('Token', opts.token);
  if (opts.cookie) headers.set('Cookie', opts.cookie);
  const res = await handleApi(
    new Request(`http://shanying.test/api${pathname}`, {
      method: 'POST',
      headers,
      body: new URLSearchParams(form).toString(),
    }),
    {
      clientAddress: `10.77.0.${++addresses}`,
    },
  );
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** Logs in with an e-mailed code (the first login creates the account); answers the token and the Set-Cookie. */
async function codeLogin(email: string, opts: { cookie?: string; headers?: Record<string, string> } = {}) {
  await reset(`code:email:${email}`);
  expect((await post('/passport/code/send', { email })).status).toBe(200);
  const res = await post('/passport/login/code', { email, code: (await lastOutboxCode(email))! }, opts);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { token: res.body.token as string, cookie: sessionCookie(res.headers)!, uid: Number(res.body.user.uid) };
}

/** The session cookie an answer sets, apart from the readable sy_member hint that goes with it. */
function sessionCookie(headers: Headers): string | undefined {
  return headers.getSetCookie().find((c) => /^(__Host-)?sy_session=/.test(c));
}

const self = (token: string) => call('GET', '/api/aweme/v1/web/user/profile/self/', { token });
const loggedIn = async (token: string) => (await self(token)).body.status_code === 0;

describe('the session cookie', () => {
  it('is sy_session, HttpOnly, SameSite=Lax and not Secure over plain http, even when a client claims https', async () => {
    const { cookie } = await codeLogin('plain@example.com', { headers: { 'x-forwarded-proto': 'https' } });
    expect(cookie).toMatch(/^sy_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
  });

  it('is __Host-sy_session and Secure when PUBLIC_URL is https, and only that name is read', async () => {
    process.env.PUBLIC_URL = 'https://shanying.example.org';
    const { cookie, token } = await codeLogin('https@example.com');
    expect(cookie).toMatch(/^__Host-sy_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+; Secure$/);
    // No Domain attribute: __Host- cookies must not have one.
    expect(cookie).not.toMatch(/domain=/i);
    expect(
      (await call('GET', '/api/aweme/v1/web/user/profile/self/', { cookie: `__Host-sy_session=${token}` })).body
        .status_code,
    ).toBe(0);
    expect(
      (await call('GET', '/api/aweme/v1/web/user/profile/self/', { cookie: `sy_session=${token}` })).body.status_code,
    ).not.toBe(0);
    const out = await post('/passport/logout', {}, { token });
    expect(sessionCookie(out.headers)).toMatch(
      /^__Host-sy_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0; Secure$/,
    );
  });

  it('is __Host- and Secure behind a proxy that says https only when TRUST_PROXY is set', async () => {
    process.env.TRUST_PROXY = '1';
    const behind = await codeLogin('proxied@example.com', { headers: { 'x-forwarded-proto': 'https' } });
    expect(behind.cookie).toMatch(/^__Host-sy_session=.*; Secure$/);
    const direct = await codeLogin('proxied-http@example.com', { headers: { 'x-forwarded-proto': 'http' } });
    expect(direct.cookie).toMatch(/^sy_session=/);
  });
});

describe('session lifetimes', () => {
  it('a login ends the session the browser had before (its cookie or its Token header)', async () => {
    const first = await codeLogin('relogin@example.com');
    const second = await codeLogin('relogin@example.com', { cookie: `theme=dark; sy_session=${first.token}` });
    expect(await loggedIn(first.token)).toBe(false);
    expect(await loggedIn(second.token)).toBe(true);
    // Even a session of another account: the browser now belongs to whoever just logged in.
    const other = await codeLogin('relogin-other@example.com', { headers: { token: second.token } });
    expect(await loggedIn(second.token)).toBe(false);
    expect(await loggedIn(other.token)).toBe(true);
  });

  it(`ends a session unused for ${SESSION_IDLE_MS / DAY} days, and one opened ${SESSION_ABSOLUTE_MS / DAY} days ago however busy`, async () => {
    const idle = await codeLogin('idle@example.com');
    const where = (token: string) => eq(sessions.tokenHash, hashToken(token));
    await ctx.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - SESSION_IDLE_MS + DAY) })
      .where(where(idle.token));
    expect(await loggedIn(idle.token)).toBe(true);
    // Using it moved its last use to now: another 29 idle days later it still works.
    const [touched] = await ctx.db.select({ at: sessions.lastSeenAt }).from(sessions).where(where(idle.token));
    expect(Date.now() - touched!.at.getTime()).toBeLessThan(60_000);
    await ctx.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - SESSION_IDLE_MS - 1000) })
      .where(where(idle.token));
    expect(await loggedIn(idle.token)).toBe(false);

    const old = await codeLogin('absolute@example.com');
    const [row] = await ctx.db
      .select({ created: sessions.createdAt, expires: sessions.expiresAt })
      .from(sessions)
      .where(where(old.token));
    expect(row!.expires.getTime() - row!.created.getTime()).toBeGreaterThanOrEqual(SESSION_ABSOLUTE_MS - 60_000);
    expect(row!.expires.getTime() - row!.created.getTime()).toBeLessThanOrEqual(SESSION_ABSOLUTE_MS + 60_000);
    await ctx.db
      .update(sessions)
      .set({
        createdAt: new Date(Date.now() - SESSION_ABSOLUTE_MS),
        expiresAt: new Date(Date.now() - 1000),
        lastSeenAt: new Date(),
      })
      .where(where(old.token));
    expect(await loggedIn(old.token)).toBe(false);
  });

  it('退出所有设备 revokes every session of the user and clears this browser’s cookie', async () => {
    const a = await codeLogin('everywhere@example.com');
    const b = await codeLogin('everywhere@example.com');
    const bystander = await codeLogin('bystander@example.com');
    const out = await post('/passport/logout/all', {}, { token: a.token });
    expect(out.status).toBe(200);
    expect(out.body.revoked_sessions).toBeGreaterThanOrEqual(2);
    expect(sessionCookie(out.headers)).toMatch(/^sy_session=; .*Max-Age=0/);
    expect(await loggedIn(a.token)).toBe(false);
    expect(await loggedIn(b.token)).toBe(false);
    expect(await loggedIn(bystander.token)).toBe(true);
    const { rows } = await ctx.db.execute<{ n: number }>(
      sql`select count(*)::int as n from sessions where user_id = ${a.uid} and revoked_at is null`,
    );
    expect(rows[0]!.n).toBe(0);
    // Without a session there is nothing to log out of.
    expect((await post('/passport/logout/all', {})).status).toBe(401);
  });
});

describe('passwords', () => {
  it('refuses one of the 10,000 most common passwords and accepts a long one of letters only', async () => {
    const { token } = await codeLogin('chooser@example.com');
    for (const common of ['password', 'Password1', 'qwertyuiop', '1q2w3e4r']) {
      const res = await post('/passport/password', { next: common }, { token });
      expect(res.status, common).toBe(400);
      expect(res.body.status_msg).toBe(t('error.passwordCommon'));
    }
    const short = await post('/passport/password', { next: 'abc12' }, { token });
    expect(short.body.status_msg).toBe(t('error.passwordRule', { min: 8, max: 128 }));
    const letters = await post('/passport/password', { next: 'correcthorsebatterystaple' }, { token });
    expect(letters.status, JSON.stringify(letters.body)).toBe(200);
    expect(
      (await post('/passport/login/password', { email: 'chooser@example.com', password: 'correcthorsebatterystaple' }))
        .status,
    ).toBe(200);
  });

  it('a password locked by failed logins from everywhere never blocks the e-mailed code', async () => {
    const email = 'owner-locked@example.com';
    const { token } = await codeLogin(email);
    expect((await post('/passport/password', { next: 'owner secret phrase' }, { token })).status).toBe(200);
    // The account's limit on failed password logins, spent (as loginWithPassword counts them).
    for (let i = 0; i < PASSWORD_ACCOUNT_RATE.limit; i++)
      await hit(`pw:acct:${email}`, PASSWORD_ACCOUNT_RATE.limit, PASSWORD_ACCOUNT_RATE.windowMs);
    expect((await post('/passport/login/password', { email, password: 'owner secret phrase' })).status).toBe(429);
    const again = await codeLogin(email);
    expect(await loggedIn(again.token)).toBe(true);
  });
});
