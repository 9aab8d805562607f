// A worker killed with SIGKILL in the middle of an encode: its job stops sending heartbeats, pg-boss fails it and
// retries it, and the next worker finishes and publishes the work.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeClip } from '../../../tests/setup/clips.ts';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { uploads } from '../db/schema.ts';
import { uploadsDir } from '../media/paths.ts';
import { createWork } from '../services/studio.ts';
import { finishUpload, registerUpload } from '../services/uploads.ts';
import { QUEUES, startQueue, stopQueue } from '../job-queue.ts';
import { startWorkers } from './worker.ts';

let t: TestDb;
let dir: string;
const savedDataDir = process.env.DATA_DIR;

beforeAll(async () => {
  t = await freshDb();
  dir = mkdtempSync(path.join(tmpdir(), 'retry-'));
  process.env.DATA_DIR = path.join(dir, 'data');
  mkdirSync(uploadsDir(), { recursive: true });
});

afterAll(async () => {
  await stopQueue();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
  if (savedDataDir === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = savedDataDir;
});

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('retries a job whose worker was killed mid-way, to success', { timeout: 120_000 }, async () => {
  // npm run worker, on this test's database.
  const worker = spawn(process.execPath, [path.resolve('worker.ts')], {
    env: { ...process.env, DATABASE_URL: t.url, DATA_DIR: process.env.DATA_DIR, WORKER_POLL_SECONDS: '0.5' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let log = '';
  worker.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!log.includes('worker ready') && Date.now() < deadline) await wait(100);
  expect(log).toContain('worker ready');

  // Retries come quickly here (the queue's options are copied onto each job when it is sent).
  const boss = await startQueue(t.url, { superviseIntervalSeconds: 1, monitorIntervalSeconds: 1 });
  await boss.updateQueue(QUEUES.process, { retryDelay: 1, retryBackoff: false });

  const id = 'killed-mid-way';
  await registerUpload({ id, userId: 1, kind: 'video', fileName: 'long.mp4', sizeBytes: 1 });
  copyFileSync(makeClip(dir, 'long.mp4', { seconds: 3, width: 1080, height: 1920 }), path.join(uploadsDir(), id));
  await finishUpload(id);
  const work = await createWork(1, { uploadId: id, title: '被打断的转码', channelId: 300201 });

  // Kill the worker (and its ffmpeg) once the encode has started writing.
  const scratch = path.join(uploadsDir(), `${id}.work`);
  while (!(existsSync(scratch) && readdirSync(scratch).length > 0) && Date.now() < deadline + 30_000) await wait(50);
  process.kill(-worker.pid!, 'SIGKILL');
  const [before] = await t.db.select({ status: uploads.status }).from(uploads).where(eq(uploads.id, id));
  expect(before?.status).toBe('processing');

  await startWorkers(boss, { pollingIntervalSeconds: 0.5 });
  // The upload turns 'ready' when its media is stored; its work is published right after, in a transaction of its own.
  let status: string | undefined;
  let published = false;
  while (Date.now() < deadline + 90_000) {
    [{ status } = { status: undefined }] = await t.db
      .select({ status: uploads.status })
      .from(uploads)
      .where(eq(uploads.id, id));
    if (status === 'ready') {
      const { rows } = await t.pool.query(`select status from videos where id = $1`, [work.id]);
      published = rows[0]?.status === 'published';
    }
    if (published || (status !== 'processing' && status !== 'ready')) break;
    await wait(250);
  }
  expect(status).toBe('ready');
  const { rows } = await t.pool.query(`select status, media from videos where id = $1`, [work.id]);
  expect(rows[0]).toMatchObject({ status: 'published', media: `works/${id}/720.mp4` });
  const job = await t.pool.query(`select retry_count from pgboss.job where name = $1 and data->>'uploadId' = $2`, [
    QUEUES.process,
    id,
  ]);
  expect(job.rows[0].retry_count).toBeGreaterThanOrEqual(1);
});
