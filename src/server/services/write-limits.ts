/**
 * The limit every write of the API counts against (the router applies it to each route that changes something), on
 * top of the narrower limits of the services that own a write (comments, danmaku, messages, feedback, ...). In the
 * range of what peers allow: Mastodon 300 requests per 5 minutes, PeerTube 50 API calls per 10 s.
 */
import { perIp } from './auth/login.ts';
import { enforce } from './rate-limit.ts';

/** Writes one account may make. */
export const USER_WRITE_RATE = { limit: 300, windowMs: 5 * 60_000 };
/** Writes from one address, logged in or not (scaled by `perIp`: many people may share an address). */
export const IP_WRITE_RATE = { limit: 600, windowMs: 5 * 60_000 };

/** Counts one write against the account (when logged in) and the address; rate_limited (429, Retry-After) beyond either. */
export async function enforceWriteLimits(userId: number | null, address: string): Promise<void> {
  await enforce(`write:ip:${address || 'unknown'}`, perIp(IP_WRITE_RATE.limit), IP_WRITE_RATE.windowMs);
  if (userId !== null) await enforce(`write:user:${userId}`, USER_WRITE_RATE.limit, USER_WRITE_RATE.windowMs);
}
