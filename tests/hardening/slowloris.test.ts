/**
 * Slow and half-open connections: clients that send headers a byte at a time, or nothing at all, are dropped after
 * HTTP_HEADERS_TIMEOUT_MS while everyone else is served; one address holding too many connections gets 503.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from './server-process.ts';

const HEADERS_TIMEOUT_MS = 2_000;
const CAP = 240;
const SLOW = 200;

let server: ServerProcess;

/** A connection that starts a request and then sends one header byte every `everyMs`; resolves when the server closes it. */
function slowClient(port: number, everyMs: number): { closed: Promise<{ at: number; reply: string }>; stop(): void } {
  const socket = net.connect(port, '127.0.0.1');
  let reply = '';
  socket.on('data', (d) => (reply += d.toString()));
  socket.on('error', () => {});
  socket.once('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: '));
  const drip = setInterval(() => socket.writable && socket.write('a'), everyMs);
  const closed = new Promise<{ at: number; reply: string }>((resolve) =>
    socket.once('close', () => {
      clearInterval(drip);
      resolve({ at: Date.now(), reply });
    }),
  );
  return { closed, stop: () => socket.destroy() };
}

function openIdle(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', reject);
  });
}

/** One request on a connection of its own; the status line's code and the Connection header. */
function rawGet(port: number, path: string): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`),
    );
    let text = '';
    socket.on('data', (d) => {
      text += d.toString();
      if (text.includes('\r\n\r\n')) {
        socket.destroy();
        resolve({
          status: Number(text.split(' ')[1]),
          connection: /\r\nconnection: *([^\r]+)/i.exec(text)?.[1]?.toLowerCase(),
        });
      }
    });
    socket.on('error', reject);
  });
}

beforeAll(async () => {
  server = await startServerProcess({
    HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    MAX_CONNECTIONS_PER_IP: String(CAP),
  });
}, 180_000);

afterAll(async () => {
  await server?.close();
});

describe('slow and half-open connections', () => {
  it('keeps answering while slow clients drip headers, and drops them after the headers time-out', async () => {
    const started = Date.now();
    const slow = Array.from({ length: SLOW }, () => slowClient(server.port, 200));
    try {
      // Normal traffic meanwhile: each answered promptly.
      for (let i = 0; i < 10; i++) {
        const t = Date.now();
        const r = await fetch(`${server.base}/api/aweme/v1/web/tab/feed/?count=2`);
        await r.arrayBuffer();
        expect(r.status).toBe(200);
        expect(Date.now() - t).toBeLessThan(HEADERS_TIMEOUT_MS);
        await new Promise((r) => setTimeout(r, 150));
      }
      const closed = await Promise.all(slow.map((s) => s.closed));
      // Node checks the time-outs once a second.
      for (const c of closed) {
        expect(c.at - started).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
        expect(c.at - started).toBeLessThan(HEADERS_TIMEOUT_MS + 3_000);
        expect(c.reply).not.toContain('200 OK');
      }
      expect(closed.some((c) => c.reply.startsWith('HTTP/1.1 408'))).toBe(true);
    } finally {
      for (const s of slow) s.stop();
    }
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
  }, 60_000);

  it('answers 503 with Connection: close on connections beyond the per-address cap', async () => {
    const held = await Promise.all(Array.from({ length: CAP }, () => openIdle(server.port)));
    try {
      expect(await rawGet(server.port, '/healthz')).toEqual({ status: 503, connection: 'close' });
    } finally {
      for (const s of held) s.destroy();
    }
    await new Promise((r) => setTimeout(r, 200));
    expect((await rawGet(server.port, '/healthz')).status).toBe(200);
  }, 30_000);
});
