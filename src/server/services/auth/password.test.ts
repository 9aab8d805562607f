import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useAuthHarness } from '../../../../tests/setup/auth-harness.ts';
import { DEMO_EMAIL, demoPassword } from '../../db/demo.ts';
import { users } from '../../db/schema.ts';
import { reset } from '../rate-limit.ts';
import { resolveSession } from '../sessions.ts';
import { loginWithCode } from './codes.ts';
import { t } from '../../../i18n/t.ts';
import {
  changePassword,
  loginWithPassword,
  PASSWORD_ACCOUNT_RATE,
  PASSWORD_DEVICE_RATE,
  PASSWORD_IP_RATE,
  PASSWORD_PAIR_RATE,
} from './password.ts';

const h = useAuthHarness();
const { failure, track, mailedCode, secrets } = h;

describe('password login', () => {
  it('logs in with a token that resolves, a new token each time, case-insensitive email', async () => {
    const a = track(await loginWithPassword(DEMO_EMAIL, demoPassword(), { ip: '10.0.0.1', userAgent: 'vitest' }));
    const b = track(await loginWithPassword(' Demo@Shanying.DEV ', demoPassword(), { ip: '10.0.0.1' }));
    expect(a.token).not.toBe(b.token);
    expect(a.created).toBe(false);
    expect(a.expiresAt.getTime()).toBeGreaterThan(Date.now());
    const viewer = await resolveSession(a.token);
    expect(viewer).toEqual(a.user);
    expect((await resolveSession(b.token))?.id).toBe(a.user.id);
    // Successful logins do not count against the account.
    const { rows } = await h.t.db.execute<{ count: number }>(
      sql`select count from rate_limits where key = ${`pw:acct:${DEMO_EMAIL}`}`,
    );
    expect(rows[0]?.count ?? 0).toBe(0);
  });

  it('answers a wrong password, an unknown email and a password-less account alike', async () => {
    await h.t.db.insert(users).values({
      email: 'nopass@example.com',
      secUid: 'MS4wLjABAAAAnopass',
      nickname: '无密码',
      avatar: 'avatars/a01.webp',
    });
    const ctx = { ip: '10.0.0.2' };
    const errors = [
      await failure(loginWithPassword(DEMO_EMAIL, 'wrong-password-1', ctx)),
      await failure(loginWithPassword('ghost@example.com', 'wrong-password-1', ctx)),
      await failure(loginWithPassword('nopass@example.com', 'wrong-password-1', ctx)),
    ];
    for (const e of errors)
      expect({ kind: e.kind, key: e.key }).toEqual({ kind: 'unauthorized', key: 'error.wrongPassword' });
  });

  it('rejects an empty or overlong password before doing any work', async () => {
    expect((await failure(loginWithPassword(DEMO_EMAIL, '', { ip: '10.0.0.3' }))).key).toBe('error.passwordEmpty');
    expect((await failure(loginWithPassword(DEMO_EMAIL, 'x'.repeat(129), { ip: '10.0.0.3' }))).kind).toBe('invalid');
    expect((await failure(loginWithPassword('', 'whatever', { ip: '10.0.0.3' }))).key).toBe('login.error.emailEmpty');
  });

  it(`locks an (account, IP) pair after ${PASSWORD_PAIR_RATE.limit} failures, but the owner still gets in from another IP`, async () => {
    const attacker = { ip: '203.0.113.7' };
    const tries = await Promise.all(
      Array.from({ length: PASSWORD_PAIR_RATE.limit }, (_, i) =>
        failure(loginWithPassword(DEMO_EMAIL, `guess-${i}`, attacker)),
      ),
    );
    expect(tries.every((e) => e.kind === 'unauthorized')).toBe(true);
    const eleventh = await failure(loginWithPassword(DEMO_EMAIL, demoPassword(), attacker));
    expect(eleventh.kind).toBe('rate_limited');
    expect(eleventh.retryAfter).toBeGreaterThan(0);

    const owner = track(await loginWithPassword(DEMO_EMAIL, demoPassword(), { ip: '198.51.100.20' }));
    expect((await resolveSession(owner.token))?.id).toBe(owner.user.id);

    // After the per-IP window, the pair stays locked for its hour.
    await reset(`pw:ip:${attacker.ip}`);
    const still = await failure(loginWithPassword(DEMO_EMAIL, demoPassword(), attacker));
    expect(still.kind).toBe('rate_limited');
    expect(still.retryAfter).toBeGreaterThan(PASSWORD_IP_RATE.windowMs / 1000);
  });

  it(`limits one IP to ${PASSWORD_IP_RATE.limit} attempts in ${PASSWORD_IP_RATE.windowMs / 60_000} minutes across different accounts`, async () => {
    const ctx = { ip: '192.0.2.55' };
    const tries = await Promise.all(
      Array.from({ length: PASSWORD_IP_RATE.limit }, (_, i) =>
        failure(loginWithPassword(`user${i}@example.com`, 'nope-nope-1', ctx)),
      ),
    );
    expect(tries.every((e) => e.kind === 'unauthorized')).toBe(true);
    const eleventh = await failure(loginWithPassword('one-more@example.com', 'nope-nope-1', ctx));
    expect(eleventh.kind).toBe('rate_limited');
    expect(eleventh.retryAfter).toBeGreaterThan(0);
    expect(eleventh.retryAfter).toBeLessThanOrEqual(PASSWORD_IP_RATE.windowMs / 1000);
  });
});

