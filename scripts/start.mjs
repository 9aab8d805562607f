/**
 * `npm start`: builds when the build is missing or older than its sources, then runs server.ts
 * in this same process (same Node, signals and exit code reach the server directly).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = path.join(ROOT, 'dist', 'server', 'entry.mjs');
const INPUTS = ['src', 'public', 'astro.config.mjs', 'uno.config.ts', 'package.json', 'tsconfig.json'];

/** Whether this Node can run server.ts (type stripping) and Astro 7. */
function nodeIsRecentEnough() {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

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

function needsBuild() {
  if (!existsSync(ENTRY)) return 'no build yet';
  const built = statSync(ENTRY).mtimeMs;
  const changed = INPUTS.find((input) => newestMtime(path.join(ROOT, input)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

if (!nodeIsRecentEnough()) {
  // Run through npm (`npm start`) so that the `node` devDependency (Node 24) comes first on PATH.
  console.error(`闪映 needs Node >= 22.12 (this is ${process.version}); run \`npm install && npm start\`.`);
  process.exit(1);
}

const reason = needsBuild();
if (reason) {
  console.log(`Building (${reason})…`);
  const astro = path.join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const build = spawnSync(process.execPath, [astro, 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error(`astro build failed (${build.signal ?? `exit ${build.status}`})`);
    process.exit(build.status || 1);
  }
}

await import(pathToFileURL(path.join(ROOT, 'server.ts')).href);
