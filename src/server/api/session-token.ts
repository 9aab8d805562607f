/**
 * Which session token a request carries. The Token header always counts. The session cookie counts for reads, and
 * for Family A writes sent from a page of this site or of a CORS_ORIGINS origin: douyin.com's web client sends
 * cookies, not a header, while a cross-site form carries the cookie too and must not write with it.
 */
import { readSessionCookie } from '../http/session-cookie.ts';
import { isAllowedOrigin } from './cors.ts';
import type { Family } from './envelope.ts';

/** The host the browser addressed, with `scheme`'s default port left out: a proxy's X-Forwarded-Host, else Host, else the URL's. */
export function addressedHost(request: Request, scheme: string): string | undefined {
  const forwarded = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim();
  const host = forwarded || request.headers.get('host')?.trim() || new URL(request.url).host;
  try {
    return new URL(`${scheme}//${host}`).host;
  } catch {
    return undefined;
  }
}

/**
 * Whether a request comes from a page of this site or of a CORS_ORIGINS origin, by its Origin or, without one, its
 * Referer. Browsers set both themselves, so a page elsewhere cannot claim ours; a request with neither is not trusted.
 * Host headers cannot be forged by a page either: a cross-site request that sets one needs a preflight we refuse.
 */
export function fromTrustedPage(request: Request): boolean {
  const source = request.headers.get('origin') ?? request.headers.get('referer');
  if (!source) return false;
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    // `Origin: null` (a sandboxed frame, a file) lands here.
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  return isAllowedOrigin(url.origin) || url.host === addressedHost(request, url.protocol);
}

/** The session token of a request to a route of `family` by `method` (see the module's comment for the cookie rule). */
export function sessionToken(request: Request, method: string, family: Family): string | undefined {
  const header = request.headers.get('token')?.trim();
  if (header) return header;
  const session = readSessionCookie(request.headers);
  if (!session || method === 'GET' || method === 'HEAD') return session;
  return family === 'A' && fromTrustedPage(request) ? session : undefined;
}
