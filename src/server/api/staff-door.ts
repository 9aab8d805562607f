/**
 * The staff API's door, before the router does anything else with a staff path: 404 (as for a path that does not
 * exist) to a visitor and to a member without the role, whatever the method; then, for a write, a same-origin check, the
 * staff write limit and a session authenticated within STAFF_REAUTH_MS.
 */
import { hasRole } from '../../shared/staff.ts';
import { ApiError } from './envelope.ts';
import type { Route } from './registry.ts';
import type { RequestContext } from '../http/request-context.ts';
import { hit } from '../services/rate-limit.ts';
import { staffSession } from '../staff/session.ts';

/** Staff writes one member may make per minute (every other write limit applies too). */
export const STAFF_WRITE_RATE = { limit: 60, windowMs: 60_000 };

/** Header a refusal for want of recent authentication carries: the console then asks for the password or a code. */
export const REAUTH_HEADER = 'x-staff-reauth';

/** Whether a path's routes are staff routes. */
export function isStaffPath(methods: ReadonlyMap<string, Route>): boolean {
  for (const r of methods.values()) if (r.staff) return true;
  return false;
}

/**
 * Whether a request comes from a page of this very site: its Origin (else Referer) names the site's host (the request
 * context's: PUBLIC_URL's, else the Host header's), the default port of the page's scheme left out. Unlike the member
 * API, no CORS_ORIGINS origin counts, and a request with neither is refused.
 */
export function sameOrigin(context: RequestContext, headers: Headers): boolean {
  const site = headers.get('sec-fetch-site');
  if (site && site !== 'same-origin') return false;
  const source = headers.get('origin') ?? headers.get('referer');
  if (!source) return false;
  try {
    const url = new URL(source);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    return url.host === new URL(`${url.protocol}//${context.host}`).host;
  } catch {
    return false;
  }
}

/** The staff route a request to a staff path by `method` is judged by (the first one when none takes the method). */
export function staffRouteOf(methods: ReadonlyMap<string, Route>, method: string): Route {
  return methods.get(method === 'HEAD' ? 'GET' : method) ?? methods.values().next().value!;
}

/**
 * Throws what the router answers unless the request may go on to its staff route; `token` is the session the API's
 * cookie rule lets the request use for that route.
 */
export async function staffDoor(
  context: RequestContext,
  headers: Headers,
  method: string,
  route: Route,
  token: string | undefined,
): Promise<void> {
  const session = await staffSession(token);
  if (!session || !hasRole(session.roles, route.staff?.role ?? 'admin')) throw new ApiError(404, 'error.apiNotFound');
  if (method === 'POST') {
    if (!sameOrigin(context, headers)) throw new ApiError(403, 'staff.error.crossOrigin');
    const counted = await hit(`staff:write:${session.userId}`, STAFF_WRITE_RATE.limit, STAFF_WRITE_RATE.windowMs);
    if (!counted.ok) throw new ApiError(429, 'error.rateLimited', undefined, { retryAfter: counted.retryAfter });
  }
  if (route.staff?.fresh !== false && !session.recent)
    throw new ApiError(403, 'staff.error.reauth', undefined, { headers: { [REAUTH_HEADER]: 'required' } });
}
