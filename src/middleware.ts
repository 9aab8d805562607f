import { defineMiddleware, sequence } from 'astro:middleware';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_S } from './server/db/availability.ts';
import { pageFailure, pageRefusal } from './server/http/page-door.ts';
import { unavailableResponse } from './server/http/unavailable.ts';
import { resolveSession, SESSION_COOKIE } from './server/services/sessions.ts';

/** Refuses what no page takes (page-door.ts), then fills `locals.viewer` from the Token header or the session cookie; prerendered pages have no request to read. */
const fillViewer = defineMiddleware(async (ctx, next) => {
  ctx.locals.viewer = null;
  // The API router resolves its own viewer (and only trusts the header for writes).
  if (!ctx.isPrerendered && !ctx.url.pathname.startsWith('/api/')) {
    const refused = pageRefusal(ctx.request, ctx.url);
    if (refused) return refused;
    const token = ctx.request.headers.get('token') ?? ctx.cookies.get(SESSION_COOKIE)?.value;
    if (token) ctx.locals.viewer = await resolveSession(token);
  }
  try {
    return await next();
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

export const onRequest = sequence(databaseUnavailable, fillViewer);
