/**
 * Slow and half-open connections: clients that send headers a byte at a time, or nothing at all, are dropped after
 * HTTP_HEADERS_TIMEOUT_MS while everyone else is served, and their descriptors go with them even when they never read
 * nor close; a connection beyond the per-address cap is closed at once.
 */
import { readdirSync } from 'node:fs';
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
    socket.on('close', () => reject(new Error('closed without an answer')));
  });
}

/** A connection that starts a request and then neither sends, reads nor closes; resolves `connected` once open. */
function silentClient(port: number): { connected: Promise<void>; stop(): void } {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.pause();
  const connected = new Promise<void>((resolve) =>
    socket.once('connect', () =>
      socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: a', () => resolve()),
    ),
  );
  return { connected, stop: () => socket.destroy() };
}

/** The descriptors the server process holds open (sockets, files, pipes). */
function descriptors(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Resolves with the time `check` first held, looking every 50 ms; rejects past `deadline`. */
async function until(check: () => boolean, deadline: number): Promise<number> {
  for (;;) {
    if (check()) return Date.now();
    if (Date.now() > deadline) throw new Error('not reached by the deadline');
    await new Promise((r) => setTimeout(r, 50));
  }
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

  it('lets go of the descriptors of slow clients that never read nor close, within 2 s of their 408s', async () => {
    const pid = server.child.pid!;
    await (await fetch(`${server.base}/healthz`)).arrayBuffer();
    const idle = descriptors(pid);
    const started = Date.now();
    const silent = Array.from({ length: SLOW }, () => silentClient(server.port));
    try {
      await Promise.all(silent.map((s) => s.connected));
      // Held while they are within the headers time-out (once the server has taken them from its listen backlog).
      const taken = await until(() => descriptors(pid) >= idle + SLOW, started + HEADERS_TIMEOUT_MS).catch(() => 0);
      expect(taken, `${descriptors(pid)} descriptors with ${SLOW} clients (${idle} at idle)`).toBeGreaterThan(0);
      // The 408s are due once the time-out has passed and Node's next look (every second) has seen it.
      const due = started + HEADERS_TIMEOUT_MS + 1_000;
      const back = await until(() => descriptors(pid) <= idle + 5, due + 2_000).catch(() => undefined);
      expect(back, `${descriptors(pid)} descriptors 2 s after the 408s (${idle} at idle)`).toBeDefined();
      console.info(`descriptors: ${idle} at idle, back to it ${back! - due} ms after the 408s were due`);
    } finally {
      for (const s of silent) s.stop();
    }
  }, 30_000);

  it('closes a connection beyond the per-address cap at once, without reading it', async () => {
    const held = await Promise.all(Array.from({ length: CAP }, () => openIdle(server.port)));
    try {
      await expect(rawGet(server.port, '/healthz')).rejects.toThrow(/closed without an answer|ECONNRESET/);
    } finally {
      for (const s of held) s.destroy();
    }
    await new Promise((r) => setTimeout(r, 200));
    expect((await rawGet(server.port, '/healthz')).status).toBe(200);
  }, 30_000);
});
