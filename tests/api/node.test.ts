/** serveApi: the router on plain node:http (the fast path a custom server can mount). */
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearApiCache } from '../../src/server/cache/anon-cache.ts';
import { serveApi } from '../../src/server/api/node.ts';
import { pickEncoding } from '../../src/server/encoding.ts';
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

  it('sends each cookie an answer sets as its own Set-Cookie line: a login sets the session, its member hint and the device cookie', async () => {
    const demo = await (await fetch(`${base}/api/passport/demo`)).json();
    const login = await fetch(`${base}/api/passport/login/password`, {
      method: 'POST',
      body: new URLSearchParams({ email: demo.email, password: demo.password }),
    });
    expect(login.status).toBe(200);
    const names = login.headers.getSetCookie().map((c) => c.slice(0, c.indexOf('=')));
    expect(names).toEqual(['sy_session', 'sy_member', 'sy_device']);
  });

  it('makes share links on the origin the client asked at', async () => {
    const body = await (await fetch(`${base}/api/aweme/v1/web/tab/feed/?count=1`)).json();
    expect(body.aweme_list[0].share_url).toBe(`${base}/video/${body.aweme_list[0].aweme_id}`);
    const forwarded = { host: 'sy.example', 'x-forwarded-proto': 'https' };
    // A client's X-Forwarded-Proto is not the proxy's: only TRUST_PROXY makes it count.
    const claimed = await raw('/api/aweme/v1/web/tab/feed/?count=1', forwarded);
    expect(JSON.parse(claimed.body.toString('utf8')).aweme_list[0].share_url).toMatch(
      /^http:\/\/sy\.example\/video\/\d+$/,
    );
    process.env.TRUST_PROXY = '1';
    try {
      const proxied = await raw('/api/aweme/v1/web/tab/feed/?count=1', forwarded);
      expect(JSON.parse(proxied.body.toString('utf8')).aweme_list[0].share_url).toMatch(
        /^https:\/\/sy\.example\/video\/\d+$/,
      );
    } finally {
      delete process.env.TRUST_PROXY;
    }
    const odd = await raw('/api/aweme/v1/web/tab/feed/?count=1', { host: 'a/b@c' });
    expect(JSON.parse(odd.body.toString('utf8')).aweme_list[0].share_url).toMatch(/^http:\/\/localhost\/video\/\d+$/);
  });

  it('reads form bodies and refuses oversize ones', async () => {
    const feed = await fetch(`${base}/api/video/feed`, { method: 'POST', body: new URLSearchParams({ size: '3' }) });
    expect((await feed.json()).data).toHaveLength(3);
    const big = await fetch(`${base}/api/video/feed`, {
      method: 'POST',
      body: new URLSearchParams({ size: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(big.status).toBe(413);
  });

  /** A raw GET (fetch would decode the body and drop Content-Length's meaning). */
  function raw(
    path: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(`${base}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
  }

  it('compresses a large answer with brotli or gzip as asked, with an exact Content-Length', async () => {
    const path = '/api/aweme/v1/web/tab/feed/?count=10';
    const plain = await raw(path);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    const expected = JSON.parse(plain.body.toString('utf8'));
    expect(expected.aweme_list).toHaveLength(10);

    const br = await raw(path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(JSON.parse(zlib.brotliDecompressSync(br.body).toString('utf8'))).toEqual(expected);

    // The second viewer of the cached answer gets the same compressed bytes.
    const again = await raw(path, { 'accept-encoding': 'br' });
    expect(again.body.equals(br.body)).toBe(true);

    const gz = await raw(path, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.body).toString('utf8'))).toEqual(expected);
  });

  it('answers concurrent viewers of a cached read from one build, compressed once, with the same bytes', async () => {
    process.env.API_ANON_CACHE = 'on';
    clearApiCache();
    try {
      const path = '/api/aweme/v1/web/tab/feed/?count=10&refresh_index=2';
      const asked = await Promise.all([
        ...Array.from({ length: 8 }, () => raw(path)),
        ...Array.from({ length: 8 }, () => raw(path, { 'accept-encoding': 'br' })),
      ]);
      const plain = asked.slice(0, 8);
      const br = asked.slice(8);
      for (const r of asked) expect(r.status).toBe(200);
      for (const r of plain) expect(r.body.equals(plain[0]!.body)).toBe(true);
      for (const r of br) expect(r.body.equals(br[0]!.body)).toBe(true);
      expect(JSON.parse(zlib.brotliDecompressSync(br[0]!.body).toString('utf8'))).toEqual(
        JSON.parse(plain[0]!.body.toString('utf8')),
      );
      const head = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http.request(`${base}${path}`, { method: 'HEAD' }, resolve).on('error', reject).end(),
      );
      head.resume();
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-type']).toMatch(/^application\/json/);
    } finally {
      process.env.API_ANON_CACHE = 'off';
      clearApiCache();
    }
  });

  /** A POST of `body` on `agent`'s connection; a request that gets no answer within 5 s answers 'no answer'. */
  function post(
    agent: http.Agent,
    path: string,
    body: string,
  ): Promise<{ status: number | string; headers: http.IncomingHttpHeaders; body: string }> {
    return new Promise((resolve) => {
      const headers = {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(Buffer.byteLength(body)),
      };
      const req = http.request(`${base}${path}`, { method: 'POST', headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
      });
      const timer = setTimeout(() => {
        req.destroy();
        resolve({ status: 'no answer', headers: {}, body: '' });
      }, 5000);
      req.on('close', () => clearTimeout(timer));
      req.on('error', (error) => resolve({ status: String(error), headers: {}, body: '' }));
      req.end(body);
    });
  }

  it('closes a connection whose request body it answered without reading, so the client’s next request is answered', async () => {
    // Each refusal comes before the body is read; the rest of the body is left on the connection.
    const refusals: [string, number, number][] = [
      ['/api/video/feed', 2 * 1024 * 1024, 413],
      ['/api/aweme/v1/web/no/such/thing/', 512 * 1024, 404],
      ['/api/aweme/v1/web/tab/feed/', 512 * 1024, 405],
      ['/api/aweme/v1/web/danmaku/send/', 512 * 1024, 401],
    ];
    for (const [path, size, status] of refusals) {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const refused = await post(agent, path, 'x'.repeat(size));
        expect(refused.status, path).toBe(status);
        expect(refused.headers.connection, path).toBe('close');
        const next = await post(agent, '/api/video/feed', 'size=1');
        expect(next.status, `the request after ${path}`).toBe(200);
        expect(JSON.parse(next.body).data).toHaveLength(1);
        // A body read to its end leaves the connection open.
        expect(next.headers.connection).toBe('keep-alive');
      } finally {
        agent.destroy();
      }
    }
  });

  it('answers a method fetch refuses (TRACE) in the family of the route it names', async () => {
    const trace = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .request(`${base}${path}`, { method: 'TRACE' }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
          })
          .on('error', reject)
          .end();
      });
    for (const path of ['/api/aweme/v1/web/tab/feed/', '/api/passport/password']) {
      const res = await trace(path);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ status_code: 2, status_msg: '参数错误' });
    }
    const b = await trace('/api/video/feed');
    expect(JSON.parse(b.body)).toEqual({ code: '400', msg: '参数错误', data: null });
  });

  it('sends small answers and errors as they are', async () => {
    const missing = await raw('/api/aweme/v1/web/aweme/detail/?aweme_id=999999999', { 'accept-encoding': 'br' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(missing.body.toString('utf8')).status_code).not.toBe(0);
  });
});

describe('pickEncoding', () => {
  it('prefers brotli, falls back to gzip and honours q=0', () => {
    expect(pickEncoding(undefined)).toBeUndefined();
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('br;q=0.0, gzip;q=0')).toBeUndefined();
    expect(pickEncoding('*')).toBe('gzip');
  });
});
