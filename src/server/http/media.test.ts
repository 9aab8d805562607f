import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  contentTypeFor,
  createMediaHandler,
  etagFor,
  ifRangeHolds,
  noneMatch,
  parseRange,
  safeRelativePath,
} from './media.ts';

describe('parseRange', () => {
  const size = 1000;

  it('answers none without a header, for other units and for malformed values', () => {
    expect(parseRange(undefined, size)).toEqual({ kind: 'none' });
    expect(parseRange('', size)).toEqual({ kind: 'none' });
    expect(parseRange('items=0-5', size)).toEqual({ kind: 'none' });
    expect(parseRange('bytes=abc', size)).toEqual({ kind: 'none' });
    expect(parseRange('bytes=-', size)).toEqual({ kind: 'none' });
    expect(parseRange('bytes=5-1', size)).toEqual({ kind: 'none' });
    expect(parseRange('bytes=1-2-3', size)).toEqual({ kind: 'none' });
    expect(parseRange('bytes 0-5', size)).toEqual({ kind: 'none' });
  });

  it('parses a closed range, inclusive', () => {
    expect(parseRange('bytes=0-99', size)).toEqual({ kind: 'range', start: 0, end: 99 });
    expect(parseRange('bytes=10-10', size)).toEqual({ kind: 'range', start: 10, end: 10 });
    expect(parseRange('Bytes = 0-0', size)).toEqual({ kind: 'range', start: 0, end: 0 });
  });

  it('clamps the end to the last byte', () => {
    expect(parseRange('bytes=900-5000', size)).toEqual({ kind: 'range', start: 900, end: 999 });
  });

  it('parses an open range to the end', () => {
    expect(parseRange('bytes=500-', size)).toEqual({ kind: 'range', start: 500, end: 999 });
    expect(parseRange('bytes=0-', size)).toEqual({ kind: 'range', start: 0, end: 999 });
  });

  it('parses a suffix range, capped at the whole file', () => {
    expect(parseRange('bytes=-100', size)).toEqual({ kind: 'range', start: 900, end: 999 });
    expect(parseRange('bytes=-5000', size)).toEqual({ kind: 'range', start: 0, end: 999 });
  });

  it('is unsatisfiable when no range starts inside the file', () => {
    expect(parseRange('bytes=1000-', size)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=999999999-', size)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', size)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-10', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=2000-3000, 4000-', size)).toEqual({ kind: 'unsatisfiable' });
  });

  it('answers none (whole file) for several satisfiable ranges', () => {
    expect(parseRange('bytes=0-1, 5-6', size)).toEqual({ kind: 'none' });
  });

  it('keeps the one satisfiable range of a list', () => {
    expect(parseRange('bytes=0-9, 5000-6000', size)).toEqual({ kind: 'range', start: 0, end: 9 });
  });

  it('ignores absurdly long range lists', () => {
    const many = Array.from({ length: 40 }, (_, i) => `${i}-${i}`).join(',');
    expect(parseRange(`bytes=${many}`, size)).toEqual({ kind: 'none' });
  });
});

describe('safeRelativePath', () => {
  it('keeps ordinary paths and decodes them', () => {
    expect(safeRelativePath('clips/c01.mp4')).toBe('clips/c01.mp4');
    expect(safeRelativePath('avatars/%E5%A4%B4.webp')).toBe('avatars/头.webp');
  });

  it('rejects every way out of the root', () => {
    for (const bad of [
      '../package.json',
      '..%2f..%2fpackage.json',
      '%2e%2e/%2e%2e/package.json',
      'clips/../../x',
      'clips/./c01.mp4',
      '/etc/passwd',
      '%2fetc%2fpasswd',
      '..%5c..%5cpackage.json',
      'clips%00.mp4',
      'clips//c01.mp4',
      'clips/',
      '',
      '%E0%A4%A',
    ]) {
      expect(safeRelativePath(bad), bad).toBeNull();
    }
  });
});

describe('validators', () => {
  it('makes a strong ETag from size and whole milliseconds', () => {
    expect(etagFor(1000, 1700000000123.7)).toBe('"3e8-18bcfe5687b"');
  });

  it('matches If-None-Match lists, weak tags and *', () => {
    const tag = '"3e8-1"';
    expect(noneMatch('"3e8-1"', tag)).toBe(true);
    expect(noneMatch('"x", W/"3e8-1"', tag)).toBe(true);
    expect(noneMatch('*', tag)).toBe(true);
    expect(noneMatch('"3e8-2"', tag)).toBe(false);
  });

  it('honours If-Range by strong ETag or exact date', () => {
    const mtime = Date.parse('2025-01-02T03:04:05.678Z');
    expect(ifRangeHolds(undefined, '"a"', mtime)).toBe(true);
    expect(ifRangeHolds('"a"', '"a"', mtime)).toBe(true);
    expect(ifRangeHolds('W/"a"', '"a"', mtime)).toBe(false);
    expect(ifRangeHolds('"b"', '"a"', mtime)).toBe(false);
    expect(ifRangeHolds('Thu, 02 Jan 2025 03:04:05 GMT', '"a"', mtime)).toBe(true);
    expect(ifRangeHolds('Thu, 02 Jan 2025 03:04:06 GMT', '"a"', mtime)).toBe(false);
    expect(ifRangeHolds('not a date', '"a"', mtime)).toBe(false);
  });
});

