import { defineMiddleware, sequence } from 'astro:middleware';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_S } from './server/db/availability.ts';
import { withReplicaReads } from './server/db/read-scope.ts';
import { pageFailure, pageRefusal } from './server/http/page-door.ts';
import { mediaOrigin, withMediaOrigin } from './server/http/security-headers.ts';
import { withStylesheetPreloads } from './server/http/stylesheet-links.ts';
import stylesheetLoader from './components/inline/stylesheets.js?raw';
import { pageSessionToken } from './server/http/session-cookie.ts';
import { unavailableResponse } from './server/http/unavailable.ts';
import { resolveSession } from './server/services/sessions.ts';
// Side effect: every island is named as React's before the first render (react-renderer.ts).
import './server/react-renderer.ts';

/** Refuses what no page takes (page-door.ts), then fills `locals.viewer` from the Token header or the session cookie; prerendered pages have no request to read. */
const fillViewer = defineMiddleware(async (ctx, next) => {
  ctx.locals.viewer = null;
  // The API router resolves its own viewer (and only trusts the header for writes).
  if (!ctx.isPrerendered && !ctx.url.pathname.startsWith('/api/')) {
    const refused = pageRefusal(ctx.request, ctx.url);
    if (refused) return refused;
    const token = pageSessionToken(ctx.request.headers);
    if (token) ctx.locals.viewer = await resolveSession(token);
  }
  try {
    // A visitor's page may be read from a replica (read-scope.ts); a viewer's sees their own writes on the primary.
    const anonymousRead = !ctx.locals.viewer && (ctx.request.method === 'GET' || ctx.request.method === 'HEAD');
    return await (anonymousRead ? withReplicaReads(next) : next());
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    // Astro's own log of a failed render would print the error's message, which may hold SQL parameters.
    return pageFailure(error, ctx.url);
  }
});

/** A page whose database is down or restarting answers 503 with Retry-After, not an error page. */
const databaseUnavailable = defineMiddleware(async (ctx, next) => {
  try {
    return await next();
  } catch (error) {
    if (isDatabaseUnavailable(error)) return unavailableResponse(ctx.url.pathname, UNAVAILABLE_RETRY_AFTER_S);
    throw error;
  }
});

/** A page's Content-Security-Policy may load media from MEDIA_BASE_URL's origin, which is known only at run time. */
const mediaPolicy = defineMiddleware(async (_ctx, next) => {
  const response = await next();
  const csp = response.headers.get('content-security-policy');
  const media = mediaOrigin();
  if (csp && media) response.headers.set('content-security-policy', withMediaOrigin(csp, media));
  return response;
});

/** A page's stylesheets load without holding up its inline scripts and its parser (stylesheet-links.ts). */
const stylesheetPreloads = defineMiddleware(async (_ctx, next) => {
  const response = await next();
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/html')) return response;
  const rewritten = new Response(withStylesheetPreloads(response.body, stylesheetLoader), response);
  rewritten.headers.delete('content-length');
  return rewritten;
});

export const onRequest = sequence(mediaPolicy, stylesheetPreloads, databaseUnavailable, fillViewer);
