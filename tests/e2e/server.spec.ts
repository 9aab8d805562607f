import http from 'node:http';
import { expect, test } from './support.ts';

const CLIP = '/media/clips/c01.mp4';

/** A GET whose path goes out byte for byte (browsers and fetch would normalise `..` away). */
function rawGet(baseURL: string, rawPath: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(baseURL);
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test.describe('operations endpoints', () => {
  test('/healthz answers while the process is up', async ({ request }) => {
    const res = await request.get('/healthz');
    expect(res.status()).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  test('/readyz answers 200 when the database is reachable', async ({ request }) => {
    const res = await request.get('/readyz');
    expect(res.status()).toBe(200);
    expect((await res.json()).status).toBe('ok');
  });
});

test.describe('media', () => {
  test('a byte range gives 206 with the exact Content-Range and length', async ({ request }) => {
    const head = await request.head(CLIP);
    expect(head.status()).toBe(200);
    expect(head.headers()['accept-ranges']).toBe('bytes');
    expect(head.headers()['content-type']).toBe('video/mp4');
    const size = Number(head.headers()['content-length']);
    expect(size).toBeGreaterThan(1000);

    const res = await request.get(CLIP, { headers: { Range: 'bytes=0-99' } });
    expect(res.status()).toBe(206);
    expect(res.headers()['content-range']).toBe(`bytes 0-99/${size}`);
    const body = await res.body();
    expect(body.length).toBe(100);
    // An MP4 starts with its ftyp box.
    expect(body.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  test('an unsatisfiable range gives 416 with the size', async ({ request }) => {
    const res = await request.get(CLIP, { headers: { Range: 'bytes=999999999-' } });
    expect(res.status()).toBe(416);
    expect(res.headers()['content-range']).toMatch(/^bytes \*\/\d+$/);
  });

  test('the ETag round trip gives 304, with immutable caching', async ({ request }) => {
    const first = await request.head(CLIP);
    const etag = first.headers()['etag'];
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers()['cache-control']).toContain('immutable');
    expect(first.headers()['last-modified']).toBeTruthy();
    const again = await request.get(CLIP, { headers: { 'If-None-Match': etag! } });
    expect(again.status()).toBe(304);
  });

  test('path traversal never reaches a file outside the media roots', async ({ baseURL }) => {
    for (const attempt of [
      '/media/..%2f..%2fpackage.json',
      '/media/..%2f..%2f..%2fpackage.json',
      '/media/%2e%2e/%2e%2e/package.json',
      '/media/clips/..%2f..%2f..%2fserver.ts',
      '/media/..%5c..%5cpackage.json',
      '/media/clips%00.mp4',
      '/media/../../package.json',
    ]) {
      const res = await rawGet(baseURL!, attempt);
      expect([400, 404], attempt).toContain(res.status);
      expect(res.body, attempt).not.toContain('"name"');
    }
  });

  test('media is never compressed', async ({ request }) => {
    const res = await request.get(CLIP, { headers: { 'Accept-Encoding': 'br, gzip' } });
    expect(res.status()).toBe(200);
    expect(res.headers()['content-encoding']).toBeUndefined();
    expect(Number(res.headers()['content-length'])).toBe((await res.body()).length);
  });
});

test('HTML goes out compressed with brotli when asked', async ({ request }) => {
  const res = await request.get('/', { headers: { 'Accept-Encoding': 'br' } });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('text/html');
  expect(res.headers()['content-encoding']).toBe('br');
  expect(res.headers()['vary']).toMatch(/accept-encoding/i);
  expect(await res.text()).toContain('<html');
});
