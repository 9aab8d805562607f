import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMMUTABLE, loadPrecompressed, precompressAssets } from './precompressed.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'precompressed-'));
const script = `export const text = ${JSON.stringify('闪映 '.repeat(2_000))};\n`;
let server: http.Server;
let base: string;

beforeAll(async () => {
  writeFileSync(path.join(dir, 'app.abc123.js'), script);
  writeFileSync(path.join(dir, 'tiny.css'), 'a{}');
  writeFileSync(path.join(dir, 'font.woff2'), Buffer.alloc(4_000, 7));
  expect(await precompressAssets(dir)).toBe(1);
  const assets = loadPrecompressed(dir);
  server = http.createServer((req, res) => {
    if (!assets.serve(req, res, req.url ?? '/')) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function get(url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .request(`${base}${url}`, { headers, method }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject)
      .end();
  });
}

describe('precompressed assets', () => {
  it('writes brotli and gzip beside the files worth compressing, and nothing for the others', () => {
    expect(brotliDecompressSync(readFileSync(path.join(dir, 'app.abc123.js.br'))).toString()).toBe(script);
    expect(gunzipSync(readFileSync(path.join(dir, 'app.abc123.js.gz'))).toString()).toBe(script);
    expect(() => readFileSync(path.join(dir, 'tiny.css.br'))).toThrow();
    expect(() => readFileSync(path.join(dir, 'font.woff2.br'))).toThrow();
  });

  it('serves the form the client takes, immutable, with its length', async () => {
    const br = await get('/_astro/app.abc123.js', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(script);
    expect(br.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(br.headers['cache-control']).toBe(IMMUTABLE);
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(Number(br.headers['content-length'])).toBe(br.body.byteLength);
    const gz = await get('/_astro/app.abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await get('/_astro/app.abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    const head = await get('/_astro/app.abc123.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.body.byteLength).toBe(0);
    expect(head.headers['content-length']).toBe(br.headers['content-length']);
  });

  it('leaves other files to the static handler', async () => {
    expect((await get('/_astro/tiny.css')).status).toBe(404);
    expect((await get('/_astro/font.woff2')).status).toBe(404);
    expect((await get('/_astro/app.abc123.js', {}, 'POST')).status).toBe(404);
  });
});
