/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The logged-in user of this request, from the Token header or the session cookie. */
    viewer: import('./server/services/sessions.ts').Viewer | null;
  }
}

/** A hash of the source tree at build time (astro.config.mjs). */
declare const __SOURCE_HASH__: string;
