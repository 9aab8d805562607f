/**
 * The session cookie: its name, how a request's is read and how one is set. Every door that reads the session (pages,
 * both API families, tus uploads, event streams) goes through `readSessionCookie`, so the name has one home.
 * Over HTTPS (see https.ts) it is `__Host-sy_session` and Secure: the browser then refuses it from plain http and from
 * any other host or path, so a neighbouring subdomain or a network attacker cannot plant one. Over plain http the
 * prefix is impossible (it requires Secure) and the cookie stays `sy_session`.
 */
import { servedOverHttps } from './https.ts';

/** What the cookie helpers read from a request: its headers. */
export interface HeaderSource {
  get(name: string): string | null;
}

const NAME = 'sy_session';
const HOST_PREFIX = '__Host-';

/** The session cookie's name for a request: `__Host-sy_session` over HTTPS, `sy_session` over plain http. */
export function sessionCookieName(headers: HeaderSource): string {
  return servedOverHttps(headers.get('x-forwarded-proto')) ? `${HOST_PREFIX}${NAME}` : NAME;
}

/** The value of the cookie called `name` in a Cookie header, or undefined. */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

/** The session token the request's cookie carries (under this request's cookie name only), or undefined. */
export function readSessionCookie(headers: HeaderSource): string | undefined {
  return cookieValue(headers.get('cookie'), sessionCookieName(headers));
}

/**
 * The session token a page request carries: the Token header, else the session cookie. Pages resolve their viewer from
 * it (middleware.ts) and the page cache treats a request without one as anonymous (page-answers.ts): one reading for
 * both, so a request is never rendered as one kind and cached as the other.
 */
export function pageSessionToken(headers: HeaderSource): string | undefined {
  return headers.get('token') ?? readSessionCookie(headers);
}

/** A Set-Cookie value for the session: HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS; Max-Age 0 clears it. */
export function sessionCookieHeader(headers: HeaderSource, value: string, maxAgeSeconds: number): string {
  const name = sessionCookieName(headers);
  const secure = name.startsWith(HOST_PREFIX) ? '; Secure' : '';
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}${secure}`;
}

/** A Cookie header without the session cookie (under either name), or undefined when nothing else is left. */
export function withoutSessionCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const kept = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => {
      const name = part.slice(0, part.indexOf('=') === -1 ? part.length : part.indexOf('=')).trim();
      return part && name !== NAME && name !== `${HOST_PREFIX}${NAME}`;
    });
  return kept.length ? kept.join('; ') : undefined;
}

/**
 * The member hint: a cookie beside the session's that scripts may read, holding nothing but `1`. A page every viewer
 * shares cannot name its viewer, and the session cookie is HttpOnly: a browser whose saved login was cleared (storage
 * wiped, blocked) still knows from the hint that it holds a session, so the page asks for the member's marks and shows
 * their parts instead of 登录 (src/client/marks.ts). It lives and is cleared with the session cookie.
 */
export const MEMBER_HINT_COOKIE = 'sy_member';

/** A Set-Cookie value for the member hint: readable by scripts, SameSite=Lax, Path=/, Secure over HTTPS; Max-Age 0 clears it. */
export function memberHintHeader(headers: HeaderSource, maxAgeSeconds: number): string {
  const secure = servedOverHttps(headers.get('x-forwarded-proto')) ? '; Secure' : '';
  return `${MEMBER_HINT_COOKIE}=${maxAgeSeconds > 0 ? '1' : ''}; Path=/; SameSite=Lax; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}${secure}`;
}
