// A module file (it imports), so this augments Astro's types instead of replacing them.
import 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on first interaction, or on `sy:hydrate-<value>` (src/client/directives/interact.ts). */
    'client:interact'?: boolean | string;
  }
}
