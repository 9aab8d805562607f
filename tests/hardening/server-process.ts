/**
 * The built server as operators run it (`node server.ts`, the embedded database in a temporary DATA_DIR, a free
 * port), for the tests that kill, stop or starve it. Builds once when there is no build yet.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/server/free-port.ts';
import { ensureBuild } from '../setup/build.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  base: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** Everything the server wrote to stderr so far (its problems and the database's events). */
  stderr(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM (SIGKILL after 15 s), then removes the DATA_DIR. */
  close(): Promise<void>;
}

/** Starts `node server.ts` with `env` added and waits until /readyz answers 200 (at most 150 s: it seeds first). */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerProcess> {
  ensureBuild();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'shanying-hardening-'));
  // The embedded PostgreSQL runs as the unprivileged postgres user, which must enter this directory.
  chmodSync(dataDir, 0o755);
  const fullEnv: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    ...env,
    PORT: String(port),
    DATA_DIR: dataDir,
  };
  delete fullEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['server.ts'], {
    cwd: ROOT,
    env: fullEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) {
      await close();
      throw new Error(`server exited (${child.exitCode}) before it was ready:\n${err.slice(-4000)}`);
    }
    if (
      await fetch(`${base}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`server not ready within 150 s:\n${err.slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { base, port, dataDir, child, stderr: () => err, exited, close };
}
