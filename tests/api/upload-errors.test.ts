// tus's own refusals (a stale offset, a missing protocol version, bytes past the declared length, a wrong body type,
// an unreadable header, an upload gone from disk, a failing store) in Family B's envelope, with the tus headers clients
// read, and without touching what the upload already stored; a 429 or 503 with its Retry-After.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UNAVAILABLE_RETRY_AFTER_S } from '../../src/server/db/availability.ts';
import { handleUpload } from '../../src/server/api/upload.ts';
import { uploadsDir } from '../../src/server/media/paths.ts';
import { UPLOAD_RATE } from '../../src/server/services/uploads.ts';
import type { TestDb } from '../setup/test-db.ts';
import { openUploadDoor, type UploadDoor } from '../setup/upload-door.ts';
import { tokenFor } from './helpers.ts';

let door: UploadDoor;
let t: TestDb;
let base: string;
let token: string;

beforeAll(async () => {
  door = await openUploadDoor('upload-errors');
  ({ t, base } = door);
  token = await tokenFor(1);
});

afterAll(() => door.close());

const b64 = (s: string) => Buffer.from(s).toString('base64');
const TUS = { 'Tus-Resumable': '1.0.0' };
const OCTETS = { 'Content-Type': 'application/offset+octet-stream' };
// Never sent whole: an upload that finished would be checked as a video.
const bytes = randomBytes(100);

async function newUpload(length = bytes.length): Promise<{ location: string; id: string; file: string }> {
  const res = await fetch(`${base}/api/upload`, {
    method: 'POST',
    headers: {
      ...TUS,
      Token: token,
      'Upload-Length': String(length),
      'Upload-Metadata': `filename ${b64('片段.mp4')},kind ${b64('video')}`,
    },
  });
  expect(res.status).toBe(201);
  const location = res.headers.get('location')!;
  const id = location.split('/').pop()!;
  return { location, id, file: path.join(uploadsDir(), id) };
}

/** A tus request as a client sends it (Tus-Resumable and the token), with `headers` added or, when null, removed. */
function send(
  method: string,
  target: string,
  headers: Record<string, string | null> = {},
  body?: Uint8Array,
): Promise<Response> {
  const all: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...TUS, Token: token, ...headers }))
    if (value !== null) all[name] = value;
  return fetch(`${base}${target}`, { method, headers: all, body: body as Uint8Array<ArrayBuffer> | undefined });
}

const patch = (location: string, offset: number, body: Uint8Array, headers: Record<string, string | null> = {}) =>
  send('PATCH', location, { ...OCTETS, 'Upload-Offset': String(offset), ...headers }, body);

async function offsetOf(location: string): Promise<number> {
  const res = await send('HEAD', location);
  expect(res.status).toBe(200);
  return Number(res.headers.get('upload-offset'));
}

/** The upload holds exactly the first `n` bytes sent, as HEAD and the file on disk both say. */
async function expectStored(u: { location: string; file: string }, n: number): Promise<void> {
  expect(await offsetOf(u.location)).toBe(n);
  expect(readFileSync(u.file).equals(bytes.subarray(0, n))).toBe(true);
}

/** A refusal in Family B's envelope, JSON, with tus's Tus-Resumable: the way the door answers its own. */
async function expectEnvelope(res: Response, status: number, msg: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('tus-resumable')).toBe('1.0.0');
  const text = await res.text();
  expect(() => JSON.parse(text), text).not.toThrow();
  expect(JSON.parse(text)).toEqual({ code: String(status), msg, data: null });
}

