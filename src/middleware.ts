import { defineMiddleware } from 'astro:middleware';
import { pageFailure, pageRefusal } from './server/http/page-door.ts';
import { resolveSession, SESSION_COOKIE } from './server/services/sessions.ts';

/** Refuses what no page takes (page-door.ts), then fills `locals.viewer` from the Token header or the session cookie; prerendered pages have no request to read. */
export const onRequest = defineMiddleware(async (ctx, next) => {
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
    // Astro's own log of a failed render would print the error's message, which may hold SQL parameters.
    return pageFailure(error, ctx.url);
  }
});
