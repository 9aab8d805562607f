import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useAuthHarness } from '../../../../tests/setup/auth-harness.ts';
import { loginCodes, users } from '../../db/schema.ts';
import { hit, reset } from '../rate-limit.ts';
import { resolveSession } from '../sessions.ts';
import { changePassword, loginWithPassword, PASSWORD_ACCOUNT_RATE } from './password.ts';
import {
  CODE_DAILY_RATE,
  CODE_EMAIL_RATE,
  CODE_IP_RATE,
  CODE_VERIFY_IP_RATE,
  loginWithCode,
  requestLoginCode,
} from './codes.ts';

const h = useAuthHarness();
const { failure, track, mailedCode, secrets } = h;

const other = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe('code login', () => {
  const email = 'Newcomer@Example.com';

  it('creates the account on the first code login and reuses it later', async () => {
    const code = await mailedCode(email, '10.1.0.1');
    const first = track(await loginWithCode(email, code, { ip: '10.1.0.1', userAgent: 'vitest' }));
    expect(first.created).toBe(true);
    expect(first.user.nickname).toMatch(/^用户\d{6}$/);
    expect(first.user.avatar).toMatch(/^avatars\/a(0[1-9]|1\d|2[0-4])\.webp$/);
    expect(first.user.secUid).toMatch(/^MS4wLjABAAAA[\w-]{40}$/);
    expect((await resolveSession(first.token))?.id).toBe(first.user.id);
    const [row] = await h.t.db.select().from(users).where(eq(users.id, first.user.id));
    expect(row!.email).toBe('newcomer@example.com');
    expect(row!.passwordHash).toBeNull();

    // A used code does not work twice.
    expect((await failure(loginWithCode(email, code, { ip: '10.1.0.1' }))).key).toBe('error.wrongCode');

    await reset('code:email:');
    const second = track(await loginWithCode(email, await mailedCode(email, '10.1.0.1'), { ip: '10.1.0.1' }));
    expect(second.created).toBe(false);
    expect(second.user.id).toBe(first.user.id);
    expect(second.token).not.toBe(first.token);
  });

  it('allows one request per 60 s per email and IP; another IP is not held back by it', async () => {
    await reset('code:email:');
    await mailedCode('sixty@example.com', '10.1.0.2');
    const again = await failure(requestLoginCode('SIXTY@example.com', { ip: '10.1.0.2' }));
    expect(again.kind).toBe('rate_limited');
    expect(again.retryAfter).toBeGreaterThan(0);
    expect(again.retryAfter).toBeLessThanOrEqual(CODE_EMAIL_RATE.windowMs / 1000);
    expect(await requestLoginCode('sixty@example.com', { ip: '10.1.0.99' })).toEqual({
      retryAfter: CODE_EMAIL_RATE.windowMs / 1000,
    });
  });

  it(`allows ${CODE_DAILY_RATE.limit} requests per day per email and IP and ${CODE_IP_RATE.limit} per hour per IP`, async () => {
    for (let i = 0; i < CODE_DAILY_RATE.limit; i++) {
      await reset('code:email:');
      await requestLoginCode('daily@example.com', { ip: '10.1.1.1' });
    }
    await reset('code:email:');
    const day = await failure(requestLoginCode('daily@example.com', { ip: '10.1.1.1' }));
    expect(day.kind).toBe('rate_limited');
    expect(day.retryAfter).toBeGreaterThan(3600);

    // 10.1.1.1 has spent CODE_DAILY_RATE.limit + 1 of its CODE_IP_RATE.limit above.
    for (let i = CODE_DAILY_RATE.limit + 1; i < CODE_IP_RATE.limit; i++)
      await requestLoginCode(`spray${i}@example.com`, { ip: '10.1.1.1' });
    expect((await failure(requestLoginCode('spray-last@example.com', { ip: '10.1.1.1' }))).kind).toBe('rate_limited');
  });

  it('never locks the owner out: after a stranger spent the password and code limits of the account, the owner logs in with a code', async () => {
    const owner = 'locked-owner@example.com';
    await loginWithCode(owner, await mailedCode(owner, '10.1.2.1'), { ip: '10.1.2.1' });
    await changePassword((await h.t.db.select().from(users).where(eq(users.email, owner)))[0]!.id, {
      next: 'owner-long-passphrase',
    });
    secrets.add('owner-long-passphrase');
    // Wrong passwords from many addresses until the account itself refuses password logins (counted as
    // loginWithPassword counts them: one scrypt per guess would make this test slow for nothing).
    for (let i = 0; i < PASSWORD_ACCOUNT_RATE.limit; i++)
      await hit(`pw:acct:${owner}`, PASSWORD_ACCOUNT_RATE.limit, PASSWORD_ACCOUNT_RATE.windowMs);
    expect((await failure(loginWithPassword(owner, 'owner-long-passphrase', { ip: '10.1.2.1' }))).kind).toBe(
      'rate_limited',
    );
    // A stranger asks for the address's codes all day long.
    const stranger = { ip: '203.0.113.50' };
    for (let i = 0; i < CODE_DAILY_RATE.limit; i++) {
      await reset(`code:email:${owner}:${stranger.ip}`);
      await requestLoginCode(owner, stranger);
    }
    expect((await failure(requestLoginCode(owner, stranger))).kind).toBe('rate_limited');

    await reset(`code:email:${owner}:10.1.2.1`);
    const login = track(await loginWithCode(owner, await mailedCode(owner, '10.1.2.1'), { ip: '10.1.2.1' }));
    expect((await resolveSession(login.token))?.id).toBe(login.user.id);
  });

  it('keeps only the newest code valid', async () => {
    await reset('code:email:');
    const older = await mailedCode('twice@example.com', '10.1.0.3');
    await reset('code:email:');
    const newer = await mailedCode('twice@example.com', '10.1.0.3');
    if (older !== newer)
      expect((await failure(loginWithCode('twice@example.com', older, { ip: '10.1.0.3' }))).kind).toBe('unauthorized');
    expect((await loginWithCode('twice@example.com', newer, { ip: '10.1.0.3' })).created).toBe(true);
  });

  it('fails the 6th try even with the right code', async () => {
    await reset('code:email:');
    const code = await mailedCode('tries@example.com', '10.1.0.4');
    for (let i = 0; i < 5; i++) {
      expect((await failure(loginWithCode('tries@example.com', other(code), { ip: '10.1.0.4' }))).key).toBe(
        'error.wrongCode',
      );
    }
    expect((await failure(loginWithCode('tries@example.com', code, { ip: '10.1.0.4' }))).kind).toBe('unauthorized');
    const [row] = await h.t.db.select().from(loginCodes).where(eq(loginCodes.email, 'tries@example.com'));
    expect(row!.attempts).toBe(5);
  });

  it('accepts the right code within 5 tries, and never counts beyond 5 under parallel guesses', async () => {
    await reset('code:email:');
    const code = await mailedCode('parallel@example.com', '10.1.0.5');
    await Promise.all(
      Array.from({ length: 8 }, () =>
        loginWithCode('parallel@example.com', other(code), { ip: '10.1.0.5' }).catch(() => null),
      ),
    );
    const [row] = await h.t.db.select().from(loginCodes).where(eq(loginCodes.email, 'parallel@example.com'));
    expect(row!.attempts).toBe(5);

    await reset('code:email:');
    const fresh = await mailedCode('parallel@example.com', '10.1.0.5');
    await failure(loginWithCode('parallel@example.com', other(fresh), { ip: '10.1.0.6' }));
    expect((await loginWithCode('parallel@example.com', fresh, { ip: '10.1.0.6' })).user.id).toBeGreaterThan(0);
  });

  it('refuses an expired code', async () => {
    await reset('code:email:');
    const code = await mailedCode('late@example.com', '10.1.0.7');
    await h.t.db
      .update(loginCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(loginCodes.email, 'late@example.com'));
    expect((await failure(loginWithCode('late@example.com', code, { ip: '10.1.0.7' }))).key).toBe('error.wrongCode');
  });

  it('validates the code format and bounds verification per IP', async () => {
    for (const bad of ['12345', '1234567', 'abcdef', '']) {
      expect((await failure(loginWithCode('x@example.com', bad, { ip: '10.1.0.8' }))).key).toBe('error.codeFormat');
    }
    const ctx = { ip: '10.1.0.9' };
    for (let i = 0; i < CODE_VERIFY_IP_RATE.limit; i++)
      await failure(loginWithCode('nobody@example.com', '000000', ctx));
    expect((await failure(loginWithCode('nobody@example.com', '000000', ctx))).kind).toBe('rate_limited');
  });
});

describe('secrets at rest and in logs', () => {
  it('keeps every code and token out of every table and every log line', async () => {
    await h.expectSecretsKept({ secrets: 2, codes: 6, sessions: 2 });
  });
});
