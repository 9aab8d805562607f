// The upload sweep: which uploads it ends (idle past the limit, judged by the data file's mtime, else by created_at),
// which it keeps (a recent write, another status, a lock held by a PATCH), and which files of the folder it deletes.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { uploads } from '../db/schema.ts';
import { UPLOAD_LOCK_CLASS } from '../http/upload-lock.ts';
import { uploadsDir } from '../media/paths.ts';
import { getUpload, registerUpload, uploadFiles } from '../services/uploads.ts';
import { DEFAULT_UPLOAD_IDLE_MS, sweepUploads, uploadIdleMs } from './sweep-uploads.ts';

let t: TestDb;
let dir: string;
const saved = {
  DATA_DIR: process.env.DATA_DIR,
  UPLOADS_DIR: process.env.UPLOADS_DIR,
  UPLOAD_IDLE_MS: process.env.UPLOAD_IDLE_MS,
};

beforeAll(async () => {
  t = await freshDb();
  dir = mkdtempSync(path.join(tmpdir(), 'sweep-'));
  process.env.DATA_DIR = path.join(dir, 'data');
  delete process.env.UPLOADS_DIR;
  delete process.env.UPLOAD_IDLE_MS;
});

beforeEach(async () => {
  await t.db.delete(uploads);
  rmSync(uploadsDir(), { recursive: true, force: true });
  mkdirSync(uploadsDir(), { recursive: true });
});

afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const HOUR = 60 * 60 * 1000;
const IDLE = DEFAULT_UPLOAD_IDLE_MS;
const ago = (ms: number) => new Date(Date.now() - ms);
const tusId = () => randomBytes(16).toString('hex');

/** Sets a file's mtime (and atime) `ms` ago. */
function age(file: string, ms: number): void {
  const when = ago(ms);
  utimesSync(file, when, when);
}

/** Writes tus's two files of `id`, both last written `ms` ago. */
function writeTusFiles(id: string, ms: number, bytes = 'partial bytes'): void {
  const { data, info } = uploadFiles(id);
  writeFileSync(data, bytes);
  writeFileSync(info, JSON.stringify({ id, size: 1000, offset: 0, metadata: {} }));
  age(data, ms);
  age(info, ms);
}

/** An upload row of user 1 made `createdMs` ago, with `status`. */
async function upload(
  id: string,
  createdMs: number,
  status: 'uploading' | 'processing' | 'ready' | 'rejected' = 'uploading',
): Promise<void> {
  await registerUpload({ id, userId: 1, kind: 'video', fileName: 'clip.mp4', sizeBytes: 1000 });
  await t.db
    .update(uploads)
    .set({ status, createdAt: ago(createdMs) })
    .where(eq(uploads.id, id));
}

async function rowOf(id: string) {
  const [row] = await t.db
    .select({ status: uploads.status, reason: uploads.reason })
    .from(uploads)
    .where(eq(uploads.id, id));
  return row;
}

const filesOf = (id: string) => {
  const { data, info } = uploadFiles(id);
  return { data: existsSync(data), info: existsSync(info) };
};

