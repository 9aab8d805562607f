// Uploads with media in a bucket and more than one process, as a scaled-out site runs: the tus POST reaches one app
// server and the PATCH another (sharing UPLOADS_DIR), a separate `npm run worker` encodes the upload into the bucket,
// and the published work plays from it: through /media/ on an app server and straight from the bucket, as a CDN does.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMediaHandler } from '../../src/server/http/media.ts';
import { serveUpload } from '../../src/server/api/upload.ts';
import { startQueue, stopQueue } from '../../src/server/job-queue.ts';
import { checkVideo } from '../../src/server/media/checks.ts';
import { mediaDir, uploadsDir } from '../../src/server/media/paths.ts';
import { mediaStore } from '../../src/server/media/store.ts';
import { makeClip } from '../setup/clips.ts';
import { startTestS3, type TestS3 } from '../setup/s3.ts';
import { freshDb, type TestDb } from '../setup/test-db.ts';
import { ok, tokenFor } from './helpers.ts';

let t: TestDb;
let s3: TestS3;
let dir: string;
let appA: http.Server;
let baseA: string;
let token: string;
const children: ChildProcess[] = [];
const saved = {
  DATABASE_URL: process.env.DATABASE_URL,
  DATABASE_DIRECT_URL: process.env.DATABASE_DIRECT_URL,
  DATA_DIR: process.env.DATA_DIR,
  UPLOADS_DIR: process.env.UPLOADS_DIR,
};
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts `script` as its own process on this test's database and bucket; resolves once `ready` says it is up. */
async function startProcess(
  script: string,
  ready: (out: string) => boolean,
  env: Record<string, string> = {},
): Promise<string> {
  const child = spawn(process.execPath, [path.resolve(script)], {
    env: {
      ...process.env,
      ...s3.env,
      DATABASE_URL: t.url,
      DATA_DIR: process.env.DATA_DIR,
      UPLOADS_DIR: uploadsDir(),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!ready(out) && child.exitCode === null && Date.now() < deadline) await wait(50);
  if (!ready(out)) throw new Error(`${script} did not start: ${out}`);
  return out;
}

beforeAll(async () => {
  t = await freshDb();
  // The upload locks take their own connections to this database (the direct line), as a server's do.
  process.env.DATABASE_URL = t.url;
  delete process.env.DATABASE_DIRECT_URL;
  s3 = await startTestS3('media');
  dir = mkdtempSync(path.join(tmpdir(), 'upload-s3-'));
  process.env.DATA_DIR = path.join(dir, 'data');
  // Apart from DATA_DIR, as on machines that share only the uploads.
  process.env.UPLOADS_DIR = path.join(dir, 'shared-uploads');
  await startQueue(t.url);
  token = await tokenFor(1);
  // App server A: the upload door and /media/ as server.ts mounts them with a bucket.
  const upload = (req: http.IncomingMessage, res: http.ServerResponse) =>
    void serveUpload(req, res).catch(() => res.destroy());
  const media = createMediaHandler({ roots: [path.resolve('public', 'media')], store: mediaStore() });
  appA = http.createServer((req, res) => {
    if (req.url?.startsWith('/media/')) return void media(req, res).catch(() => res.destroy());
    upload(req, res);
  });
  await new Promise<void>((resolve) => appA.listen(0, '127.0.0.1', resolve));
  baseA = `http://127.0.0.1:${(appA.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
  appA.closeAllConnections();
  await new Promise((resolve) => appA.close(resolve));
  await stopQueue();
  await t.close();
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

it('an upload processed by a separate worker plays from the bucket', { timeout: 120_000 }, async () => {
  const clip = readFileSync(makeClip(dir, 'clip.mp4', { seconds: 2, width: 180, height: 320 }));
  // App server B and the worker, each its own process.
  const portB = (await startProcess('tests/setup/upload-server.ts', (out) => /^\d+\n/.test(out))).trim();
  const baseB = `http://127.0.0.1:${portB}`;
  await startProcess('worker.ts', (out) => out.includes('worker ready'), { WORKER_POLL_SECONDS: '0.5' });

  const tus = { 'Tus-Resumable': '1.0.0', Token: token };
  const created = await fetch(`${baseA}/api/upload`, {
    method: 'POST',
    headers: {
      ...tus,
      'Upload-Length': String(clip.length),
      'Upload-Metadata': `filename ${Buffer.from('云端.mp4').toString('base64')}`,
    },
  });
  expect(created.status).toBe(201);
  const location = created.headers.get('location')!;
  const uploadId = location.split('/').pop()!;
  const half = Math.floor(clip.length / 2);
  const patch = (at: string, from: number, to: number) =>
    fetch(`${at}${location}`, {
      method: 'PATCH',
      headers: { ...tus, 'Upload-Offset': String(from), 'Content-Type': 'application/offset+octet-stream' },
      body: clip.subarray(from, to),
    });
  expect((await patch(baseB, 0, half)).status).toBe(204);
  const head = await fetch(`${baseA}${location}`, { method: 'HEAD', headers: tus });
  expect(head.headers.get('upload-offset')).toBe(String(half));
  expect((await patch(baseA, half, clip.length)).status).toBe(204);

  const work = (
    await ok('POST', '/studio/work/create', { token, json: { uploadId, title: '云端的作品', channelId: 300201 } })
  ).data;
  let status = '';
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    status = (await ok('GET', '/studio/upload', { token, query: { uploadId } })).data.status;
    if (status !== 'processing') break;
    await wait(200);
  }
  expect(status).toBe('ready');
  // The worker marks the upload ready, then publishes the work that waits for it: a moment may pass between the two.
  let done = (await ok('GET', '/studio/work', { token, query: { workId: work.id } })).data;
  while (done.status === 'processing' && Date.now() < deadline) {
    await wait(200);
    done = (await ok('GET', '/studio/work', { token, query: { workId: work.id } })).data;
  }
  expect(done.status).toBe('published');
  const rendition = done.renditions[0].url as string;
  expect(rendition).toMatch(/^\/media\/works\/.+\/540\.mp4$/);

  // The bytes are in the bucket, not on this machine: DATA_DIR/media was never written, the upload is cleaned away.
  expect(existsSync(mediaDir())).toBe(false);
  expect(readdirSync(uploadsDir())).toEqual([]);
  const direct = await fetch(`${s3.endpoint}/${s3.bucket}${rendition}`);
  expect(direct.status).toBe(200);
  expect(direct.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  const bytes = Buffer.from(await direct.arrayBuffer());

  // Through the app server, as a player reads it: a first range, then the rest.
  const first = await fetch(`${baseA}${rendition}`, { headers: { range: 'bytes=0-1023' } });
  expect(first.status).toBe(206);
  expect(first.headers.get('content-range')).toBe(`bytes 0-1023/${bytes.length}`);
  const start = Buffer.from(await first.arrayBuffer());
  const rest = await fetch(`${baseA}${rendition}`, { headers: { range: 'bytes=1024-' } });
  expect(rest.status).toBe(206);
  const served = Buffer.concat([start, Buffer.from(await rest.arrayBuffer())]);
  expect(served.equals(bytes)).toBe(true);
  const played = path.join(dir, 'played.mp4');
  writeFileSync(played, served);
  expect(await checkVideo(played)).toMatchObject({ videoCodec: 'h264', width: 180, height: 320, hasAudio: true });

  // The poster too.
  const poster = await fetch(`${baseA}${done.cover}`);
  expect(poster.status).toBe(200);
  expect(poster.headers.get('content-type')).toBe('image/webp');
  await poster.arrayBuffer();
});
