// The S3 driver of the media store against a real S3-compatible server (s3rver): put, head, ranged reads, download,
// removal by key and by prefix, missing keys, the key prefix of MEDIA_STORE, and the copy of local media into a bucket.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../../../tests/setup/s3.ts';
import { copyToStore } from './copy-to-store.ts';
import { s3Store, type S3Store } from './s3-store.ts';
import { loadConfig } from '../config.ts';
import { mediaStore } from './store.ts';

let s3: TestS3;
let dir: string;
let store: S3Store;
let serial = 0;

beforeAll(async () => {
  s3 = await startTestS3('media');
  dir = mkdtempSync(path.join(tmpdir(), 's3-store-'));
  store = s3Store({ bucket: s3.bucket, prefix: 'media' });
});

afterAll(async () => {
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A local file of `bytes`, as the transcoder leaves one. */
function local(bytes: Buffer | string): string {
  const file = path.join(dir, `f${++serial}`);
  writeFileSync(file, bytes);
  return file;
}

const bytesOf = (n: number, seed = 1) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251));

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The object as a browser (or a CDN) fetches it from the bucket, without credentials. */
const fromBucket = (key: string, init?: RequestInit) => fetch(`${s3.endpoint}/${s3.bucket}/${key}`, init);

describe('MEDIA_STORE', () => {
  const parse = (value: string | undefined) => loadConfig({ MEDIA_STORE: value }).MEDIA_STORE;
  it('reads local, a bucket and a bucket with a prefix', () => {
    expect(parse(undefined)).toEqual({ kind: 'local' });
    expect(parse('local')).toEqual({ kind: 'local' });
    expect(parse('s3://shanying')).toEqual({ kind: 's3', bucket: 'shanying', prefix: '' });
    expect(parse('s3://shanying/media/')).toEqual({ kind: 's3', bucket: 'shanying', prefix: 'media' });
    expect(parse('s3://my.bucket-1/a/b')).toEqual({ kind: 's3', bucket: 'my.bucket-1', prefix: 'a/b' });
  });

  it('refuses anything else with the reason', () => {
    for (const bad of ['s3', 'gs://bucket', 's3://', 's3://Upper', 's3://b', 's3://bucket/../x', 'file:///tmp']) {
      expect(() => parse(bad), bad).toThrow(/MEDIA_STORE: expected 'local' or s3:/);
    }
  });
});

describe('the S3 media store', () => {
  it('puts a file under the prefix with its type and immutable caching, and the local file is gone', async () => {
    const body = bytesOf(70_000);
    const file = local(body);
    await store.put(file, 'works/u1/540.mp4');
    expect(existsSync(file)).toBe(false);

    const res = await fromBucket('media/works/u1/540.mp4');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
    // Nothing at the bucket's root: the key is under the prefix.
    expect((await fromBucket('works/u1/540.mp4')).status).toBe(404);
  });

  it('heads, reads a byte range and downloads a key', async () => {
    const body = bytesOf(5000, 7);
    await store.put(local(body), 'works/u2/poster-a.webp');
    const head = await store.head('works/u2/poster-a.webp');
    expect(head).toMatchObject({ size: 5000, etag: expect.stringMatching(/^"[0-9a-f]{32}"$/) });
    expect(await readAll(await store.read('works/u2/poster-a.webp', 100, 199, head!.etag))).toEqual(body.subarray(100, 200));

    const opened = await store.open('works/u2/poster-a.webp');
    expect(readFileSync(opened.file).equals(body)).toBe(true);
    await opened.release();
    expect(existsSync(opened.file)).toBe(false);
  });

  it('refuses a ranged read of a file replaced since its head', async () => {
    await store.put(local('first'), 'works/u3/540.mp4');
    const head = await store.head('works/u3/540.mp4');
    await store.put(local('second'), 'works/u3/540.mp4');
    await expect(store.read('works/u3/540.mp4', 0, 4, head!.etag)).rejects.toThrow(/changed/);
  });

  it('answers a missing key: head null, open rejects, remove is no error', async () => {
    expect(await store.head('works/none/540.mp4')).toBeNull();
    await expect(store.open('works/none/540.mp4')).rejects.toThrow(/not found/);
    await expect(store.remove(['works/none/540.mp4'], ['works/none'])).resolves.toBeUndefined();
  });

  it('removes keys and everything under a prefix, and nothing beside them', async () => {
    for (const key of ['works/a/540.mp4', 'works/a/720.mp4', 'works/a/poster-1.webp', 'works/ab/540.mp4', 'profiles/9/avatar-1.webp', 'profiles/9/avatar-2.webp']) {
      await store.put(local(key), key);
    }
    // An object outside the store's prefix is not the store's.
    await s3Store({ bucket: s3.bucket, prefix: 'other' }).put(local('x'), 'works/a/540.mp4');

    await store.remove(['profiles/9/avatar-1.webp'], ['works/a']);
    const left: string[] = [];
    for await (const o of store.list()) left.push(o.key);
    expect(left).toContain('works/ab/540.mp4');
    expect(left).toContain('profiles/9/avatar-2.webp');
    for (const gone of ['works/a/540.mp4', 'works/a/720.mp4', 'works/a/poster-1.webp', 'profiles/9/avatar-1.webp']) expect(left).not.toContain(gone);
    expect((await fromBucket('other/works/a/540.mp4')).status).toBe(200);
  });

  it('is what mediaStore() gives when MEDIA_STORE names the bucket', async () => {
    await mediaStore().put(local('via the setting'), 'profiles/1/avatar-x.webp');
    expect(await (await fromBucket('media/profiles/1/avatar-x.webp')).text()).toBe('via the setting');
    expect(() => {
      process.env.MEDIA_STORE = 'ftp://nope';
      try {
        mediaStore();
      } finally {
        process.env.MEDIA_STORE = s3.env.MEDIA_STORE;
      }
    }).toThrow(/MEDIA_STORE: expected 'local' or s3:/);
  });
});

