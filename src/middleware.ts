import type { APIContext, MiddlewareNext } from 'astro';
import { defineMiddleware, sequence } from 'astro:middleware';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_S } from './server/db/availability.ts';
import { withReplicaReads } from './server/db/read-scope.ts';
import { pageFailure, pageRefusal } from './server/http/page-door.ts';
import { mediaOrigin, withMediaOrigin } from './server/http/security-headers.ts';
import { withStylesheetPreloads } from './server/http/stylesheet-links.ts';
import stylesheetLoader from './components/inline/stylesheets.js?raw';
import { contextOfRequest, type RequestContext } from './server/http/request-context.ts';
import { currentRequest, inRequest } from './server/http/request-scope.ts';
import { unavailableResponse } from './server/api/unavailable.ts';
import { resolveSession } from './server/services/sessions.ts';
// Side effect: every island is named as React's before the first render (react-renderer.ts).
import './islands/react-renderer.ts';

/** The socket's address under `astro dev` (Astro throws when the adapter cannot tell it, and for prerendered pages). */
function peerOf(ctx: APIContext): string | undefined {
  try {
    return ctx.isPrerendered ? undefined : ctx.clientAddress;
  } catch {
    return undefined;
  }
}

/**
 * Puts the request's context in `locals.request`: the one server.ts read where the request entered (request-scope.ts),
 * or, under `astro dev` with no server.ts in front, one made here from the Request (the rest of the request then runs
 * in its scope). Then refuses what no page takes (page-door.ts) and fills `locals.viewer` from the context's session
 * token; prerendered pages have no session to read.
 */
const fillViewer = defineMiddleware((ctx, next) => {
  const current = currentRequest();
  if (current) return withViewer(ctx, next, current);
  const context = contextOfRequest(ctx.request, peerOf(ctx));
  return inRequest(context, () => withViewer(ctx, next, context));
});

async function withViewer(ctx: APIContext, next: MiddlewareNext, context: RequestContext): Promise<Response> {
  ctx.locals.request = context;
  ctx.locals.viewer = null;
  // The API router resolves its own viewer (and takes the cookie for a write only where its rule allows).
  if (!ctx.isPrerendered && !ctx.url.pathname.startsWith('/api/')) {
    const refused = pageRefusal(ctx.request, ctx.url);
    if (refused) return refused;
    if (context.sessionToken) ctx.locals.viewer = await resolveSession(context.sessionToken);
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
}

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