describe('contentTypeFor', () => {
  it('knows the media types the portal serves', () => {
    expect(contentTypeFor('a/b.mp4')).toBe('video/mp4');
    expect(contentTypeFor('b.webp')).toBe('image/webp');
    expect(contentTypeFor('b.JPG')).toBe('image/jpeg');
    expect(contentTypeFor('b.png')).toBe('image/png');
    expect(contentTypeFor('b.webm')).toBe('video/webm');
    expect(contentTypeFor('b.m4a')).toBe('audio/mp4');
    expect(contentTypeFor('manifest.json')).toBe('application/json; charset=utf-8');
    expect(contentTypeFor('b.exe')).toBe('application/octet-stream');
  });
});

describe('createMediaHandler', () => {
  let base = '';
  let server: Server;
  const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'media-test-'));
    await mkdir(path.join(dir, 'built', 'clips'), { recursive: true });
    await mkdir(path.join(dir, 'uploads', 'u'), { recursive: true });
    await writeFile(path.join(dir, 'built', 'clips', 'a.mp4'), body);
    await writeFile(path.join(dir, 'uploads', 'u', 'b.webp'), 'webp');
    await writeFile(path.join(dir, 'secret.txt'), 'secret');
    await symlink(path.join(dir, 'secret.txt'), path.join(dir, 'built', 'clips', 'link.mp4'));
    const handler = createMediaHandler({ roots: [path.join(dir, 'built'), path.join(dir, 'uploads')] });
    server = createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return () => {
      server.close();
      return rm(dir, { recursive: true, force: true });
    };
  });

  const get = (p: string, headers: Record<string, string> = {}, method = 'GET') => fetch(base + p, { method, headers });

  it('serves a whole file with validators and long caching', async () => {
    const res = await get('/media/clips/a.mp4');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.headers.get('last-modified')).toBeTruthy();
    expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
  });

  it('answers a byte range with 206 and the exact bytes', async () => {
    const res = await get('/media/clips/a.mp4', { range: 'bytes=10-19' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect(res.headers.get('content-length')).toBe('10');
    expect(Buffer.from(await res.arrayBuffer()).equals(body.subarray(10, 20))).toBe(true);
  });

  it('answers a suffix range', async () => {
    const res = await get('/media/clips/a.mp4', { range: 'bytes=-5' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 995-999/1000');
    expect((await res.arrayBuffer()).byteLength).toBe(5);
  });

  it('answers 416 with the size for an unsatisfiable range', async () => {
    const res = await get('/media/clips/a.mp4', { range: 'bytes=999999999-' });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe('bytes */1000');
    await res.arrayBuffer();
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const etag = (await get('/media/clips/a.mp4', {}, 'HEAD')).headers.get('etag')!;
    const res = await get('/media/clips/a.mp4', { 'if-none-match': etag });
    expect(res.status).toBe(304);
    expect(res.headers.get('etag')).toBe(etag);
  });

  it('ignores the range when If-Range names another version', async () => {
    const res = await get('/media/clips/a.mp4', { range: 'bytes=0-9', 'if-range': '"old"' });
    expect(res.status).toBe(200);
    expect((await res.arrayBuffer()).byteLength).toBe(1000);
    const etag = (await get('/media/clips/a.mp4', {}, 'HEAD')).headers.get('etag')!;
    const same = await get('/media/clips/a.mp4', { range: 'bytes=0-9', 'if-range': etag });
    expect(same.status).toBe(206);
    await same.arrayBuffer();
  });

  it('answers HEAD without a body', async () => {
    const res = await get('/media/clips/a.mp4', {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('1000');
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it('falls back to the next root (uploads)', async () => {
    const res = await get('/media/u/b.webp');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(await res.text()).toBe('webp');
  });

  it('refuses other methods, missing files, directories, traversal and escaping symlinks', async () => {
    expect((await get('/media/clips/a.mp4', {}, 'POST')).status).toBe(405);
    expect((await get('/media/clips/none.mp4')).status).toBe(404);
    expect((await get('/media/clips')).status).toBe(404);
    expect((await get('/media/..%2fsecret.txt')).status).toBe(400);
    expect((await get('/media/clips%2f..%2f..%2fsecret.txt')).status).toBe(400);
    expect((await get('/media/clips/link.mp4')).status).toBe(404);
  });
});