describe('copying local media into the bucket', () => {
  it('copies every file once, an earlier directory winning, and a second run copies nothing', async () => {
    const sample = path.join(dir, 'sample');
    const data = path.join(dir, 'data-media');
    mkdirSync(path.join(sample, 'clips'), { recursive: true });
    mkdirSync(path.join(data, 'works', 'w9'), { recursive: true });
    writeFileSync(path.join(sample, 'clips', 'c01.mp4'), bytesOf(3000, 3));
    writeFileSync(path.join(sample, 'clips', 'shared.webp'), 'from the sample');
    writeFileSync(path.join(data, 'works', 'w9', '540.mp4'), bytesOf(2000, 9));
    mkdirSync(path.join(data, 'clips'), { recursive: true });
    writeFileSync(path.join(data, 'clips', 'shared.webp'), 'from the data dir');
    const target = s3Store({ bucket: s3.bucket, prefix: 'copied' });

    const first = await copyToStore(target, [sample, data]);
    expect(first.map(({ files, copied, skipped }) => ({ files, copied, skipped }))).toEqual([
      { files: 2, copied: 2, skipped: 0 },
      { files: 1, copied: 1, skipped: 0 },
    ]);
    expect(await (await fromBucket('copied/clips/shared.webp')).text()).toBe('from the sample');
    expect(Buffer.from(await (await fromBucket('copied/works/w9/540.mp4')).arrayBuffer()).equals(bytesOf(2000, 9))).toBe(true);
    // The source files stay where they are.
    expect(existsSync(path.join(data, 'works', 'w9', '540.mp4'))).toBe(true);

    const second = await copyToStore(target, [sample, data]);
    expect(second.map((c) => c.copied)).toEqual([0, 0]);
    expect(second.map((c) => c.skipped)).toEqual([2, 1]);

    // Same size, other bytes: copied again.
    writeFileSync(path.join(sample, 'clips', 'c01.mp4'), bytesOf(3000, 4));
    const third = await copyToStore(target, [sample, data]);
    expect(third.map((c) => c.copied)).toEqual([1, 0]);
    expect(Buffer.from(await (await fromBucket('copied/clips/c01.mp4')).arrayBuffer()).equals(bytesOf(3000, 4))).toBe(true);
  });

  it('npm run media:to-store copies the sample media and DATA_DIR/media, then finds them there', { timeout: 60_000 }, async () => {
    const dataDir = path.join(dir, 'cmd-data');
    mkdirSync(path.join(dataDir, 'media', 'works', 'w1'), { recursive: true });
    writeFileSync(path.join(dataDir, 'media', 'works', 'w1', '540.mp4'), bytesOf(1234));
    // Asynchronously: the S3 server answers from this process.
    const run = (env: Record<string, string>) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['scripts/media-to-store.ts'], { env: { ...process.env, ...env } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      });
    const toBucket = { ...s3.env, MEDIA_STORE: `s3://${s3.bucket}/cmd`, DATA_DIR: dataDir };
    const first = await run(toBucket);
    expect(first.status, first.stderr).toBe(0);
    const [sampleLine, dataLine] = first.stdout.trim().split('\n');
    expect(sampleLine).toMatch(/^public\/media → s3:\/\/shanying-test\/cmd: (\d+) files, \1 copied \(.+ MB\), 0 already there$/);
    expect(dataLine).toMatch(/ 1 files, 1 copied \(0\.0 MB\), 0 already there$/);
    expect((await fromBucket('cmd/works/w1/540.mp4')).status).toBe(200);
    const second = await run(toBucket);
    expect(second.stdout).toMatch(/^public\/media → .+: (\d+) files, 0 copied \(0\.0 MB\), \1 already there$/m);
    expect(second.stdout).toMatch(/ 1 files, 0 copied \(0\.0 MB\), 1 already there$/m);

    const refused = await run({ MEDIA_STORE: 'local' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('MEDIA_STORE names no bucket');
  });
});