describe('sweepUploads', () => {
  it('ends an upload idle past the limit: files gone, refused as expired, as the studio shows it', async () => {
    const id = tusId();
    await upload(id, 3 * 24 * HOUR);
    writeTusFiles(id, IDLE + HOUR);
    mkdirSync(`${uploadFiles(id).data}.work`);

    expect(await sweepUploads()).toEqual({ expired: 1, strays: 0 });
    expect(filesOf(id)).toEqual({ data: false, info: false });
    expect(existsSync(`${uploadFiles(id).data}.work`)).toBe(false);
    expect(await rowOf(id)).toEqual({ status: 'rejected', reason: 'error.uploadExpired' });
    expect(await getUpload(1, id)).toMatchObject({
      status: 'rejected',
      reason: '上传已过期，请重新上传',
      receivedBytes: 0,
    });
  });

  it('keeps an upload written to recently, however long ago it was made', async () => {
    const id = tusId();
    await upload(id, 30 * 24 * HOUR);
    writeTusFiles(id, IDLE - HOUR);

    expect(await sweepUploads()).toEqual({ expired: 0, strays: 0 });
    expect(filesOf(id)).toEqual({ data: true, info: true });
    expect(await rowOf(id)).toEqual({ status: 'uploading', reason: null });
  });

  it('judges an upload without a data file by when its row was made', async () => {
    const old = tusId();
    const young = tusId();
    await upload(old, IDLE + HOUR);
    await upload(young, IDLE - HOUR);

    expect(await sweepUploads()).toEqual({ expired: 1, strays: 0 });
    expect((await rowOf(old))?.status).toBe('rejected');
    expect((await rowOf(young))?.status).toBe('uploading');
  });

  it('leaves uploads in any other status alone, files and all', async () => {
    const ids = { processing: tusId(), ready: tusId(), rejected: tusId() } as const;
    for (const [status, id] of Object.entries(ids)) {
      await upload(id, 3 * 24 * HOUR, status as keyof typeof ids);
      writeTusFiles(id, 2 * IDLE);
    }

    expect(await sweepUploads()).toEqual({ expired: 0, strays: 0 });
    for (const [status, id] of Object.entries(ids)) {
      expect(filesOf(id), status).toEqual({ data: true, info: true });
      expect((await rowOf(id))?.status, status).toBe(status);
    }
  });

  it('passes over an upload whose tus lock a request holds, and ends it once the lock is free', async () => {
    const id = tusId();
    await upload(id, 3 * 24 * HOUR);
    writeTusFiles(id, IDLE + HOUR);
    // A PATCH in flight on another app server: the session-level lock tus's UploadLocker takes.
    const patching = await t.pool.connect();
    try {
      await patching.query('select pg_advisory_lock($1, hashtext($2))', [UPLOAD_LOCK_CLASS, id]);
      expect(await sweepUploads()).toEqual({ expired: 0, strays: 0 });
      expect(filesOf(id)).toEqual({ data: true, info: true });
      expect((await rowOf(id))?.status).toBe('uploading');
      await patching.query('select pg_advisory_unlock($1, hashtext($2))', [UPLOAD_LOCK_CLASS, id]);
    } finally {
      patching.release();
    }
    expect(await sweepUploads()).toEqual({ expired: 1, strays: 0 });
  });

  it("deletes old tus files that belong to no upload, and nothing else of the folder's", async () => {
    const stray = tusId();
    const infoOnly = tusId();
    const fresh = tusId();
    writeTusFiles(stray, IDLE + HOUR);
    writeFileSync(uploadFiles(infoOnly).info, '{}');
    age(uploadFiles(infoOnly).info, 2 * IDLE);
    writeTusFiles(fresh, HOUR);
    // Old files that are not tus's: an operator's note, a poster scratch file, a folder, a name that only looks alike.
    const others = ['README.txt', `${tusId()}-abc123.webp`, `${tusId()}.JSON`, `${tusId()}.json.bak`, 'abc.json'];
    for (const name of others) {
      writeFileSync(path.join(uploadsDir(), name), 'x');
      age(path.join(uploadsDir(), name), 2 * IDLE);
    }
    const folder = path.join(uploadsDir(), tusId());
    mkdirSync(folder);

    expect(await sweepUploads()).toEqual({ expired: 0, strays: 2 });
    expect(filesOf(stray)).toEqual({ data: false, info: false });
    expect(filesOf(infoOnly).info).toBe(false);
    expect(filesOf(fresh)).toEqual({ data: true, info: true });
    for (const name of others) expect(existsSync(path.join(uploadsDir(), name)), name).toBe(true);
    expect(existsSync(folder)).toBe(true);
  });

  it('keeps an old file of a stray whose other file was written recently', async () => {
    const id = tusId();
    writeTusFiles(id, 2 * IDLE);
    age(uploadFiles(id).data, HOUR);

    expect(await sweepUploads()).toEqual({ expired: 0, strays: 0 });
    expect(filesOf(id)).toEqual({ data: true, info: true });
  });

  it('does no harm when run twice, or with no uploads folder at all', async () => {
    const id = tusId();
    const stray = tusId();
    await upload(id, 3 * 24 * HOUR);
    writeTusFiles(id, IDLE + HOUR);
    writeTusFiles(stray, IDLE + HOUR);

    expect(await sweepUploads()).toEqual({ expired: 1, strays: 1 });
    const [before] = await t.db.select().from(uploads).where(eq(uploads.id, id));
    expect(await sweepUploads()).toEqual({ expired: 0, strays: 0 });
    const [after] = await t.db.select().from(uploads).where(eq(uploads.id, id));
    expect(after).toEqual(before);

    rmSync(uploadsDir(), { recursive: true });
    expect(await sweepUploads()).toEqual({ expired: 0, strays: 0 });
  });

  it('follows UPLOAD_IDLE_MS, 24 hours when unset, and refuses one that is no whole number', async () => {
    expect(uploadIdleMs()).toBe(24 * HOUR);
    process.env.UPLOAD_IDLE_MS = String(HOUR);
    try {
      expect(uploadIdleMs()).toBe(HOUR);
      const id = tusId();
      await upload(id, 3 * HOUR);
      writeTusFiles(id, 2 * HOUR);
      expect(await sweepUploads()).toEqual({ expired: 1, strays: 0 });
      process.env.UPLOAD_IDLE_MS = 'soon';
      expect(() => uploadIdleMs()).toThrow(/UPLOAD_IDLE_MS: expected a whole number/);
    } finally {
      delete process.env.UPLOAD_IDLE_MS;
    }
  });
});
