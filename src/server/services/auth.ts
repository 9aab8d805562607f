/** Logging in: password, emailed code and QR ticket, each ending in a session token; plus logout and password changes. */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { encode } from 'uqr';
import { z } from 'zod';
import { t } from '../../i18n/t.ts';
import { db } from '../db/client.ts';
import { DEMO_EMAIL, demoPassword } from '../db/demo.ts';
import { loginCodes, qrTickets, sessions, users } from '../db/schema.ts';
import { invalid, notFound, rateLimited, ServiceError } from './errors.ts';
import { sendLoginCode } from './mailer.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { enforce, hit, refund } from './rate-limit.ts';
import { createSession, hashToken, revokeSession, type Viewer } from './sessions.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Password login attempts per IP (scaled by `perIp`). */
export const PASSWORD_IP_RATE = { limit: 10, windowMs: 5 * MINUTE };
/** Failed password logins per (account, IP) pair, so a guesser cannot lock the owner out from elsewhere. */
export const PASSWORD_PAIR_RATE = { limit: 10, windowMs: HOUR };
/** Failed password logins per account, from any address. */
export const PASSWORD_ACCOUNT_RATE = { limit: 50, windowMs: HOUR };
/** Login codes requested per IP (scaled by `perIp`). */
export const CODE_IP_RATE = { limit: 30, windowMs: HOUR };
/** Login codes requested per address: one a minute, the dialog's 60 s countdown. */
export const CODE_EMAIL_RATE = { limit: 1, windowMs: MINUTE };
/** Login codes requested per address per day. */
export const CODE_DAILY_RATE = { limit: 20, windowMs: DAY };
/** Code logins tried per IP (scaled by `perIp`). */
export const CODE_VERIFY_IP_RATE = { limit: 30, windowMs: 10 * MINUTE };
/** QR tickets opened per IP (scaled by `perIp`). */
export const QR_CREATE_RATE = { limit: 60, windowMs: 10 * MINUTE };
/** Status polls per QR ticket. */
export const QR_POLL_RATE = { limit: 200, windowMs: 10 * MINUTE };
/** QR tickets scanned per logged-in user. */
export const QR_SCAN_RATE = { limit: 60, windowMs: 10 * MINUTE };
/** QR tickets confirmed per logged-in user. */
export const QR_CONFIRM_RATE = { limit: 20, windowMs: 10 * MINUTE };
/** Password changes tried per user: a stolen session must not become a password oracle. */
export const PASSWORD_CHANGE_RATE = { limit: 10, windowMs: HOUR };

/**
 * Per-IP limits scaled by RATE_LIMIT_IP_FACTOR (default 1): many honest users may share one address (a campus NAT,
 * or the end-to-end suite's browsers on 127.0.0.1). Per-account limits never scale.
 */
function perIp(limit: number): number {
  const factor = Number(process.env.RATE_LIMIT_IP_FACTOR ?? 1);
  return Number.isFinite(factor) && factor >= 1 ? Math.floor(limit * factor) : limit;
}

export interface AuthContext {
  ip: string;
  userAgent?: string;
}

export interface LoginResult {
  token: string;
  expiresAt: Date;
  user: Viewer;
  /** True when this login created the account (first code login). */
  created: boolean;
}

export type QrState = 'pending' | 'scanned' | 'confirmed' | 'expired';

const PASSWORD_MAX = 128;
const CODE_TTL_MS = 10 * MINUTE;
const CODE_TRIES = 5;
const QR_TTL_MS = 2 * MINUTE;
const SEC_UID_PREFIX = 'MS4wLjABAAAA';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
// media/manifest.json ships avatars/a01.webp … a24.webp (auth.test.ts checks it).
const DEFAULT_AVATARS = 24;
const CLEANUP_CHANCE = 0.01;

// A well-formed hash of no password: unknown emails cost the same scrypt work as real ones, so timing tells nothing.
const DECOY_HASH = ['scrypt', 17, 8, 1, randomBytes(16).toString('base64'), randomBytes(64).toString('base64')].join('$');

const emailSchema = z.email().max(254);

/** Trims and lowercases an email; throws `invalid` when it is empty or not an email. */
export function normalizeEmail(raw: unknown): string {
  const email = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  if (email === '') throw invalid('login.error.emailEmpty');
  if (!emailSchema.safeParse(email).success) throw invalid('error.emailInvalid');
  return email;
}

