/**
 * What the benchmarks share: the built server started the way the Playwright webServer starts it (`node server.ts`, a
 * temporary DATA_DIR, the embedded database, a free port), and the process plumbing around it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/server/free-port.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `node` arguments of the server as `npm start` and `npm run serve` run it (package.json: the young generation's cap). */
const SERVER_ARGS = ['--max-semi-space-size=16', 'server.ts'];

export { freePort };

/** Resolves once `url` answers 2xx; rejects if `child` exits first or after 120 s, with the child's `output()`. */
export async function waitReady(url, child, output) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}):\n${output()}`);
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`not ready within 120 s: ${url}\n${output()}`);
}

/** Runs `astro build` when there is no build to start. */
export function ensureBuild() {
  if (existsSync(path.join(ROOT, 'dist', 'server', 'entry.mjs'))) return;
  console.log('No build yet: running astro build…');
  const build = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('astro build failed');
}

/** A fresh temporary directory for a DATA_DIR (or a database of its own). */
export function tempDataDir(prefix = 'shanying-bench-') {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  // The embedded PostgreSQL runs as the unprivileged postgres user, which must enter this directory.
  chmodSync(dir, 0o755);
  return dir;
}

/** `node ...args` in the repo; `output()` is the tail of its stderr (stdout, the request log, is ignored so a full pipe never slows it). */
export function startProcess(args, env, cwd = ROOT) {
  let err = '';
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr.on('data', (d) => (err = (err + d).slice(-20_000)));
  return { child, output: () => err };
}

/** SIGTERM (server.ts then stops its PostgreSQL), SIGKILL after 15 s. */
export function stop(child) {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts `node server.ts` (with the flags of `npm start`) on a free port with a temporary DATA_DIR and waits until it is ready. `env` adds to (or,
 * with undefined, removes from) this process's environment; DATABASE_URL is always removed, for the embedded database.
 * Returns its base URL, its process id, how many seconds it took, and `close()`, which stops it and deletes the DATA_DIR. `root` is
 * the checkout to run (another built checkout serves as a baseline).
 */
export async function startServer(env = {}, root = ROOT) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = tempDataDir();
  const started = Date.now();
  const server = startProcess(
    SERVER_ARGS,
    { ...process.env, HOST: '127.0.0.1', ...env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: undefined },
    root,
  );
  const close = async () => {
    await stop(server.child);
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitReady(`${base}/readyz`, server.child, server.output);
  } catch (error) {
    await close();
    throw error;
  }
  return { base, pid: server.child.pid, seconds: (Date.now() - started) / 1000, close, dataDir };
}
