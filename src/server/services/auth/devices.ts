/**
 * Device cookies: a browser that has logged in to an account holds a random token bound to it (only its hash is kept),
 * and its password logins are counted on their own. Guessing at the account from elsewhere then locks out new browsers
 * only, never one its owner has used before (password.ts).
 */
import { randomBytes } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import { db } from '../../db/client.ts';
import { loginDevices } from '../../db/schema.ts';
import { hashToken } from '../sessions.ts';

const DAY = 24 * 60 * 60 * 1000;
/** The cookie that carries the token (`__Secure-` prefixed over HTTPS, login-door.ts). */
export const DEVICE_COOKIE = 'sy_device';
/** How long a browser stays known without logging in again (the cookie lives as long; each login renews both). */
export const DEVICE_TTL_MS = 365 * DAY;
/** What a device token looks like (32 random bytes, base64url): anything else is not looked up. */
const TOKEN = /^[\w-]{43}$/;

/** The id of the known browser holding `token` for `userId`, or undefined (no token, unknown, another account's). */
export async function knownDevice(token: string | undefined, userId: number): Promise<number | undefined> {
  if (!token || !TOKEN.test(token)) return undefined;
  const [row] = await db()
    .select({ id: loginDevices.id, lastUsedAt: loginDevices.lastUsedAt })
    .from(loginDevices)
    .where(and(eq(loginDevices.tokenHash, hashToken(token)), eq(loginDevices.userId, userId)))
    .limit(1);
  if (!row || row.lastUsedAt.getTime() < Date.now() - DEVICE_TTL_MS) return undefined;
  return row.id;
}

/**
 * After a successful login of `userId`: the browser's token when it already is one of that account's (renewed), else a
 * new one. A browser holds one token: logging in to another account replaces it.
 */
export async function rememberDevice(userId: number, token: string | undefined): Promise<string> {
  const known = await knownDevice(token, userId);
  if (known !== undefined && token) {
    await db().update(loginDevices).set({ lastUsedAt: new Date() }).where(eq(loginDevices.id, known));
    return token;
  }
  const fresh = randomBytes(32).toString('base64url');
  await db()
    .insert(loginDevices)
    .values({ userId, tokenHash: hashToken(fresh) });
  // About one login in a hundred clears the browsers not seen for DEVICE_TTL_MS.
  if (Math.random() < 0.01)
    await db()
      .delete(loginDevices)
      .where(lt(loginDevices.lastUsedAt, new Date(Date.now() - DEVICE_TTL_MS)));
  return fresh;
}
