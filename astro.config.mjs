// @ts-check
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import node from '@astrojs/node';
import react from '@astrojs/react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'astro/config';
import { minifySync } from 'vite';
import UnoCSS from 'unocss/astro';
import { interactDirective } from './src/client/directives/integration.ts';
import { precompressAssets } from './src/server/http/precompressed.ts';

// Inline scripts are files in src/components/inline, placed with `<script is:inline set:html={...?raw} />`: their text
// is fixed at build time, so the Content-Security-Policy allows each by its hash and needs no 'unsafe-inline'. Pages
// carry them minified (their comments stay in the source): the hashes are of the same minified text.
const INLINE_SCRIPTS = new URL('./src/components/inline/', import.meta.url);
/** @param {string} file */
const inlineScript = (file) => minifySync(path.basename(file), readFileSync(file, 'utf8')).code;
const inlineScriptHashes = readdirSync(INLINE_SCRIPTS)
  .filter((name) => name.endsWith('.js'))
  .map(
    (name) =>
      /** @type {`sha256-${string}`} */ (
        `sha256-${createHash('sha256')
          .update(inlineScript(fileURLToPath(new URL(name, INLINE_SCRIPTS))))
          .digest('base64')}`
      ),
  );

/** `import x from './inline/name.js?raw'` gives the minified text the hashes above are of. */
function minifiedInlineScripts() {
  const dir = fileURLToPath(INLINE_SCRIPTS);
  return {
    name: 'shanying:minified-inline-scripts',
    enforce: /** @type {const} */ ('pre'),
    /** @param {string} id */
    load(id) {
      const [file, query] = id.split('?');
      if (query !== 'raw' || !file?.startsWith(dir) || !file.endsWith('.js')) return null;
      return `export default ${JSON.stringify(inlineScript(file))};`;
    },
  };
}

/**
 * The chrome's script (src/components/chrome/ChromeRuntime.astro) runs on every page, and a member's marks are asked for
 * as soon as it runs. Left to the default splitting, the modules it imports that islands share too (the stores,
 * nanostores, the marks) become a dozen small files that the browser asks for only once it has parsed the script, after
 * first paint, and their own imports a round trip later. Here the script and everything it imports statically are one
 * file: the browser has the whole of it in one request, made by the preload scanner from the page's <head>. An island
 * that uses any of those modules imports them from that file, which every page has already loaded.
 */
function chromeInOneFile() {
  /** @type {Set<string>} */
  const graph = new Set();
  const entry = /[\\/]ChromeRuntime\.astro\?astro&type=script/;
  return {
    name: 'shanying:chrome-in-one-file',
    buildStart() {
      graph.clear();
    },
    /** @this {import('rolldown').PluginContext} */
    buildEnd() {
      const start = [...this.getModuleIds()].filter((id) => entry.test(id));
      const queue = [...start];
      for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
        if (graph.has(id)) continue;
        graph.add(id);
        queue.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
    },
    /** @param {string} id */
    test: (id) => graph.has(id),
  };
}
const chromeChunk = chromeInOneFile();

// A hash of every source file: the chrome's popover bodies (src/pages/chrome/parts.astro) are served under an address
// that carries it, so browsers may keep them as immutable and a new build is fetched anew.
const SRC = new URL('./src/', import.meta.url);
const sourceHash = createHash('sha256');
for (const file of readdirSync(SRC, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile())
  .map((e) => path.join(e.parentPath, e.name))
  .sort()) {
  sourceHash.update(path.relative(fileURLToPath(SRC), file)).update(readFileSync(file));
}

/** After every build: `_astro/*` compressed once at the highest levels, served as they are by server.ts (precompressed.ts). */
/** @type {import('astro').AstroIntegration} */
const precompress = {
  name: 'shanying:precompress',
  hooks: {
    'astro:build:done': async ({ dir, logger }) => {
      const count = await precompressAssets(fileURLToPath(new URL('_astro/', dir)));
      logger.info(`precompressed ${count} assets (brotli 11, gzip 9)`);
    },
  },
};

export default defineConfig({
  output: 'server',
  // staticHeaders: prerendered pages get their Content-Security-Policy as a header too, not only as a <meta>.
  adapter: node({ mode: 'standalone', bodySizeLimit: 1024 * 1024, staticHeaders: true }),
  // Off: it would 403 every cross-origin form POST; API writes need the Token header, which no
  // cross-site form can send, so the origin check adds nothing there (src/server/api/router.ts).
  security: {
    checkOrigin: false,
    // Astro hashes the scripts and styles it bundles or inlines (islands, hydration, hoisted scripts) and sends the
    // policy as a header; src/server/http/security-headers.ts adds MEDIA_BASE_URL's origin at run time.
    csp: {
      algorithm: 'SHA-256',
      scriptDirective: { hashes: inlineScriptHashes },
      // Styles: server-rendered islands carry style attributes, which hashes cannot allow.
      styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
      directives: [
        "default-src 'self'",
        "img-src 'self' data: blob:",
        "media-src 'self' blob:",
        "font-src 'self' data:",
        // blob: the 编辑资料 dialog previews a chosen picture by its blob: URL, and Chromium reads a blob that is not an
        // image under connect-src; blob: URLs are made only by this page's own scripts.
        "connect-src 'self' blob:",
        "worker-src 'self'",
        "manifest-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ],
    },
  },
  integrations: [UnoCSS({ injectReset: true }), react(), interactDirective(), precompress],
  server: { host: process.env.HOST ?? '0.0.0.0', port: Number(process.env.PORT ?? 4321) },
  prefetch: { prefetchAll: false, defaultStrategy: 'hover' },
  // Stylesheets as files, not inlined: the browser keeps them (/_astro/ is immutable) instead of receiving 27-46 KB
  // again inside every page's HTML. They reach the page as preloads applied by an inline script
  // (src/server/http/stylesheet-links.ts), so they hold the first paint but not the parser: `BENCH_BASELINE=<a checkout
  // that inlines> npm run bench:first-frame` compares the cold first frame of the two.
  build: { inlineStylesheets: 'never' },
  vite: {
    plugins: [minifiedInlineScripts(), chromeChunk],
    define: { __SOURCE_HASH__: JSON.stringify(sourceHash.digest('base64url').slice(0, 10)) },
    // The icon sprite must stay a file: <use> does not draw from a data: URL.
    build: {
      target: 'es2022',
      assetsInlineLimit: (file) => (file.endsWith('.svg') ? false : undefined),
      rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'ChromeRuntime', test: chromeChunk.test }] } } },
    },
  },
});
