/**
 * The request context: what every door (pages, the API, tus uploads, /media, event streams) needs to know about a
 * request, read once where it enters (server.ts; the Astro door under `astro dev`, and tests, build it from a fetch
 * Request) and handed to them, so that no door answers these questions its own way:
 *
 * - The site's origin: `PUBLIC_URL` when set, else the Host the request reached. `X-Forwarded-Host`,
 *   `X-Forwarded-Proto` and `X-Forwarded-For` count only under `TRUST_PROXY`, which says a proxy in front sets them
 *   itself: anyone can send them, so without it they change nothing (not the QR code's address, not the session
 *   cookie's name, not which pages may write with the cookie, not the address per-address limits count).
 * - HTTPS: `PUBLIC_URL` with an https scheme, or the trusted proxy's `X-Forwarded-Proto`. It names the session cookie:
 *   `__Host-sy_session` and Secure over HTTPS (the browser then refuses it from plain http and from any other host or
 *   path, so a neighbouring subdomain or a network attacker cannot plant one), `sy_session` over plain http (the prefix
 *   requires Secure). It also decides HSTS.
 * - The session token: the `Token` header, else the session cookie of this request's name. Whether a cookie may
 *   authorise a write is each door's rule (the API's is in router.ts); which token the request carries is read here.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { config, type Config } from '../config.ts';
import { pickEncoding, type Encoding } from '../encoding.ts';

export interface RequestContext {
  /** A random id that every log line written for this request carries (`requestId`). */
  readonly id: string;
  readonly method: string;
  /** The path as sent, without the query. */
  readonly path: string;
  /** The site's origin (scheme, host, port) as this request sees it; API answers make their share links on it. */
  readonly origin: string;
  /** The host (and port) of `origin`. */
  readonly host: string;
  /** The base of links that leave the browser (the QR login code): PUBLIC_URL with its path, else `origin`. */
  readonly publicUrl: string;
  /** Whether the site is served over HTTPS for this request. */
  readonly https: boolean;
  /** The client's address, for per-address limits and logs (the trusted proxy's word, else the peer). */
  readonly clientAddress: string | undefined;
  /** The session token the request carries: the Token header, else the session cookie. */
  readonly sessionToken: string | undefined;
  /** Whether `sessionToken` came from the Token header (any write may use it) rather than the cookie. */
  readonly tokenFromHeader: boolean;
  /** The session cookie's name for this request. */
  readonly cookieName: string;
  /** The content encoding the client takes for dynamic answers. */
  readonly encoding: Encoding | undefined;
}

const COOKIE = 'sy_session';
const HOST_PREFIX = '__Host-';

// A host as the Host header may carry it: a name or IPv4 address, or a bracketed IPv6 address, and an optional port.
const HOST = /^(?:[a-z\d](?:[a-z\d.-]*[a-z\d])?|\[[\da-f:.]+\])(?::\d{1,5})?$/i;

/** How a request arrived, read from whichever form the door has it in. */
interface Arrival {
  method: string;
  /** The request target: path and query. */
  target: string;
  header(name: string): string | undefined;
  /** The socket's peer address. */
  peer: string | undefined;
  /** Whether the connection itself is TLS. */
  encrypted: boolean;
  /** The host to use when the Host header is missing or no host. */
  fallbackHost: string;
}

/** The first item of a header a chain of proxies appends to: what the outermost one was told. */
const first = (value: string | undefined) => value?.split(',')[0]?.trim() || undefined;

/** The value of the cookie called `name` in a Cookie header, or undefined. */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim() || undefined;
  }
  return undefined;
}