describe("tus's own refusals", () => {
  it('409: a PATCH at another offset than the stored one leaves the upload as it was, and the stored offset resumes it', async () => {
    const u = await newUpload();
    expect((await patch(u.location, 0, bytes.subarray(0, 40))).status).toBe(204);

    for (const offset of [0, 60]) {
      const res = await patch(u.location, offset, bytes.subarray(offset, offset + 20));
      await expectEnvelope(res, 409, '上传进度与服务器不一致，请重试');
    }
    await expectStored(u, 40);

    const resumed = await patch(u.location, 40, bytes.subarray(40, 70));
    expect(resumed.status).toBe(204);
    expect(resumed.headers.get('upload-offset')).toBe('70');
    await expectStored(u, 70);
  });

  it('412: a request without Tus-Resumable, or for a version tus does not speak, names the version it does', async () => {
    const u = await newUpload();
    const cases: [string, Record<string, string | null>][] = [
      ['missing', { 'Tus-Resumable': null }],
      ['unsupported', { 'Tus-Resumable': '0.2.2' }],
    ];
    for (const [what, headers] of cases) {
      const res = await patch(u.location, 0, bytes.subarray(0, 10), headers);
      await expectEnvelope(res, 412, '上传协议版本不受支持，请刷新页面后重试');
      expect(res.headers.get('tus-version'), what).toBe('1.0.0');
    }
    const rows = async () => (await t.pool.query<{ n: number }>('select count(*)::int as n from uploads')).rows[0]!.n;
    const before = await rows();
    const create = await send('POST', '/api/upload', { 'Tus-Resumable': null, 'Upload-Length': '100' });
    await expectEnvelope(create, 412, '上传协议版本不受支持，请刷新页面后重试');
    expect(await rows()).toBe(before);
    await expectStored(u, 0);
  });

  it('413: a PATCH past the declared Upload-Length stores none of its bytes', async () => {
    const u = await newUpload(50);
    const over = await patch(u.location, 0, bytes.subarray(0, 51));
    await expectEnvelope(over, 413, '上传的内容超过了声明的文件大小');
    await expectStored(u, 0);

    expect((await patch(u.location, 0, bytes.subarray(0, 30))).status).toBe(204);
    await expectEnvelope(await patch(u.location, 30, bytes.subarray(30, 51)), 413, '上传的内容超过了声明的文件大小');
    await expectStored(u, 30);
  });

  it('415: a PATCH whose body is not application/offset+octet-stream, or says nothing of its type', async () => {
    const u = await newUpload();
    for (const type of ['application/octet-stream', null]) {
      const res = await patch(u.location, 0, bytes.subarray(0, 10), { 'Content-Type': type });
      await expectEnvelope(res, 415, '不支持的请求格式');
    }
    await expectStored(u, 0);
  });

  it('400 and 403: a header tus cannot read, and a PATCH that does not say where its bytes go', async () => {
    const u = await newUpload();
    const cases: [number, string, () => Promise<Response>][] = [
      [400, '参数错误', () => patch(u.location, 0, bytes.subarray(0, 10), { 'Upload-Offset': 'abc' })],
      [400, '参数错误', () => patch(u.location, 0, bytes.subarray(0, 10), { 'Upload-Metadata': 'filename ***' })],
      [400, '参数错误', () => send('POST', '/api/upload', { 'Upload-Length': '007' })],
      [403, '续传时需要告知已上传的大小', () => patch(u.location, 0, bytes.subarray(0, 10), { 'Upload-Offset': null })],
    ];
    for (const [status, msg, request] of cases) await expectEnvelope(await request(), status, msg);
    await expectStored(u, 0);
  });

  it('404 and 410: an upload whose files are gone from disk, or only its bytes', async () => {
    const gone = await newUpload();
    rmSync(gone.file);
    rmSync(`${gone.file}.json`);
    const lost = await newUpload();
    expect((await patch(lost.location, 0, bytes.subarray(0, 10))).status).toBe(204);
    rmSync(lost.file);

    for (const [u, status] of [
      [gone, 404],
      [lost, 410],
    ] as const) {
      await expectEnvelope(await patch(u.location, 0, bytes.subarray(0, 10)), status, '上传的文件不存在或已过期');
      const head = await send('HEAD', u.location);
      expect(head.status).toBe(status);
      expect(head.headers.get('content-type')).toMatch(/^application\/json/);
      expect(head.headers.get('tus-resumable')).toBe('1.0.0');
    }
    expect(existsSync(gone.file) || existsSync(lost.file)).toBe(false);
  });

  it("500: a store that fails answers the envelope's server error without the store's words, and logs it", async () => {
    // A full disk: every write fails.
    const full = await newUpload();
    rmSync(full.file);
    symlinkSync('/dev/full', full.file);
    // A file the store cannot even look at: tus put the error's own message (with the path) in its answer.
    const loop = await newUpload();
    rmSync(loop.file);
    symlinkSync(loop.file, loop.file);

    const log = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const answers: string[] = [];
    let logged: string[];
    try {
      for (const u of [full, loop]) {
        const res = await patch(u.location, 0, bytes.subarray(0, 10));
        answers.push(await res.clone().text());
        await expectEnvelope(res, 500, '服务器开小差了，请稍后再试');
      }
      logged = log.mock.calls.map(([chunk]) => String(chunk));
    } finally {
      log.mockRestore();
    }
    for (const text of answers) expect(text).not.toMatch(/ELOOP|uploads|Something went wrong/);
    expect(logged.find((line) => line.includes(full.id))).toContain('Something went wrong receiving the file');
    expect(logged.find((line) => line.includes(loop.id))).toContain('ELOOP');
  });
});

