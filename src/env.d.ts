/// <reference types="astro/client" />

declare namespace App {
  interface Locals {
    /** The logged-in user of this request, from the Token header or the session cookie. */
    viewer: import('./server/services/sessions.ts').Viewer | null;
  }
}

