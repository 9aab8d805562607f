/**
 * The production server (server.ts over the Astro build) in a child process, on a private clone of the seeded test
 * database: what the hardening tests attack. Pages come from the last `npm run build`; without one it builds first.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/server/free-port.ts';
import { ensureBuild } from '../setup/build.ts';
import { freshDb, type TestDb } from '../setup/test-db.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface BuiltServer {
  base: string;
  port: number;
  child: ChildProcess;
  /** The clone the server runs on (also the test process's db()). */
  db: TestDb;
  /** Everything the server wrote to stdout and stderr so far. */
  output(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  stop(): Promise<void>;
}

async function waitReady(base: string, child: ChildProcess, output: () => string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server.ts exited with ${child.exitCode}:\n${output().slice(-4000)}`);
    try {
      if ((await fetch(`${base}/readyz`)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server.ts was not ready within ${timeoutMs} ms:\n${output().slice(-4000)}`);
}

/** Starts server.ts on a fresh clone; `env` adds to its environment. */
export async function startBuiltServer(env: Record<string, string> = {}): Promise<BuiltServer> {
  ensureBuild();
  const db = await freshDb();
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'shanying-hardening-'));
  let log = '';
  const child = spawn(process.execPath, ['server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      WORKER: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  const base = `http://127.0.0.1:${port}`;
  const output = () => log;
  try {
    await waitReady(base, child, output, 90_000);
  } catch (error) {
    child.kill('SIGKILL');
    await db.close();
    throw error;
  }
  return {
    base,
    port,
    child,
    db,
    output,
    alive: () => child.exitCode === null && child.signalCode === null,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