function ipOf(ctx: AuthContext): string {
  return ctx.ip || 'unknown';
}

function sometimes(task: () => Promise<unknown>): Promise<unknown> {
  return Math.random() < CLEANUP_CHANCE ? task() : Promise.resolve();
}

async function issue(user: Viewer, ctx: AuthContext | undefined, created: boolean): Promise<LoginResult> {
  const { token, expiresAt } = await createSession(user.id, ctx?.userAgent);
  return { token, expiresAt, user, created };
}

const viewerColumns = { id: users.id, secUid: users.secUid, nickname: users.nickname, avatar: users.avatar };

// ---------------------------------------------------------------------------------------------- password

/**
 * Logs in with email and password, within PASSWORD_IP_RATE, PASSWORD_PAIR_RATE and PASSWORD_ACCOUNT_RATE.
 */
export async function loginWithPassword(rawEmail: string, password: string, ctx: AuthContext): Promise<LoginResult> {
  const email = normalizeEmail(rawEmail);
  if (typeof password !== 'string' || password === '') throw invalid('error.passwordEmpty');
  if ([...password].length > PASSWORD_MAX) throw invalid('error.passwordTooLong', { max: PASSWORD_MAX });
  const ip = ipOf(ctx);
  await enforce(`pw:ip:${ip}`, perIp(PASSWORD_IP_RATE.limit), PASSWORD_IP_RATE.windowMs);
  const pairKey = `pw:acct:${email}:${ip}`;
  const accountKey = `pw:acct:${email}`;
  // Counted before checking (atomic under concurrency) and refunded on success: only failures accumulate.
  const [pair, account] = await Promise.all([
    hit(pairKey, PASSWORD_PAIR_RATE.limit, PASSWORD_PAIR_RATE.windowMs),
    hit(accountKey, PASSWORD_ACCOUNT_RATE.limit, PASSWORD_ACCOUNT_RATE.windowMs),
  ]);
  if (!pair.ok || !account.ok) throw rateLimited(Math.max(pair.retryAfter, account.retryAfter));

  const [row] = await db()
    .select({ ...viewerColumns, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.email, email))
    .limit(1);
  const matches = await verifyPassword(password, row?.passwordHash ?? DECOY_HASH);
  if (!row || !row.passwordHash || !matches) throw new ServiceError('unauthorized', 'error.wrongPassword');
  await Promise.all([refund(pairKey), refund(accountKey)]);
  const { passwordHash: _hash, ...user } = row;
  return issue(user, ctx, false);
}

// ---------------------------------------------------------------------------------------------- emailed code

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
  await enforce(`code:ip:${ipOf(ctx)}`, perIp(CODE_IP_RATE.limit), CODE_IP_RATE.windowMs);
  await enforce(`code:email:${email}`, CODE_EMAIL_RATE.limit, CODE_EMAIL_RATE.windowMs);
  await enforce(`code:day:${email}`, CODE_DAILY_RATE.limit, CODE_DAILY_RATE.windowMs);

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
  await sometimes(() => db().delete(loginCodes).where(sql`${loginCodes.expiresAt} < now() - interval '1 day'`));
  await sendLoginCode(email, code, CODE_TTL_MS / MINUTE);
  return { retryAfter: CODE_EMAIL_RATE.windowMs / 1000 };
}

function randomSecUid(): string {
  const bytes = randomBytes(40);
  return SEC_UID_PREFIX + Array.from(bytes, (b) => URL_SAFE[b & 63]).join('');
}

function defaultAvatar(email: string): string {
  const n = createHash('sha256').update(email).digest().readUInt32BE(0) % DEFAULT_AVATARS;
  return `avatars/a${String(n + 1).padStart(2, '0')}.webp`;
}

async function findOrCreateUser(email: string): Promise<{ user: Viewer; created: boolean }> {
  const existing = await db().select(viewerColumns).from(users).where(eq(users.email, email)).limit(1);
  if (existing[0]) return { user: existing[0], created: false };
  const inserted = await db()
    .insert(users)
    .values({
      email,
      secUid: randomSecUid(),
      nickname: `用户${String(randomInt(0, 1_000_000)).padStart(6, '0')}`,
      avatar: defaultAvatar(email),
    })
    .onConflictDoNothing({ target: users.email })
    .returning(viewerColumns);
  if (inserted[0]) return { user: inserted[0], created: true };
  // Another request created it between our read and insert.
  const [raced] = await db().select(viewerColumns).from(users).where(eq(users.email, email)).limit(1);
  return { user: raced!, created: false };
}

