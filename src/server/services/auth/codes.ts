/** Logging in with a 6-digit code mailed to the address; the first code login of an address creates its account. */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { db } from '../../db/client.ts';
import { loginCodes } from '../../db/schema.ts';
import { invalid, ServiceError } from '../../errors.ts';
import { sendLoginCode } from '../mailer.ts';
import { enforce } from '../rate-limit.ts';
import { findOrCreateUser } from './accounts.ts';
import { ipOf, issue, normalizeEmail, perIp, sometimes, type AuthContext, type LoginResult } from './login.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Login codes requested per IP (scaled by `perIp`). */
export const CODE_IP_RATE = { limit: 30, windowMs: HOUR };
/** Login codes requested per (address, IP) pair: one a minute, the dialog's 60 s countdown. */
export const CODE_EMAIL_RATE = { limit: 1, windowMs: MINUTE };
/** Login codes requested per (address, IP) pair per day. */
export const CODE_DAILY_RATE = { limit: 20, windowMs: DAY };
/** Code logins tried per IP (scaled by `perIp`). */
export const CODE_VERIFY_IP_RATE = { limit: 30, windowMs: 10 * MINUTE };

const CODE_TTL_MS = 10 * MINUTE;
const CODE_TRIES = 5;

function hashCode(email: string, code: string, salt: string): string {
  return createHash('sha256').update(`${salt}:${email}:${code}`).digest('hex');
}

// Stored as `sha256$<salt>$<hex>`: a per-row salt stops one table of all 10^6 codes from reading every row.
function codeMatches(stored: string, email: string, code: string): boolean {
  const [scheme, salt, hex] = stored.split('$');
  if (scheme !== 'sha256' || !salt || !hex) return false;
  const expected = Buffer.from(hex, 'hex');
  const actual = Buffer.from(hashCode(email, code, salt), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Emails a fresh 6-digit code (10 minutes, 5 tries); earlier codes for the email stop working. */
export async function requestLoginCode(rawEmail: string, ctx: AuthContext): Promise<{ retryAfter: number }> {
  const email = normalizeEmail(rawEmail);
  const ip = ipOf(ctx);
  await enforce(`code:ip:${ip}`, perIp(CODE_IP_RATE.limit), CODE_IP_RATE.windowMs);
  // Per address and IP, never per address alone: the code login is how an owner gets in when the password is locked
  // or forgotten, and a stranger who knows the address must not be able to spend the owner's quota from elsewhere.
  await enforce(`code:email:${email}:${ip}`, CODE_EMAIL_RATE.limit, CODE_EMAIL_RATE.windowMs);
  await enforce(`code:day:${email}:${ip}`, CODE_DAILY_RATE.limit, CODE_DAILY_RATE.windowMs);

  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const salt = randomBytes(12).toString('base64url');
  await db().transaction(async (tx) => {
    await tx
      .update(loginCodes)
      .set({ expiresAt: sql`least(${loginCodes.expiresAt}, now())` })
      .where(and(eq(loginCodes.email, email), isNull(loginCodes.consumedAt), gt(loginCodes.expiresAt, sql`now()`)));
    await tx.insert(loginCodes).values({
      email,
      codeHash: `sha256$${salt}$${hashCode(email, code, salt)}`,
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
    });
  });
  await sometimes(() =>
    db()
      .delete(loginCodes)
      .where(sql`${loginCodes.expiresAt} < now() - interval '1 day'`),
  );
  await sendLoginCode(email, code, CODE_TTL_MS / MINUTE);
  return { retryAfter: CODE_EMAIL_RATE.windowMs / 1000 };
}

/** Logs in with an emailed code; the first code login of an email creates its account (`created: true`). */
export async function loginWithCode(rawEmail: string, rawCode: string, ctx: AuthContext): Promise<LoginResult> {
  const email = await consumeLoginCode(rawEmail, rawCode, ctx);
  const { user, created } = await findOrCreateUser(email);
  return issue(user, ctx, created);
}

/**
 * Checks an emailed code and uses it up (5 tries per code, CODE_VERIFY_IP_RATE per address); the normalised e-mail
 * address on success. A login, the staff console's re-authentication and 注销账号 all prove who they are with it.
 */
export async function consumeLoginCode(rawEmail: string, rawCode: string, ctx: AuthContext): Promise<string> {
  const email = normalizeEmail(rawEmail);
  const code = typeof rawCode === 'string' ? rawCode.trim() : '';
  if (!/^\d{6}$/.test(code)) throw invalid('error.codeFormat');
  await enforce(`code:verify:ip:${ipOf(ctx)}`, perIp(CODE_VERIFY_IP_RATE.limit), CODE_VERIFY_IP_RATE.windowMs);

  // Counting the try in the same statement that picks the code: parallel guesses cannot exceed 5.
  const { rows } = await db().execute<{ id: number; code_hash: string }>(sql`
    update login_codes set attempts = attempts + 1
    where id = (
      select id from login_codes
      where email = ${email} and consumed_at is null and expires_at > now()
      order by created_at desc, id desc limit 1
    ) and attempts < ${CODE_TRIES}
    returning id, code_hash`);
  const row = rows[0];
  if (!row || !codeMatches(row.code_hash, email, code)) throw new ServiceError('unauthorized', 'error.wrongCode');
  const consumed = await db()
    .update(loginCodes)
    .set({ consumedAt: new Date() })
    .where(and(eq(loginCodes.id, row.id), isNull(loginCodes.consumedAt)))
    .returning({ id: loginCodes.id });
  if (consumed.length === 0) throw new ServiceError('unauthorized', 'error.wrongCode');
  return email;
}
