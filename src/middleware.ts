import { defineMiddleware } from 'astro:middleware';
import { mediaOrigin, withMediaOrigin } from './server/http/security-headers.ts';
import { readSessionCookie } from './server/http/session-cookie.ts';
import { resolveSession } from './server/services/sessions.ts';

/**
 * Fills `locals.viewer` from the Token header or the session cookie (prerendered pages have no request to read), and
 * lets a page's Content-Security-Policy load media from MEDIA_BASE_URL's origin, which is known only at run time.
 */
export const onRequest = defineMiddleware(async (ctx, next) => {
  ctx.locals.viewer = null;
  // The API router resolves its own viewer (and only trusts the header for writes).
  if (!ctx.isPrerendered && !ctx.url.pathname.startsWith('/api/')) {
    const token = ctx.request.headers.get('token') ?? readSessionCookie(ctx.request.headers);
    if (token) ctx.locals.viewer = await resolveSession(token);
  }
  const response = await next();
  const csp = response.headers.get('content-security-policy');
  const media = mediaOrigin();
  if (csp && media) response.headers.set('content-security-policy', withMediaOrigin(csp, media));
  return response;
});