describe('refusals that say when to come back', () => {
  it('429: a new upload past the hourly limit says when the limit lets it through', async () => {
    const other = await tokenFor(2);
    const hourMs = 60 * 60 * 1000;
    await t.pool.query(
      "insert into rate_limits (key, count, reset_at) values ('upload:2', $1, (extract(epoch from clock_timestamp()) * 1000)::bigint + $2)",
      [UPLOAD_RATE.limit, hourMs],
    );
    const res = await send('POST', '/api/upload', { Token: other, 'Upload-Length': '100' });
    await expectEnvelope(res, 429, '操作太频繁，请稍后再试');
    const wait = Number(res.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(hourMs / 1000 - 60);
    expect(wait).toBeLessThanOrEqual(hourMs / 1000);
  });

  it('503: the database failing inside tus (here while it starts up again) answers Retry-After, through either door', async () => {
    // What PostgreSQL answers while it restarts, raised where tus's creation hook records the upload.
    await t.pool.query(`create function starting_up() returns trigger language plpgsql as $$
      begin raise exception 'the database system is starting up' using errcode = '57P03'; end $$`);
    await t.pool.query(
      'create trigger starting_up before insert on uploads for each row execute function starting_up()',
    );
    const create = { 'Upload-Length': '100', 'Upload-Metadata': `filename ${b64('片段.mp4')},kind ${b64('video')}` };
    try {
      const answers = [
        await send('POST', '/api/upload', create),
        await handleUpload(
          new Request(`${base}/api/upload`, { method: 'POST', headers: { ...TUS, Token: token, ...create } }),
        ),
      ];
      for (const res of answers) {
        await expectEnvelope(res, 503, '服务暂时不可用，请稍后再试');
        expect(res.headers.get('retry-after')).toBe(String(UNAVAILABLE_RETRY_AFTER_S));
        expect(res.headers.get('access-control-expose-headers')).toMatch(/\bRetry-After\b/);
      }
    } finally {
      await t.pool.query('drop trigger starting_up on uploads; drop function starting_up()');
    }
    // Back up: the same request makes its upload.
    expect((await send('POST', '/api/upload', create)).status).toBe(201);
  });
});

describe('the fetch door (astro dev)', () => {
  it('answers the same envelope as the node:http one', async () => {
    const u = await newUpload();
    const res = await handleUpload(
      new Request(`${base}${u.location}`, {
        method: 'PATCH',
        headers: { ...TUS, ...OCTETS, Token: token, 'Upload-Offset': '30' },
        body: bytes.subarray(0, 10),
      }),
    );
    await expectEnvelope(res, 409, '上传进度与服务器不一致，请重试');
    const old = await handleUpload(
      new Request(`${base}${u.location}`, { method: 'HEAD', headers: { Token: token, 'Tus-Resumable': '0.2.2' } }),
    );
    expect(old.status).toBe(412);
    expect(old.headers.get('tus-version')).toBe('1.0.0');
    await expectStored(u, 0);
  });
});
