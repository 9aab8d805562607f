/**
 * The staff API's door, before the router does anything else with a staff path: 404 (as for a path that does not
 * exist) to a visitor and to a member without the role, whatever the method; then, for a write, a same-origin check, the
 * staff write limit and a session authenticated within STAFF_REAUTH_MS.
 */
import { hasRole } from '../../shared/staff.ts';
import { ApiError } from '../api/envelope.ts';
import type { Route } from '../api/registry.ts';
import { addressedHost, sessionToken } from '../api/session-token.ts';
import { hit } from '../services/rate-limit.ts';
import { staffSession } from './session.ts';

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
 * Whether a request comes from a page of this very site: its Origin (else Referer) names the host the browser
 * addressed. Unlike the member API, no CORS_ORIGINS origin counts, and a request with neither is refused.
 */
export function sameOrigin(request: Request): boolean {
  const site = request.headers.get('sec-fetch-site');
  if (site && site !== 'same-origin') return false;
  const source = request.headers.get('origin') ?? request.headers.get('referer');
  if (!source) return false;
  try {
    const url = new URL(source);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === addressedHost(request, url.protocol);
  } catch {
    return false;
  }
}

/** Throws what the router answers unless the request may go on to its staff route. */
export async function staffDoor(
  request: Request,
  method: string,
  methods: ReadonlyMap<string, Route>,
  _clientAddress: string,
): Promise<void> {
  const route = methods.get(method === 'HEAD' ? 'GET' : method) ?? methods.values().next().value!;
  const session = await staffSession(sessionToken(request, method, route.family));
  if (!session || !hasRole(session.roles, route.staff?.role ?? 'admin')) throw new ApiError(404, 'error.apiNotFound');
  if (method === 'POST') {
    if (!sameOrigin(request)) throw new ApiError(403, 'staff.error.crossOrigin');
    const counted = await hit(`staff:write:${session.userId}`, STAFF_WRITE_RATE.limit, STAFF_WRITE_RATE.windowMs);
    if (!counted.ok) throw new ApiError(429, 'error.rateLimited', undefined, { retryAfter: counted.retryAfter });
  }
  if (route.staff?.fresh !== false && !session.recent)
    throw new ApiError(403, 'staff.error.reauth', undefined, { headers: { [REAUTH_HEADER]: 'required' } });
}