describe('password changes', () => {
  it('sets a first password without `current`, then changes it only with the right one', async () => {
    await reset('code:email:');
    const email = 'changer@example.com';
    const a = track(await loginWithCode(email, await mailedCode(email, '10.3.0.2'), { ip: '10.3.0.2' }));
    await reset('code:email:');
    const b = track(await loginWithCode(email, await mailedCode(email, '10.3.0.2'), { ip: '10.3.0.2' }));
    const id = a.user.id;

    for (const bad of ['short1', '', `a1${'x'.repeat(127)}`]) {
      expect((await failure(changePassword(id, { next: bad }))).key).toBe('error.passwordRule');
    }
    // Among the 10,000 most common passwords, in any case.
    for (const common of ['12345678', 'password', 'PassWord', 'iloveyou', 'qwertyuiop', 'a1234567']) {
      expect((await failure(changePassword(id, { next: common }))).key).toBe('error.passwordCommon');
    }
    secrets.add('first-pass-1');
    expect(await changePassword(id, { next: 'first-pass-1' })).toEqual({ revokedSessions: 0 });
    const [row] = await h.t.db.select({ h: users.passwordHash }).from(users).where(eq(users.id, id));
    expect(row!.h).toMatch(/^scrypt\$17\$8\$1\$/);
    track(await loginWithPassword(email, 'first-pass-1', { ip: '10.3.0.3' }));

    expect((await failure(changePassword(id, { next: 'second-pass-2' }))).key).toBe('error.wrongCurrentPassword');
    const wrong = await failure(changePassword(id, { current: 'not-it-000', next: 'second-pass-2' }));
    expect({ kind: wrong.kind, key: wrong.key }).toEqual({ kind: 'forbidden', key: 'error.wrongCurrentPassword' });

    secrets.add('second-pass-2');
    const changed = await changePassword(id, { current: 'first-pass-1', next: 'second-pass-2' }, { token: a.token });
    expect(changed.revokedSessions).toBeGreaterThanOrEqual(2);
    expect((await resolveSession(a.token))?.id).toBe(id);
    expect(await resolveSession(b.token)).toBeNull();
  });
});

describe('guessing at an account from many addresses (device cookies)', () => {
  it("keeps the owner's browser that logged in before, and tells a new browser to use the e-mail code", async () => {
    await reset('code:email:');
    const email = 'guessed@example.com';
    const signup = track(await loginWithCode(email, await mailedCode(email, '10.4.0.1'), { ip: '10.4.0.1' }));
    secrets.add('owner-pass-4');
    await changePassword(signup.user.id, { next: 'owner-pass-4' });
    // The owner's browser logs in once: it is handed a device token (the cookie), kept only as a hash.
    const first = track(await loginWithPassword(email, 'owner-pass-4', { ip: '198.51.100.40' }));
    expect(first.deviceToken).toMatch(/^[\w-]{40,}$/);
    secrets.add(first.deviceToken);

    // The guessing: PASSWORD_ACCOUNT_RATE failures from 5 addresses (within each pair's own limit) lock the account.
    const per = PASSWORD_ACCOUNT_RATE.limit / 5;
    for (let a = 0; a < 5; a++) {
      const tries = await Promise.all(
        Array.from({ length: per }, (_, i) =>
          failure(loginWithPassword(email, `guess-${a}-${i}`, { ip: `203.0.113.${a + 10}` })),
        ),
      );
      expect(tries.map((e) => e.kind)).toEqual(tries.map(() => 'unauthorized'));
    }

    // A new browser, even with the right password and from a fresh address, is told that the e-mail code still works.
    const stranger = await failure(loginWithPassword(email, 'owner-pass-4', { ip: '198.51.100.41' }));
    expect({ kind: stranger.kind, key: stranger.key }).toEqual({
      kind: 'rate_limited',
      key: 'error.passwordLockedUseCode',
    });
    expect(t(stranger.key)).toContain('验证码登录');
    expect(stranger.retryAfter).toBeGreaterThan(0);
    // A made-up device token, or one of another account, is a new browser.
    const forged = await failure(
      loginWithPassword(email, 'owner-pass-4', { ip: '198.51.100.42', deviceToken: 'x'.repeat(43) }),
    );
    expect(forged.key).toBe('error.passwordLockedUseCode');
    const other = track(await loginWithPassword(DEMO_EMAIL, demoPassword(), { ip: '198.51.100.43' }));
    secrets.add(other.deviceToken);
    const elsewhere = await failure(
      loginWithPassword(email, 'owner-pass-4', { ip: '198.51.100.43', deviceToken: other.deviceToken }),
    );
    expect(elsewhere.key).toBe('error.passwordLockedUseCode');

    // The owner's browser gets in, from its address or another, and keeps its device token.
    const again = track(
      await loginWithPassword(email, 'owner-pass-4', { ip: '198.51.100.44', deviceToken: first.deviceToken }),
    );
    expect((await resolveSession(again.token))?.id).toBe(signup.user.id);
    expect(again.deviceToken).toBe(first.deviceToken);

    // Its own allowance: guessing with a stolen device cookie stops after PASSWORD_DEVICE_RATE failures.
    const stolen = (i: number) => ({ ip: `198.51.100.${50 + i}`, deviceToken: first.deviceToken });
    for (let i = 0; i < PASSWORD_DEVICE_RATE.limit; i++)
      expect((await failure(loginWithPassword(email, `device-guess-${i}`, stolen(i)))).kind).toBe('unauthorized');
    const locked = await failure(loginWithPassword(email, 'owner-pass-4', stolen(PASSWORD_DEVICE_RATE.limit)));
    expect(locked.kind).toBe('rate_limited');
  }, 120_000);
});

describe('secrets at rest and in logs', () => {
  it('keeps every password and token out of every table and every log line', async () => {
    secrets.add(demoPassword());
    await h.expectSecretsKept({ secrets: 9, codes: 2, sessions: 6 });
  });
});
