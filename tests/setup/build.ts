/**
 * The production build the tests that start `node server.ts` need, made once per run. Vitest's global setup calls it
 * before any test file starts: when each file built for itself, two of them in a fresh clone ran `astro build` at once
 * into the same dist/, and a server started from a dist/ being rewritten dropped its connections.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Runs `astro build` unless dist/ already holds a server build. */
export function ensureBuild(): void {
  if (existsSync(path.join(ROOT, 'dist', 'server', 'entry.mjs'))) return;
  // Vitest sets NODE_ENV=test, and a build that inherits it compiles JSX for React's development runtime (jsxDEV),
  // which the server, running as production, does not have: every page with an island would fail to render.
  const build = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error('astro build failed: run `npm run build` and look at its output');
}