function build(a: Arrival, settings: Config): RequestContext {
  const q = a.target.indexOf('?');
  const trusted = settings.TRUST_PROXY;
  const configured = settings.PUBLIC_URL;
  const https =
    a.encrypted ||
    configured?.startsWith('https:') === true ||
    (trusted && first(a.header('x-forwarded-proto'))?.toLowerCase() === 'https');
  let origin: string;
  let host: string;
  if (configured) {
    const url = new URL(configured);
    origin = url.origin;
    host = url.host;
  } else {
    const named = ((trusted && first(a.header('x-forwarded-host'))) || a.header('host'))?.trim();
    host = named && HOST.test(named) ? named.toLowerCase() : a.fallbackHost;
    origin = `${https ? 'https' : 'http'}://${host}`;
  }
  let clientAddress = a.peer;
  if (trusted) {
    // Only the entry the proxy appended last is its own word; whatever stands before it the client may have written.
    const last = a.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (last && isIP(last)) clientAddress = last;
  }
  const cookieName = https ? `${HOST_PREFIX}${COOKIE}` : COOKIE;
  const header = a.header('token')?.trim();
  return {
    id: randomUUID(),
    method: a.method,
    path: q === -1 ? a.target : a.target.slice(0, q),
    origin,
    host,
    publicUrl: configured ?? origin,
    https,
    clientAddress,
    sessionToken: header || cookieValue(a.header('cookie'), cookieName),
    tokenFromHeader: Boolean(header),
    cookieName,
    encoding: pickEncoding(a.header('accept-encoding')),
  };
}

/** The context of a request as node:http gives it (server.ts). */
export function contextOfNode(req: IncomingMessage, settings: Config = config()): RequestContext {
  return build(
    {
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      header(name) {
        const value = req.headers[name];
        return Array.isArray(value) ? value.join(', ') : value;
      },
      peer: req.socket.remoteAddress,
      encrypted: (req.socket as { encrypted?: boolean }).encrypted === true,
      fallbackHost: 'localhost',
    },
    settings,
  );
}

/** The context of a fetch Request (the Astro doors under `astro dev`, tests); `peer` is the socket's address if known. */
export function contextOfRequest(
  request: Request,
  peer: string | undefined = undefined,
  settings: Config = config(),
): RequestContext {
  const url = new URL(request.url);
  return build(
    {
      method: request.method,
      target: `${url.pathname}${url.search}`,
      header: (name) => request.headers.get(name) ?? undefined,
      peer,
      encrypted: url.protocol === 'https:',
      fallbackHost: url.host,
    },
    settings,
  );
}

/**
 * Whether a request comes from a page of this site or of a CORS_ORIGINS origin, by its Origin or, without one, its
 * Referer. Browsers set both themselves, so a page elsewhere cannot claim ours; a request with neither is not trusted.
 * "This site" is the context's host (PUBLIC_URL's, else the Host header's), compared with the default port of the
 * page's own scheme left out: a page at https://site behind a TLS proxy is this site's even when the request reached
 * the app over plain http.
 */
export function fromSitePage(context: RequestContext, headers: Headers, settings: Config = config()): boolean {
  const source = headers.get('origin') ?? headers.get('referer');
  if (!source) return false;
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    // `Origin: null` (a sandboxed frame, a file) lands here.
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (settings.CORS_ORIGINS.has(url.origin)) return true;
  try {
    return url.host === new URL(`${url.protocol}//${context.host}`).host;
  } catch {
    return false;
  }
}

/** A Set-Cookie value for the session: HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS; Max-Age 0 clears it. */
export function sessionCookieHeader(context: RequestContext, value: string, maxAgeSeconds: number): string {
  const secure = context.cookieName.startsWith(HOST_PREFIX) ? '; Secure' : '';
  const maxAge = Math.max(0, Math.floor(maxAgeSeconds));
  return `${context.cookieName}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

/** A Cookie header without the session cookie (under either name), or undefined when nothing else is left. */
export function withoutSessionCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const kept = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => {
      const eq = part.indexOf('=');
      const name = (eq === -1 ? part : part.slice(0, eq)).trim();
      return part && name !== COOKIE && name !== `${HOST_PREFIX}${COOKIE}`;
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
export function memberHintHeader(context: RequestContext, maxAgeSeconds: number): string {
  const secure = context.https ? '; Secure' : '';
  const maxAge = Math.max(0, Math.floor(maxAgeSeconds));
  return `${MEMBER_HINT_COOKIE}=${maxAgeSeconds > 0 ? '1' : ''}; Path=/; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}