/** Logs in with an emailed code; the first code login of an email creates its account (`created: true`). */
export async function loginWithCode(rawEmail: string, rawCode: string, ctx: AuthContext): Promise<LoginResult> {
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

  const { user, created } = await findOrCreateUser(email);
  return issue(user, ctx, created);
}

// ---------------------------------------------------------------------------------------------- QR ticket

const TICKET = /^[\w-]{43}$/;

async function findTicket(ticket: string) {
  if (typeof ticket !== 'string' || !TICKET.test(ticket)) throw notFound('error.qrNotFound');
  const hash = hashToken(ticket);
  const [row] = await db()
    .select({
      id: qrTickets.id,
      status: qrTickets.status,
      userId: qrTickets.userId,
      live: sql<boolean>`${qrTickets.expiresAt} > now()`,
    })
    .from(qrTickets)
    .where(eq(qrTickets.ticketHash, hash))
    .limit(1);
  if (!row) throw notFound('error.qrNotFound');
  return { ...row, hash, gone: !row.live || row.status === 'consumed' || row.status === 'expired' };
}

/** Opens a QR login ticket for the login dialog: a random 256-bit secret stored only as its hash, live 2 minutes. */
export async function createQrTicket(ctx?: AuthContext): Promise<{ ticket: string; expiresAt: Date }> {
  if (ctx) await enforce(`qr:new:${ipOf(ctx)}`, perIp(QR_CREATE_RATE.limit), QR_CREATE_RATE.windowMs);
  const ticket = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + QR_TTL_MS);
  await db().insert(qrTickets).values({ ticketHash: hashToken(ticket), expiresAt });
  await sometimes(() => db().delete(qrTickets).where(sql`${qrTickets.expiresAt} < now() - interval '1 hour'`));
  return { ticket, expiresAt };
}

/**
 * The dialog's poll. Once confirmed, the first call opens the session for the dialog's browser, consumes the
 * ticket and answers `login`; later calls answer 'expired'. Unknown tickets throw `not_found`.
 */
export async function qrStatus(ticket: string, ctx?: AuthContext): Promise<{ status: QrState; login?: LoginResult }> {
  const row = await findTicket(ticket);
  // Keyed by the hash: the ticket itself never reaches the database.
  await enforce(`qr:poll:${row.hash.slice(0, 32)}`, QR_POLL_RATE.limit, QR_POLL_RATE.windowMs);
  if (row.gone) return { status: 'expired' };
  if (row.status === 'pending' || row.status === 'scanned') return { status: row.status };
  const [taken] = await db()
    .update(qrTickets)
    .set({ status: 'consumed' })
    .where(and(eq(qrTickets.id, row.id), eq(qrTickets.status, 'confirmed')))
    .returning({ userId: qrTickets.userId });
  if (!taken?.userId) return { status: 'expired' };
  const [user] = await db().select(viewerColumns).from(users).where(eq(users.id, taken.userId)).limit(1);
  if (!user) return { status: 'expired' };
  return { status: 'confirmed', login: await issue(user, ctx, false) };
}

/** The logged-in viewer opened the ticket's URL: the dialog shows 'scanned'. Gone tickets throw `conflict`. */
export async function scanQrTicket(ticket: string, viewerId: number): Promise<{ status: 'scanned' | 'confirmed' }> {
  await enforce(`qr:scan:${viewerId}`, QR_SCAN_RATE.limit, QR_SCAN_RATE.windowMs);
  const row = await findTicket(ticket);
  if (row.gone) throw new ServiceError('conflict', 'error.qrExpired');
  if (row.status === 'confirmed') return { status: 'confirmed' };
  await db()
    .update(qrTickets)
    .set({ status: 'scanned' })
    .where(and(eq(qrTickets.id, row.id), eq(qrTickets.status, 'pending')));
  return { status: 'scanned' };
}

