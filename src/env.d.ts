/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** What the request is (src/server/http/request-context.ts): its origin, session token, client address, id. */
    request: import('./server/http/request-context.ts').RequestContext;
    /** The logged-in user of this request, from the request's session token (the Token header, else the cookie). */
    viewer: import('./server/services/sessions.ts').Viewer | null;
  }
}

/** A hash of the source tree at build time (astro.config.mjs). */
declare const __SOURCE_HASH__: string;
