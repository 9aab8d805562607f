/** Sessions: random 256-bit tokens given to the client, stored only as SHA-256 hashes. */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';

export const SESSION_COOKIE = 'sy_session';
const TTL_MS = 30 * 86_400_000;

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

/** Opens a session for a user and returns its token. */
export async function createSession(userId: number, userAgent?: string): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + TTL_MS);
  await db().insert(sessions).values({ userId, tokenHash: hashToken(token), expiresAt, userAgent: userAgent?.slice(0, 300) });
  return { token, expiresAt };
}

/** The user behind a live token, or null. */
export async function resolveSession(token: string | undefined | null): Promise<Viewer | null> {
  if (!token || token.length > 100) return null;
  const [row] = await db()
    .select({ id: users.id, secUid: users.secUid, nickname: users.nickname, avatar: users.avatar })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)));
  return row ?? null;
}

/** Revokes a token server-side (logout). */
export async function revokeSession(token: string): Promise<void> {
  await db().update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.tokenHash, hashToken(token)));
}
