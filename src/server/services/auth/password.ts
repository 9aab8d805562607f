/** Passwords of accounts: logging in with one, and setting or changing it. */
import { randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { db } from '../../db/client.ts';
import { sessions, users } from '../../db/schema.ts';
import { invalid, notFound, rateLimited, ServiceError } from '../../errors.ts';
import { hashPassword, verifyPassword } from '../password.ts';
import { enforce, hit, refund } from '../rate-limit.ts';
import { hashToken } from '../sessions.ts';
import { isCommonPassword } from './common-passwords.ts';
import { knownDevice } from './devices.ts';
import { ipOf, issue, normalizeEmail, perIp, viewerColumns, type AuthContext, type LoginResult } from './login.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Password login attempts per IP (scaled by `perIp`). */
export const PASSWORD_IP_RATE = { limit: 10, windowMs: 5 * MINUTE };
/** Failed password logins per (account, IP) pair, so a guesser cannot lock the owner out from elsewhere. */
export const PASSWORD_PAIR_RATE = { limit: 10, windowMs: HOUR };
/**
 * Failed password logins per account from browsers it does not know, from any address: past it, such browsers are
 * told to log in with an e-mailed code instead.
 */
export const PASSWORD_ACCOUNT_RATE = { limit: 50, windowMs: HOUR };
/**
 * Failed password logins per known browser of the account (devices.ts): its own allowance, untouched by guessing from
 * elsewhere; a stolen device cookie buys no more guesses than this.
 */
export const PASSWORD_DEVICE_RATE = { limit: 10, windowMs: HOUR };
/** Password changes tried per user: a stolen session must not become a password oracle. */
export const PASSWORD_CHANGE_RATE = { limit: 10, windowMs: HOUR };

const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;

// A well-formed hash of no password: unknown emails cost the same scrypt work as real ones, so timing tells nothing.
const DECOY_HASH = ['scrypt', 17, 8, 1, randomBytes(16).toString('base64'), randomBytes(64).toString('base64')].join(
  '$',
);

/**
 * Logs in with email and password, within PASSWORD_IP_RATE, and then PASSWORD_DEVICE_RATE from a browser that has
 * logged in to the account before (its device cookie, `ctx.deviceToken`), else PASSWORD_PAIR_RATE and
 * PASSWORD_ACCOUNT_RATE.
 */
export async function loginWithPassword(rawEmail: string, password: string, ctx: AuthContext): Promise<LoginResult> {
  const email = normalizeEmail(rawEmail);
  if (typeof password !== 'string' || password === '') throw invalid('error.passwordEmpty');
  if ([...password].length > PASSWORD_MAX) throw invalid('error.passwordTooLong', { max: PASSWORD_MAX });
  const ip = ipOf(ctx);
  await enforce(`pw:ip:${ip}`, perIp(PASSWORD_IP_RATE.limit), PASSWORD_IP_RATE.windowMs);

  const [row] = await db()
    .select({ ...viewerColumns, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  const device = row ? await knownDevice(ctx.deviceToken, row.id) : undefined;
  // Counted before checking (atomic under concurrency) and refunded on success: only failures accumulate.
  let keys: string[];
  if (device !== undefined) {
    const key = `pw:dev:${device}`;
    keys = [key];
    const own = await hit(key, PASSWORD_DEVICE_RATE.limit, PASSWORD_DEVICE_RATE.windowMs);
    if (!own.ok) throw rateLimited(own.retryAfter);
  } else {
    const pairKey = `pw:acct:${email}:${ip}`;
    const accountKey = `pw:acct:${email}`;
    keys = [pairKey, accountKey];
    const [pair, account] = await Promise.all([
      hit(pairKey, PASSWORD_PAIR_RATE.limit, PASSWORD_PAIR_RATE.windowMs),
      hit(accountKey, PASSWORD_ACCOUNT_RATE.limit, PASSWORD_ACCOUNT_RATE.windowMs),
    ]);
    const retryAfter = Math.max(pair.retryAfter, account.retryAfter);
    // The account is under guessing: the owner can still log in with an e-mailed code (or from a browser they used).
    if (!account.ok) throw new ServiceError('rate_limited', 'error.passwordLockedUseCode', undefined, { retryAfter });
    if (!pair.ok) throw rateLimited(retryAfter);
  }
  const refundAll = () => Promise.all(keys.map((key) => refund(key)));

  const matches = await verifyPassword(password, row?.passwordHash ?? DECOY_HASH).catch(async (error: unknown) => {
    // Too many hashes waiting (a burst of logins): this attempt was never checked, so it does not count as a failure.
    await refundAll();
    throw error;
  });
  if (!row || !row.passwordHash || !matches) throw new ServiceError('unauthorized', 'error.wrongPassword');
  await refundAll();
  const { passwordHash: _hash, ...user } = row;
  return issue(user, ctx, false);
}

/**
 * Sets a password (no `current` needed when the account has none) or changes it (`current` must verify).
 * Sessions are kept unless `ctx.token` is given on a change: then every other session of the user is revoked.
 */
export async function changePassword(
  userId: number,
  input: { current?: string; next: string },
  ctx?: { token?: string },
): Promise<{ revokedSessions: number }> {
  const next = typeof input.next === 'string' ? input.next : '';
  const length = [...next].length;
  // Length and the common-password list only: composition rules (a letter and a digit, ...) make passwords harder to
  // remember without making them harder to guess.
  if (length < PASSWORD_MIN || length > PASSWORD_MAX)
    throw invalid('error.passwordRule', { min: PASSWORD_MIN, max: PASSWORD_MAX });
  if (isCommonPassword(next)) throw invalid('error.passwordCommon');
  const [user] = await db()
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) throw notFound('error.userNotFound');
  if (user.passwordHash) {
    const current = typeof input.current === 'string' ? input.current : '';
    if (current === '' || [...current].length > PASSWORD_MAX)
      throw new ServiceError('forbidden', 'error.wrongCurrentPassword');
    await enforce(`pw:change:${userId}`, PASSWORD_CHANGE_RATE.limit, PASSWORD_CHANGE_RATE.windowMs);
    if (!(await verifyPassword(current, user.passwordHash)))
      throw new ServiceError('forbidden', 'error.wrongCurrentPassword');
  }
  await db()
    .update(users)
    .set({ passwordHash: await hashPassword(next) })
    .where(eq(users.id, userId));
  if (!user.passwordHash || !ctx?.token) return { revokedSessions: 0 };
  const revoked = await db()
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        sql`${sessions.tokenHash} <> ${hashToken(ctx.token)}`,
      ),
    )
    .returning({ id: sessions.id });
  return { revokedSessions: revoked.length };
}
