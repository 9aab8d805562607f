import { defineMiddleware, sequence } from 'astro:middleware';
import { isDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_S } from './server/db/availability.ts';
import { unavailableResponse } from './server/http/unavailable.ts';
import { resolveSession, SESSION_COOKIE } from './server/services/sessions.ts';

/** Fills `locals.viewer` from the Token header or the session cookie; prerendered pages have no request to read. */
const fillViewer = defineMiddleware(async (ctx, next) => {
  ctx.locals.viewer = null;
  // The API router resolves its own viewer (and only trusts the header for writes).
  if (!ctx.isPrerendered && !ctx.url.pathname.startsWith('/api/')) {
    const token = ctx.request.headers.get('token') ?? ctx.cookies.get(SESSION_COOKIE)?.value;
    if (token) ctx.locals.viewer = await resolveSession(token);
  }
  return next();
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
