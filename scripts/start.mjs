/**
 * `npm start`: builds when the build is missing or older than its sources, then runs server.ts
 * in this same process (same Node, signals and exit code reach the server directly).
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Whether this Node can run server.ts (type stripping) and Astro 7. */
function nodeIsRecentEnough() {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 12);
}

if (!nodeIsRecentEnough()) {
  // Run through npm (`npm start`) so that the `node` devDependency (Node 24) comes first on PATH.
  console.error(`闪映 needs Node >= 22.12 (this is ${process.version}); run \`npm install && npm start\`.`);
  process.exit(1);
}

buildIfNeeded();

await import(pathToFileURL(path.join(ROOT, 'server.ts')).href);
