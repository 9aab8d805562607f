// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';
import UnoCSS from 'unocss/astro';
import { interactDirective } from './src/client/directives/integration.ts';

export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'standalone', bodySizeLimit: 1024 * 1024 }),
  // Off: it would 403 every cross-origin form POST; API writes need the Token header, which no
  // cross-site form can send, so the origin check adds nothing there (src/server/api/router.ts).
  security: { checkOrigin: false },
  integrations: [UnoCSS({ injectReset: true }), react(), interactDirective()],
  server: { host: process.env.HOST ?? '0.0.0.0', port: Number(process.env.PORT ?? 4321) },
  prefetch: { prefetchAll: false, defaultStrategy: 'hover' },
  build: { inlineStylesheets: 'always' },
  vite: { build: { target: 'es2022' } },
});
