/** The QR login code leads a phone to this server: its address with the port, or PUBLIC_URL behind a proxy. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
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
afterEach(() => {
  delete process.env.PUBLIC_URL;
});

async function createTicket(): Promise<{ ticket: string; url: string; svg: string }> {
  const res = await fetch(`${base}/api/passport/qr/create`, { method: 'POST' });
  expect(res.status).toBe(200);
  return (await res.json()) as { ticket: string; url: string; svg: string };
}

it('encodes the address the request reached, port included', async () => {
  const { ticket, url, svg } = await createTicket();
  expect(url).toBe(`${base}/passport/qr?ticket=${ticket}`);
  expect(svg).toContain('<svg');
});

it('encodes PUBLIC_URL when it is set', async () => {
  process.env.PUBLIC_URL = 'https://sy.example.org/';
  const { ticket, url } = await createTicket();
  expect(url).toBe(`https://sy.example.org/passport/qr?ticket=${ticket}`);
});
