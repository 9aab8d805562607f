// The tus door: who may upload, the cap on the declared length before any byte is stored, the content checks, and
// resuming after the server is killed or on another server while a stale PATCH holds the upload.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQueue, stopQueue } from '../../src/server/job-queue.ts';
import { DEFAULT_UPLOAD_IDLE_MS, sweepUploads } from '../../src/server/jobs/sweep-uploads.ts';
import { uploadsDir } from '../../src/server/media/paths.ts';
import { uploadFiles } from '../../src/server/services/uploads.ts';
import { makeClip, makeFakeVideo } from '../setup/clips.ts';
import type { TestDb } from '../setup/test-db.ts';
import { openUploadDoor, type UploadDoor } from '../setup/upload-door.ts';
import { call, ok, tokenFor } from './helpers.ts';

let door: UploadDoor;
let t: TestDb;
let dir: string;
let base: string;
let token: string;
let otherToken: string;
let clip: Buffer;

beforeAll(async () => {
  door = await openUploadDoor('upload-api', ['UPLOAD_MAX_BYTES']);
  ({ t, dir, base } = door);
  clip = readFileSync(makeClip(dir, 'clip.mp4'));
  await startQueue(t.url);
  token = await tokenFor(1);
  otherToken = await tokenFor(2);
});

afterAll(async () => {
  await stopQueue();
  await door.close();
});

const b64 = (s: string) => Buffer.from(s).toString('base64');
const tus = { 'Tus-Resumable': '1.0.0' };

