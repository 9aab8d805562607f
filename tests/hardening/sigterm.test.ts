/**
 * SIGTERM under load: every request either completes (2xx) or is told to go elsewhere (503 with Connection: close);
 * none is reset, and the process stops its database cleanly and exits 0.
 */
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const WORKERS = 24;
const PATHS = [
  '/api/aweme/v1/web/tab/feed/?count=10',
  '/api/aweme/v1/web/hot/search/list/',
  '/',
  '/discover',
  '/healthz',
];

let server: ServerProcess;

type Outcome = { status: number; connection?: string } | { error: string };

/** One GET; `agent` false opens a new connection for it. */
function get(url: string, agent: http.Agent | false): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.get(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
  });
}

/** Requests one after another until the server says 503 or refuses to connect (it stopped listening). */
async function worker(n: number, outcomes: Outcome[]): Promise<void> {
  const agent = n % 2 === 0 ? new http.Agent({ keepAlive: true, maxSockets: 1 }) : false;
  try {
    for (let i = 0; ; i++) {
      const outcome = await get(`${server.base}${PATHS[(n + i) % PATHS.length]}`, agent);
      outcomes.push(outcome);
      if ('error' in outcome || outcome.status === 503) return;
    }
  } finally {
    if (agent) agent.destroy();
  }
}

beforeAll(async () => {
  server = await startServerProcess();
}, 180_000);

afterAll(async () => {
  await server?.close();
});

describe('SIGTERM under load', () => {
  it('answers every request (2xx, or 503 with Connection: close), exits 0 and stops the database cleanly', async () => {
    // What the server said is the first thing to read when this fails.
    onTestFailed(() => console.error(`server stderr:\n${server.stderr().slice(-6000)}`));
    const outcomes: Outcome[] = [];
    const load = Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n, outcomes)));
    await new Promise((r) => setTimeout(r, 1_500));
    const before = outcomes.length;
    server.child.kill('SIGTERM');
    await load;
    const code = await server.exited;

    const errors = outcomes.filter((o): o is { error: string } => 'error' in o);
    const answered = outcomes.filter((o): o is { status: number; connection?: string } => 'status' in o);
    // A refused connection came after the listener closed: nothing of it was accepted, so nothing was lost.
    expect(errors.filter((e) => e.error !== 'ECONNREFUSED')).toEqual([]);
    expect(answered.filter((o) => !(o.status >= 200 && o.status < 300) && o.status !== 503)).toEqual([]);
    for (const o of answered.filter((o) => o.status === 503)) expect(o.connection).toBe('close');
    expect(before).toBeGreaterThan(0);
    expect(answered.some((o) => o.status === 503)).toBe(true);

    expect(code).toBe(0);
    // A clean shutdown of PostgreSQL removes its lock file; a crash leaves it.
    expect(existsSync(path.join(server.dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    expect(server.stderr()).not.toMatch(/database stop failed|uncaughtException|closing them/);
  }, 120_000);
});
