/** Builds the site (astro build) when the build is missing or older than its sources: what `npm start` does first. */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = path.join(ROOT, 'dist', 'server', 'entry.mjs');
const INPUTS = ['src', 'public', 'astro.config.mjs', 'uno.config.ts', 'package.json', 'tsconfig.json'];

/** The newest mtime under `target` (a file or a directory tree), 0 when absent. */
function newestMtime(target) {
  let stats;
  try {
    stats = statSync(target);
  } catch {
    return 0;
  }
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** Why a build is needed, or null. */
export function needsBuild() {
  if (!existsSync(ENTRY)) return 'no build yet';
  const built = statSync(ENTRY).mtimeMs;
  const changed = INPUTS.find((input) => newestMtime(path.join(ROOT, input)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

/** Runs astro build when needsBuild() says so; exits the process when the build fails. */
export function buildIfNeeded() {
  const reason = needsBuild();
  if (!reason) return;
  console.log(`Building (${reason})…`);
  const astro = path.join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const build = spawnSync(process.execPath, [astro, 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error(`astro build failed (${build.signal ?? `exit ${build.status}`})`);
    process.exit(build.status || 1);
  }
}
