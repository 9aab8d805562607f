import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

/** Registers `client:interact` (src/client/directives/interact.ts). */
export function interactDirective(): AstroIntegration {
  return {
    name: 'shanying:client-interact',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'interact', entrypoint: fileURLToPath(new URL('./interact.ts', import.meta.url)) });
      },
    },
  };
}