/** The viewer confirmed on their logged-in device: the dialog's next poll logs in as the viewer. */
export async function confirmQrTicket(ticket: string, viewerId: number): Promise<void> {
  await enforce(`qr:confirm:${viewerId}`, QR_CONFIRM_RATE.limit, QR_CONFIRM_RATE.windowMs);
  const row = await findTicket(ticket);
  if (row.gone) throw new ServiceError('conflict', 'error.qrExpired');
  const done = await db()
    .update(qrTickets)
    .set({ status: 'confirmed', userId: viewerId })
    .where(and(eq(qrTickets.id, row.id), sql`${qrTickets.status} in ('pending', 'scanned')`, gt(qrTickets.expiresAt, sql`now()`)))
    .returning({ id: qrTickets.id });
  if (done.length === 0) throw new ServiceError('conflict', 'error.qrExpired');
}

/** Withdraws a ticket (dialog closed, or 取消 on the confirming device); gone tickets are left as they are. */
export async function cancelQrTicket(ticket: string): Promise<void> {
  const row = await findTicket(ticket);
  await db()
    .update(qrTickets)
    .set({ status: 'expired' })
    .where(and(eq(qrTickets.id, row.id), sql`${qrTickets.status} in ('pending', 'scanned', 'confirmed')`));
}

/** A QR code of `url` as an SVG string (dark modules #161823 on white, 4-module quiet zone). */
export function qrSvg(url: string, label = t('login.qr.image')): string {
  if (typeof url !== 'string' || url === '' || url.length > 2000) throw invalid('error.qrContent');
  const { data, size } = encode(url, { ecc: 'M', border: 4 });
  // One path of horizontal runs keeps the SVG small (a 43-char ticket URL: ~2 KB).
  let d = '';
  data.forEach((line, y) => {
    for (let x = 0; x < size; x++) {
      if (!line[x]) continue;
      let run = 1;
      while (x + run < size && line[x + run]) run++;
      d += `M${x} ${y}h${run}v1h-${run}z`;
      x += run;
    }
  });
  const escaped = label.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" role="img" aria-label="${escaped}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path fill="#161823" d="${d}"/></svg>`
  );
}

// ---------------------------------------------------------------------------------------------- account

/** Logs out: the token stops working on every server at once. */
export async function logout(token: string): Promise<void> {
  if (typeof token === 'string' && token !== '' && token.length <= 100) await revokeSession(token);
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
  if (length < 8 || length > PASSWORD_MAX || !/\p{L}/u.test(next) || !/[0-9]/.test(next)) throw invalid('error.passwordRule');
  const [user] = await db().select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).limit(1);
  if (!user) throw notFound('error.userNotFound');
  if (user.passwordHash) {
    const current = typeof input.current === 'string' ? input.current : '';
    if (current === '' || [...current].length > PASSWORD_MAX) throw new ServiceError('forbidden', 'error.wrongCurrentPassword');
    await enforce(`pw:change:${userId}`, PASSWORD_CHANGE_RATE.limit, PASSWORD_CHANGE_RATE.windowMs);
    if (!(await verifyPassword(current, user.passwordHash))) throw new ServiceError('forbidden', 'error.wrongCurrentPassword');
  }
  await db().update(users).set({ passwordHash: await hashPassword(next) }).where(eq(users.id, userId));
  if (!user.passwordHash || !ctx?.token) return { revokedSessions: 0 };
  const revoked = await db()
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), sql`${sessions.tokenHash} <> ${hashToken(ctx.token)}`))
    .returning({ id: sessions.id });
  return { revokedSessions: revoked.length };
}

let demoCheck: { key: string; ok: boolean } | undefined;

/** The demo account's credentials for the login dialog, while it exists and still has the seeded password; else null. */
export async function demoCredentials(): Promise<{ email: string; password: string } | null> {
  const [row] = await db()
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.email, DEMO_EMAIL), eq(users.isDemo, true)))
    .limit(1);
  if (!row?.passwordHash) return null;
  const password = demoPassword();
  // One scrypt per stored hash: a changed password changes the hash and is checked afresh.
  const key = `${row.passwordHash}\n${password}`;
  if (demoCheck?.key !== key) demoCheck = { key, ok: await verifyPassword(password, row.passwordHash) };
  return demoCheck.ok ? { email: DEMO_EMAIL, password } : null;
}

