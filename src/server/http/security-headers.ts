/**
 * The security headers every answer carries (pages, the API, media, static files), set by server.ts before any
 * handler runs. A page's Content-Security-Policy comes from Astro (`security.csp` in astro.config.mjs: scripts from
 * 'self' plus the hashes of every inline script) and replaces the default set here; `withMediaOrigin` widens it when
 * media comes from another origin (MEDIA_BASE_URL).
 */
import type { ServerResponse } from 'node:http';
import { config } from '../config.ts';
import type { RequestContext } from './request-context.ts';

/** Two years, the preload list's minimum: a site served over HTTPS stays on HTTPS. */
export const HSTS_MAX_AGE = 63_072_000;

// Answers that are not pages (JSON, media, health) need nothing: no script, no style, no frame.
const NOTHING_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";
// Static files and prerendered pages: their own policy (a page's header from the adapter) overrides this one. It must
// not restrict fetches: a service worker (/sw.js) runs under the policy of its own script's answer.
const FRAME_CSP = "frame-ancestors 'none'; object-src 'none'; base-uri 'self'";

/** What a page may use: no camera, microphone, location, payment or sensors (nothing here asks for them). */
export const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'magnetometer=()',
  'gyroscope=()',
  'accelerometer=()',
  'browsing-topics=()',
].join(', ');

/** Whether a path's answer is data rather than a page: the API, media, health checks. */
function isData(pathname: string): boolean {
  return (
    pathname === '/api' ||
    pathname.startsWith('/api/') ||
    pathname.startsWith('/media/') ||
    pathname === '/healthz' ||
    pathname === '/readyz'
  );
}

/** The headers for an answer to `pathname`, reached over HTTPS or not (see request-context.ts). */
export function securityHeaders(pathname: string, https: boolean): Record<string, string> {
  return {
    'Content-Security-Policy': isData(pathname) ? NOTHING_CSP : FRAME_CSP,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': PERMISSIONS_POLICY,
    'Cross-Origin-Opener-Policy': 'same-origin',
    ...(https ? { 'Strict-Transport-Security': `max-age=${HSTS_MAX_AGE}; includeSubDomains` } : {}),
  };
}

/** Sets the security headers on a Node response before a handler answers; a handler may still replace any of them. */
export function applySecurityHeaders(context: RequestContext, res: ServerResponse): void {
  const headers = securityHeaders(context.path, context.https);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

/** The origin of MEDIA_BASE_URL when media comes from elsewhere, else undefined. */
export function mediaOrigin(base = config().MEDIA_BASE_URL): string | undefined {
  return base ? new URL(base).origin : undefined;
}

const MEDIA_DIRECTIVES = new Set(['img-src', 'media-src', 'connect-src']);

/** A page's CSP with `origin` added to img-src, media-src and connect-src (media from a CDN or object store). */
export function withMediaOrigin(csp: string, origin: string | undefined): string {
  if (!origin) return csp;
  return csp
    .split(';')
    .map((directive) => {
      const name = directive.trim().split(/\s+/)[0];
      return MEDIA_DIRECTIVES.has(name ?? '') ? `${directive.trimEnd()} ${origin}` : directive;
    })
    .join(';');
}
