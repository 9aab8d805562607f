/**
 * A staff member's session: their roles, and whether they proved who they are within STAFF_REAUTH_MS (the login, or a
 * password or e-mail code entered again in the console). Pages and the API ask here alike.
 */
import { eq } from 'drizzle-orm';
import { STAFF_REAUTH_MS, type StaffRole } from '../../shared/staff.ts';
import { db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { consumeLoginCode, requestLoginCode } from '../services/auth/codes.ts';
import type { AuthContext } from '../services/auth/login.ts';
import { invalid, rateLimited, ServiceError } from '../errors.ts';
import { verifyPassword } from '../services/password.ts';
import { hit, refund } from '../services/rate-limit.ts';
import { markAuthenticated, sessionFacts } from '../services/sessions.ts';
import { audit } from './audit.ts';
import { rolesOf } from './roles.ts';

export interface StaffSession {
  sessionId: number;
  userId: number;
  nickname: string;
  avatar: string;
  email: string | null;
  roles: StaffRole[];
  /** Proved who they are within STAFF_REAUTH_MS. */
  recent: boolean;
  /** Ms left of that window (0 when not recent). */
  recentMsLeft: number;
}

/** Wrong passwords or codes a staff member may enter per 15 minutes before the console waits. */
export const REAUTH_RATE = { limit: 10, windowMs: 15 * 60_000 };

/** The staff session of a token, or null for no session or a member without a role. */
export async function staffSession(token: string | undefined | null): Promise<StaffSession | null> {
  const facts = await sessionFacts(token);
  if (!facts) return null;
  const roles = await rolesOf(facts.userId);
  if (roles.length === 0) return null;
  const [user] = await db()
    .select({ nickname: users.nickname, avatar: users.avatar, email: users.email })
    .from(users)
    .where(eq(users.id, facts.userId));
  if (!user) return null;
  const left = Math.max(0, STAFF_REAUTH_MS - facts.authenticatedMsAgo);
  return { sessionId: facts.sessionId, userId: facts.userId, ...user, roles, recent: left > 0, recentMsLeft: left };
}

/** Mails the staff member a code to re-authenticate with (the login code's rules and limits). */
export async function requestReauthCode(session: StaffSession, ctx: AuthContext): Promise<{ retryAfter: number }> {
  if (!session.email) throw invalid('staff.error.noEmail');
  return requestLoginCode(session.email, ctx);
}

/**
 * Re-authenticates a staff session with the account's password or an e-mailed code; the session is then fit for staff
 * work for STAFF_REAUTH_MS. Audited as `session.reauth`.
 */
export async function reauthenticate(
  session: StaffSession,
  proof: { password: string } | { code: string },
  ctx: AuthContext,
): Promise<{ recentMsLeft: number }> {
  if ('code' in proof) {
    if (!session.email) throw invalid('staff.error.noEmail');
    await consumeLoginCode(session.email, proof.code, ctx);
  } else {
    const key = `staff:reauth:${session.userId}`;
    const tried = await hit(key, REAUTH_RATE.limit, REAUTH_RATE.windowMs);
    if (!tried.ok) throw rateLimited(tried.retryAfter);
    const [row] = await db().select({ hash: users.passwordHash }).from(users).where(eq(users.id, session.userId));
    if (!row?.hash) throw invalid('staff.error.noPassword');
    if (!(await verifyPassword(proof.password, row.hash))) throw new ServiceError('invalid', 'error.wrongPassword');
    await refund(key);
  }
  await markAuthenticated(session.sessionId);
  await audit(db(), {
    actorId: session.userId,
    action: 'session.reauth',
    targetType: 'session',
    targetId: session.sessionId,
  });
  return { recentMsLeft: 15 * 60_000 };
}
