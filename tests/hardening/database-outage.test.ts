/**
 * The embedded PostgreSQL dies under a running server (SIGKILL of its postmaster): requests answer 503 with
 * Retry-After in their family's envelope, /readyz says 503 without the reason, and the supervisor's restart brings
 * service back by itself.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const FEED_A = '/api/aweme/v1/web/tab/feed/?count=2';
const FEED_B = '/api/video/getVideosByCursor';
const RECOVERY_MS = 5_000;

let server: ServerProcess;

/** The postmaster's PID and status line ('ready' once it accepts connections), or undefined without a lock file. */
async function postmaster(dataDir: string): Promise<{ pid: number; status: string } | undefined> {
  const text = await readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const lines = text.split('\n');
  return { pid: Number(lines[0]), status: (lines[7] ?? '').trim() };
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms\n${server.stderr().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const readB = () =>
  fetch(`${server.base}${FEED_B}`, {
    method: 'POST',
    body: new URLSearchParams({ cursor: '0', size: '2' }),
    headers: { origin: server.base },
  });

beforeAll(async () => {
  // Every read from PostgreSQL: the anonymous cache would answer a hot read from memory during the outage.
  server = await startServerProcess({ API_ANON_CACHE: 'off' });
}, 180_000);

afterAll(async () => {
  await server?.close();
});

describe('a killed embedded database', () => {
  it('answers 503 with Retry-After while it is down, and recovers within 5 s of its restart', async () => {
    // What the server said is the first thing to read when this fails.
    onTestFailed(() => console.error(`server stderr:\n${server.stderr().slice(-6000)}`));
    expect((await fetch(`${server.base}${FEED_A}`)).status).toBe(200);
    expect((await readB()).status).toBe(200);
    const before = (await postmaster(server.dataDir))!;
    process.kill(before.pid, 'SIGKILL');

    // Family A: HTTP 503 with status_code and status_msg.
    const a = await until('503 on a Family A read', 3_000, async () => {
      const r = await fetch(`${server.base}${FEED_A}`);
      return r.status === 503 ? r : void (await r.arrayBuffer());
    });
    expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    const bodyA = (await a.json()) as { status_code: number; status_msg: string };
    expect(bodyA.status_code).not.toBe(0);
    expect(bodyA.status_msg).toBe('服务暂时不可用，请稍后再试');

    // Family B and a page, while the database is still down or restarting.
    const [b, page, ready, health] = await Promise.all([
      readB(),
      fetch(`${server.base}/`),
      fetch(`${server.base}/readyz`),
      fetch(`${server.base}/healthz`),
    ]);
    const bodyB = (await b.json()) as { code: string; data: unknown };
    expect([b.status, bodyB.code, bodyB.data]).toEqual([503, '503', null]);
    expect(b.headers.get('retry-after')).toBeTruthy();
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toBeTruthy();
    expect(await page.text()).toContain('服务暂时不可用');
    expect(ready.status).toBe(503);
    // No error text, host, port or user from the driver.
    expect(await ready.json()).toEqual({ status: 'unavailable' });
    expect(health.status).toBe(200);

    // The supervisor starts a new postmaster; from the moment it accepts connections, service is back within 5 s.
    await until('a new postmaster accepting connections', 60_000, async () => {
      const now = await postmaster(server.dataDir);
      return now && now.pid !== before.pid && now.status === 'ready' ? now : undefined;
    });
    const restartedAt = Date.now();
    await until('200 on the Family A read after the restart', RECOVERY_MS, async () => {
      const r = await fetch(`${server.base}${FEED_A}`);
      await r.arrayBuffer();
      return r.status === 200 ? true : undefined;
    });
    expect(Date.now() - restartedAt).toBeLessThan(RECOVERY_MS);
    expect((await readB()).status).toBe(200);
    expect((await fetch(`${server.base}/`)).status).toBe(200);
    expect((await fetch(`${server.base}/readyz`)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();
    expect(server.stderr()).not.toContain('uncaughtException');
  }, 120_000);
});
