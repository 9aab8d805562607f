// /media/ when media lives in a bucket and no CDN answers first: the app server streams from the store (s3rver here)
// with the same byte ranges, validators and caching as from local disk; files shipped with the app still come first.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../../../tests/setup/s3.ts';
import { mediaStore } from '../media/store.ts';
import { createMediaHandler } from './media.ts';

let s3: TestS3;
let dir: string;
let server: Server;
let base = '';
const body = Buffer.from(Array.from({ length: 65_536 }, (_, i) => (i * 7) % 256));

beforeAll(async () => {
  s3 = await startTestS3('media');
  dir = await mkdtemp(path.join(tmpdir(), 'media-store-'));
  await mkdir(path.join(dir, 'sample', 'clips'), { recursive: true });
  await writeFile(path.join(dir, 'sample', 'clips', 'c01.mp4'), 'shipped with the app');
  const store = mediaStore();
  await writeFile(path.join(dir, 'r'), body);
  await store.put(path.join(dir, 'r'), 'works/w1/540.mp4');
  await writeFile(path.join(dir, 'c'), 'in the bucket');
  await store.put(path.join(dir, 'c'), 'clips/c01.mp4');
  const handler = createMediaHandler({ roots: [path.join(dir, 'sample')], store });
  server = createServer((req, res) => void handler(req, res).catch(() => res.destroy()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await s3.close();
  await rm(dir, { recursive: true, force: true });
});

const get = (p: string, headers: Record<string, string> = {}, method = 'GET') => fetch(base + p, { method, headers });
const url = '/media/works/w1/540.mp4';

describe('/media/ from the bucket', () => {
  it('serves a whole object with its length, strong ETag and immutable caching', async () => {
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-length')).toBe('65536');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
  });

  it('answers byte ranges with 206 and the exact bytes, as a seeking player asks', async () => {
    const res = await get(url, { range: 'bytes=1000-1999' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 1000-1999/65536');
    expect(res.headers.get('content-length')).toBe('1000');
    expect(Buffer.from(await res.arrayBuffer()).equals(body.subarray(1000, 2000))).toBe(true);

    const open = await get(url, { range: 'bytes=65000-' });
    expect(open.status).toBe(206);
    expect(open.headers.get('content-range')).toBe('bytes 65000-65535/65536');
    expect(Buffer.from(await open.arrayBuffer()).equals(body.subarray(65000))).toBe(true);

    const suffix = await get(url, { range: 'bytes=-16' });
    expect(suffix.headers.get('content-range')).toBe('bytes 65520-65535/65536');
    expect(Buffer.from(await suffix.arrayBuffer()).equals(body.subarray(-16))).toBe(true);
  });

  it('answers 416 past the end, 304 to its ETag, and the whole object when If-Range is stale', async () => {
    const past = await get(url, { range: 'bytes=70000-' });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */65536');
    await past.arrayBuffer();

    const head = await get(url, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('65536');
    const etag = head.headers.get('etag')!;
    const cached = await get(url, { 'if-none-match': etag });
    expect(cached.status).toBe(304);
    expect(cached.headers.get('etag')).toBe(etag);

    const stale = await get(url, { range: 'bytes=0-9', 'if-range': '"0123"' });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(65_536);
    const fresh = await get(url, { range: 'bytes=0-9', 'if-range': etag });
    expect(fresh.status).toBe(206);
    await fresh.arrayBuffer();
  });

  it('serves files shipped with the app before the bucket, and 404 for what neither has', async () => {
    expect(await (await get('/media/clips/c01.mp4')).text()).toBe('shipped with the app');
    const missing = await get('/media/works/none/540.mp4');
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
  });

  it('refuses a path that could leave the media root before asking the bucket', async () => {
    const res = await get('/media/works/%2e%2e/%2e%2e/secret');
    expect(res.status).toBe(400);
    await res.arrayBuffer();
  });
});