function create(
  length: number,
  o: { token?: string; kind?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetch(`${base}/api/upload`, {
    method: 'POST',
    headers: {
      ...tus,
      'Upload-Length': String(length),
      'Upload-Metadata': `filename ${b64('片段.mp4')},kind ${b64(o.kind ?? 'video')}`,
      ...(o.token ? { Token: o.token } : {}),
      ...o.headers,
    },
  });
}

function patch(location: string, bytes: Uint8Array, offset: number, who = token, at = base): Promise<Response> {
  return fetch(`${at}${location}`, {
    method: 'PATCH',
    headers: { ...tus, Token: who, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
}

const stored = () => (existsSync(uploadsDir()) ? readdirSync(uploadsDir()) : []);

describe('tus uploads', () => {
  it('refuses anyone not logged in', async () => {
    const before = stored();
    const res = await create(clip.length);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: '401', msg: '请先登录', data: null });
    expect(stored()).toEqual(before);
  });

  it('refuses a declared length over UPLOAD_MAX_BYTES before storing a byte, and a deferred length', async () => {
    process.env.UPLOAD_MAX_BYTES = '1000';
    try {
      const before = stored();
      const res = await create(5000, { token });
      expect(res.status).toBe(413);
      expect((await res.json()).msg).toBe('文件不能超过1000B');
      expect(stored()).toEqual(before);
      const cfg = await ok('GET', '/studio/config');
      expect(cfg.data.maxBytes).toBe(1000);

      const deferred = await fetch(`${base}/api/upload`, {
        method: 'POST',
        headers: { ...tus, Token: token, 'Upload-Defer-Length': '1' },
      });
      expect(deferred.status).toBe(400);
      expect(stored()).toEqual(before);
    } finally {
      delete process.env.UPLOAD_MAX_BYTES;
    }
    expect((await ok('GET', '/studio/config')).data.maxBytes).toBe(500 * 1024 * 1024);
  });

  /** A request sent with its target as written (fetch would resolve `..`, as a browser does). */
  function rawRequest(
    method: string,
    target: string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
    return new Promise((resolve, reject) => {
      const { port } = new URL(base);
      http
        .request(
          { host: '127.0.0.1', port, method, path: target, headers: { ...tus, Token: token, ...headers } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () =>
              resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
            );
          },
        )
        .on('error', reject)
        .end(method === 'PATCH' ? 'abc' : undefined);
    });
  }

  it('answers only what tus serves, in the envelope, and reads an upload path as tus reads it', async () => {
    const created = await create(clip.length, { token });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const uploads = async () =>
      (await t.pool.query<{ n: number }>('select count(*)::int as n from uploads')).rows[0]!.n;
    const before = { rows: await uploads(), files: stored() };

    // A POST to an upload had tus create another one, past the door's checks: here a deferred length.
    const post = await rawRequest('POST', location, { 'Upload-Defer-Length': '1' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('HEAD, PATCH, DELETE, OPTIONS');
    expect(JSON.parse(post.body)).toEqual({ code: '405', msg: '不支持的请求方法', data: null });
    for (const [method, target] of [
      ['GET', '/api/upload'],
      ['PATCH', '/api/upload'],
      ['DELETE', '/api/upload/'],
      ['GET', location],
      ['PUT', location],
    ]) {
      const res = await rawRequest(method!, target!);
      expect(res.status, `${method} ${target}`).toBe(405);
      expect(JSON.parse(res.body).code).toBe('405');
    }
    // Parallel uploads (tus answered 501), and a length both declared and deferred.
    const odd: Record<string, string>[] = [
      { 'Upload-Concat': 'partial' },
      { 'Upload-Concat': `final;${location}` },
      { 'Upload-Defer-Length': '1' },
    ];
    for (const headers of odd) {
      const res = await create(10, { token, headers });
      expect(res.status, JSON.stringify(headers)).toBe(400);
      expect((await res.json()).code).toBe('400');
    }
    expect(await uploads()).toBe(before.rows);
    expect(stored()).toEqual(before.files);

    // Dot segments name no upload of the viewer's: tus would act on the upload `..` the door took for the endpoint.
    for (const target of ['/api/upload/..', '/api/upload/%2e%2e', '/api/upload/.', `${location}/..`]) {
      for (const method of ['HEAD', 'PATCH', 'DELETE']) {
        const res = await rawRequest(method, target, {
          'Upload-Offset': '0',
          'Content-Type': 'application/offset+octet-stream',
        });
        expect(res.status, `${method} ${target}`).toBe(404);
        expect(res.headers['content-type'], `${method} ${target}`).toMatch(/^application\/json/);
        if (method !== 'HEAD')
          expect(JSON.parse(res.body)).toEqual({ code: '404', msg: '上传的文件不存在或已过期', data: null });
      }
    }
    const head = await fetch(`${base}${location}`, { method: 'HEAD', headers: { ...tus, Token: token } });
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe('0');
  });

  it('takes a clip in two PATCHes, checks it and queues it; others cannot see or touch it', async () => {
    const created = await create(clip.length, { token });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;
    const half = Math.floor(clip.length / 2);
    expect((await patch(location, clip.subarray(0, half), 0)).status).toBe(204);

    const head = await fetch(`${base}${location}`, { method: 'HEAD', headers: { ...tus, Token: token } });
    expect(head.headers.get('upload-offset')).toBe(String(half));
    const progress = await ok('GET', '/studio/upload', { query: { uploadId: id }, token });
    expect(progress.data).toMatchObject({
      status: 'uploading',
      receivedBytes: half,
      sizeBytes: clip.length,
      fileName: '片段.mp4',
    });

    expect((await fetch(`${base}${location}`, { method: 'HEAD', headers: { ...tus, Token: otherToken } })).status).toBe(
      404,
    );
    expect((await patch(location, clip.subarray(half), half, otherToken)).status).toBe(404);
    expect((await call('GET', '/api/studio/upload', { query: { uploadId: id }, token: otherToken })).status).toBe(404);

    expect((await patch(location, clip.subarray(half), half)).status).toBe(204);
    const done = await ok('GET', '/studio/upload', { query: { uploadId: id }, token });
    expect(done.data).toMatchObject({ status: 'processing', width: 180, height: 320, reason: null });
  });

  it('refuses a text file named .mp4 when its last byte arrives, and keeps nothing of it', async () => {
    const fake = readFileSync(makeFakeVideo(dir));
    const created = await create(fake.length, { token });
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;
    const res = await patch(location, fake, 0);
    expect(res.status).toBe(415);
    expect((await res.json()).msg).toBe('文件不是支持的视频格式，请上传 MP4、MOV、WebM 或 MKV 视频');
    expect(stored().filter((f) => f.startsWith(id))).toEqual([]);
    const view = await ok('GET', '/studio/upload', { query: { uploadId: id }, token });
    expect(view.data).toMatchObject({
      status: 'rejected',
      reason: '文件不是支持的视频格式，请上传 MP4、MOV、WebM 或 MKV 视频',
    });
  });

  it('answers a client that resumes a swept upload 404 in the envelope, so it starts over', async () => {
    const created = await create(clip.length, { token });
    const location = created.headers.get('location')!;
    const id = location.split('/').pop()!;
    const half = Math.floor(clip.length / 2);
    expect((await patch(location, clip.subarray(0, half), 0)).status).toBe(204);
    // The tab was closed two days ago.
    const then = new Date(Date.now() - 2 * DEFAULT_UPLOAD_IDLE_MS);
    await t.pool.query('update uploads set created_at = $2 where id = $1', [id, then]);
    utimesSync(uploadFiles(id).data, then, then);

    expect((await sweepUploads()).expired).toBeGreaterThanOrEqual(1);
    expect(stored().filter((f) => f.startsWith(id))).toEqual([]);
    const view = await ok('GET', '/studio/upload', { query: { uploadId: id }, token });
    expect(view.data).toMatchObject({ status: 'rejected', reason: '上传已过期，请重新上传', receivedBytes: 0 });

    const head = await fetch(`${base}${location}`, { method: 'HEAD', headers: { ...tus, Token: token } });
    expect(head.status).toBe(404);
    expect(head.headers.get('content-type')).toMatch(/^application\/json/);
    const resumed = await patch(location, clip.subarray(half), half);
    expect(resumed.status).toBe(404);
    expect(await resumed.json()).toEqual({ code: '404', msg: '上传的文件不存在或已过期', data: null });
    expect(stored().filter((f) => f.startsWith(id))).toEqual([]);

    // Published from a tab still open on it: it was never checked, so the answer does not say 未通过检查.
    const publish = await call('POST', '/studio/work/create', {
      token,
      json: { uploadId: id, title: '过期的作品', channelId: 300201 },
    });
    expect(publish.status, publish.text).toBe(400);
    expect(publish.body).toMatchObject({ msg: '上传已过期，请重新上传' });
  });
});

describe('resuming after the server is killed, or on another server', () => {
  let child: ChildProcess | undefined;

  async function startChild(): Promise<string> {
    child = spawn(process.execPath, [path.resolve('tests/setup/upload-server.ts')], {
      env: { ...process.env, DATABASE_URL: t.url, DATA_DIR: process.env.DATA_DIR },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const port = await new Promise<string>((resolve, reject) => {
      child!.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
      child!.once('exit', (code) => reject(new Error(`upload server exited with ${code}`)));
    });
    return `http://127.0.0.1:${port}`;
  }

  afterAll(() => {
    child?.kill('SIGKILL');
  });

  /** A PATCH of all of `body` that sends its first `sent` bytes, waits until they are on disk and stays open. */
  async function holdPatch(at: string, location: string, body: Buffer, sent: number): Promise<http.ClientRequest> {
    const req = http.request(`${at}${location}`, {
      method: 'PATCH',
      headers: {
        ...tus,
        Token: token,
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(body.length),
      },
    });
    req.on('error', () => {});
    req.on('response', (res) => res.resume());
    req.write(body.subarray(0, sent));
    const file = path.join(uploadsDir(), location.split('/').pop()!);
    const deadline = Date.now() + 20_000;
    while ((existsSync(file) ? statSync(file).size : 0) < sent && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    return req;
  }

  it('keeps the bytes that reached disk, and HEAD + PATCH finish the upload on the restarted server', async () => {
    const big = clip;
    let at = await startChild();
    const created = await fetch(`${at}/api/upload`, {
      method: 'POST',
      headers: {
        ...tus,
        Token: token,
        'Upload-Length': String(big.length),
        'Upload-Metadata': `filename ${b64('resume.mp4')}`,
      },
    });
    const location = created.headers.get('location')!;
    const file = path.join(uploadsDir(), location.split('/').pop()!);

    // Send the first half and hold the request open, as a connection that drops mid-upload would.
    const half = Math.floor(big.length / 2);
    const req = await holdPatch(at, location, big, half);
    child!.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    req.destroy();

    at = await startChild();
    const head = await fetch(`${at}${location}`, { method: 'HEAD', headers: { ...tus, Token: token } });
    expect(head.status).toBe(200);
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe(half);
    const res = await patch(location, big.subarray(offset), offset, token, at);
    expect(res.status).toBe(204);
    expect(statSync(file).size).toBe(big.length);
    const view = await ok('GET', '/studio/upload', { query: { uploadId: location.split('/').pop()! }, token });
    expect(view.data.status).toBe('processing');
  });

  it('lets a client that resumes on another server take the upload from the stale PATCH still open on the first', async () => {
    if (child?.exitCode === null) {
      child.kill('SIGKILL');
      await new Promise((r) => child!.once('exit', r));
    }
    const other = await startChild();
    const created = await create(clip.length, { token });
    const location = created.headers.get('location')!;
    const file = path.join(uploadsDir(), location.split('/').pop()!);

    // The first half goes to the other server on a connection that then stalls, as a dropped one looks from there.
    const half = Math.floor(clip.length / 2);
    const stale = await holdPatch(other, location, clip, half);

    // The client resumes here: this server asks the other to let go of the upload, then takes the rest.
    const head = await fetch(`${base}${location}`, { method: 'HEAD', headers: { ...tus, Token: token } });
    const offset = Number(head.headers.get('upload-offset'));
    expect(offset).toBe(half);
    expect((await patch(location, clip.subarray(offset), offset)).status).toBe(204);

    // Bytes the stale connection delivers late must not land in the file.
    stale.write(Buffer.alloc(clip.length - half, 0x58));
    stale.end();
    await new Promise((r) => setTimeout(r, 500));
    expect(readFileSync(file).equals(clip)).toBe(true);
  });
});
