/**
 * Sessions: random 256-bit tokens given to the client, stored only as SHA-256 hashes. A session ends when it is
 * revoked (logout, a new login in the same browser, 退出所有设备, a password change), after SESSION_IDLE_MS without
 * use, or SESSION_ABSOLUTE_MS after the login that opened it, whichever comes first.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';

const DAY = 86_400_000;
/** A session unused this long ends (idle timeout). */
export const SESSION_IDLE_MS = 30 * DAY;
/** A session ends this long after its login, however often it is used (absolute lifetime). */
export const SESSION_ABSOLUTE_MS = 180 * DAY;
// Last use is recorded at most this often: a write per request would cost every page view a row update.
const TOUCH_EVERY_MS = 60 * 60_000;

export interface Viewer {
  id: number;
  secUid: string;
  nickname: string;
  avatar: string;
}

/** Hash under which a token is stored; the token itself never reaches the database. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function plausible(token: string | undefined | null): token is string {
  return typeof token === 'string' && token !== '' && token.length <= 100;
}

/** Opens a session for a user and returns its token; `expiresAt` is its absolute end. */
export async function createSession(userId: number, userAgent?: string): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_ABSOLUTE_MS);
  await db()
    .insert(sessions)
    .values({ userId, tokenHash: hashToken(token), expiresAt, userAgent: userAgent?.slice(0, 300) });
  return { token, expiresAt };
}

/** The condition that a stored session is live: not revoked, not past its end, not idle too long. */
function live(): SQL {
  return and(
    isNull(sessions.revokedAt),
    gt(sessions.expiresAt, sql`now()`),
    gt(sessions.lastSeenAt, sql`now() - ${`${SESSION_IDLE_MS} milliseconds`}::interval`),
  )!;
}

/** The live session of a token: its id, its user, and how many ms ago its holder last proved who they are; or null. */
export async function sessionFacts(
  token: string | undefined | null,
): Promise<{ sessionId: number; userId: number; authenticatedMsAgo: number } | null> {
  if (!plausible(token)) return null;
  const [row] = await db()
    .select({
      sessionId: sessions.id,
      userId: sessions.userId,
      authenticatedMsAgo: sql<number>`(extract(epoch from now() - ${sessions.authenticatedAt}) * 1000)::float8`,
    })
    .from(sessions)
    .where(and(eq(sessions.tokenHash, hashToken(token)), live()));
  return row ? { ...row, authenticatedMsAgo: Number(row.authenticatedMsAgo) } : null;
}

/** Records that the holder of a session proved who they are again (a password or code entered for staff work). */
export async function markAuthenticated(sessionId: number): Promise<void> {
  await db()
    .update(sessions)
    .set({ authenticatedAt: sql`now()` })
    .where(eq(sessions.id, sessionId));
}

/** The user behind a live token (not revoked, not idle too long, not past its end), or null; records its use. */
export async function resolveSession(token: string | undefined | null): Promise<Viewer | null> {
  if (!plausible(token)) return null;
  const [row] = await db()
    .select({
      id: users.id,
      secUid: users.secUid,
      nickname: users.nickname,
      avatar: users.avatar,
      sessionId: sessions.id,
      stale: sql<boolean>`${sessions.lastSeenAt} < now() - ${`${TOUCH_EVERY_MS} milliseconds`}::interval`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), live()));
  if (!row) return null;
  const { sessionId, stale, ...viewer } = row;
  if (stale)
    await db()
      .update(sessions)
      .set({ lastSeenAt: sql`now()` })
      .where(eq(sessions.id, sessionId));
  return viewer;
}

/** Revokes a token server-side (logout, or the browser's previous session at a new login). */
export async function revokeSession(token: string | undefined | null): Promise<void> {
  if (!plausible(token)) return;
  await db()
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt)));
}

/** Revokes every live session of a user (退出所有设备); returns how many. */
export async function revokeAllSessions(userId: number): Promise<number> {
  const revoked = await db()
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
    .returning({ id: sessions.id });
  return revoked.length;
}
