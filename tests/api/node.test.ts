/** serveApi: the router on plain node:http (the fast path a custom server can mount). */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveApi } from '../../src/server/api/node.ts';
import { useApiDb } from './helpers.ts';

useApiDb();
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => void serveApi(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('serveApi', () => {
  it('answers reads with status, headers and body', async () => {
    const res = await fetch(`${base}/api/aweme/v1/web/tab/feed/?count=2`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await res.json()).aweme_list).toHaveLength(2);
  });

  it('reads form bodies and refuses oversize ones', async () => {
    const feed = await fetch(`${base}/api/video/feed`, { method: 'POST', body: new URLSearchParams({ size: '3' }) });
    expect((await feed.json()).data).toHaveLength(3);
    const big = await fetch(`${base}/api/video/feed`, { method: 'POST', body: new URLSearchParams({ size: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(big.status).toBe(413);
  });
});
