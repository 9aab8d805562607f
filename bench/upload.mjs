/**
 * `npm run bench:upload`: (1) upload throughput through the tus door on loopback (a bare node:http server with only
 * /api/upload, in its own process, PATCHes of 32 MB as tus-js-client sends chunks) against a plain file copy of the
 * same file into the same DATA_DIR, in MB/s and their ratio; (2) transcoding seconds per source minute of a 1080x1920
 * clip through the pipeline (processUpload: ladder 540/720/1080 and poster, moved into the media store, published)
 * against plain ffmpeg run with the same ladder arguments, and their ratio. A benchmark: it prints, never fails.
 *
 * Everything runs in a temporary directory with a throwaway embedded PostgreSQL (deleted at the end).
 * BENCH_UPLOAD_MB (default 256) and BENCH_SECONDS (default 20) size the two inputs.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, copyFileSync, createWriteStream, mkdirSync, openSync, readSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { useDatabaseUrl } from '../src/server/config.ts';
import { closeDb, db } from '../src/server/db/client.ts';
import { startDatabase } from '../src/server/db/lifecycle.ts';
import { processUpload } from '../src/server/jobs/process-video.ts';
import { startQueue, stopQueue } from '../src/server/job-queue.ts';
import { uploadsDir } from '../src/server/media/paths.ts';
import { toolPath } from '../src/server/media/tools.ts';
import { ladderArgs, planLadder } from '../src/server/media/transcode.ts';
import { createSession } from '../src/server/services/sessions.ts';
import { finishUpload, registerUpload } from '../src/server/services/uploads.ts';
import { ROOT, tempDataDir } from './lib.mjs';

const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 256);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CHUNK = 32 * 1024 * 1024;
const MB = 1024 * 1024;

const dir = tempDataDir('shanying-bench-upload-');
process.env.DATA_DIR = path.join(dir, 'data');
process.env.UPLOAD_MAX_BYTES = String((UPLOAD_MB + 1) * MB);
const round = (x, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const seconds = (t0) => (performance.now() - t0) / 1000;

async function writeRandom(file, bytes) {
  const out = createWriteStream(file);
  for (let left = bytes; left > 0; left -= MB) {
    if (!out.write(randomBytes(Math.min(MB, left)))) await new Promise((r) => out.once('drain', r));
  }
  await new Promise((r) => out.end(r));
}

function readChunk(file, offset, length) {
  const fd = openSync(file, 'r');
  const buffer = Buffer.allocUnsafe(length);
  readSync(fd, buffer, 0, length, offset);
  closeSync(fd);
  return buffer;
}

async function startUploadServer(env) {
  const child = spawn(process.execPath, [path.join(ROOT, 'tests', 'setup', 'upload-server.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    child.stdout.once('data', (d) => resolve(String(d).trim()));
    child.once('exit', (code) => reject(new Error(`upload server exited with ${code}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

/** Uploads `file` through tus in CHUNK-sized PATCHes; returns seconds from creation to the last answer. */
async function tusUpload(base, token, file) {
  const size = statSync(file).size;
  const tus = { 'Tus-Resumable': '1.0.0', Token: token };
  const t0 = performance.now();
  const created = await fetch(`${base}/api/upload`, {
    method: 'POST',
    headers: {
      ...tus,
      'Upload-Length': String(size),
      'Upload-Metadata': `filename ${Buffer.from('bench.bin').toString('base64')}`,
    },
  });
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const location = created.headers.get('location');
  for (let offset = 0; offset < size; offset += CHUNK) {
    const body = readChunk(file, offset, Math.min(CHUNK, size - offset));
    const res = await fetch(`${base}${location}`, {
      method: 'PATCH',
      headers: { ...tus, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
      body,
    });
    // The last PATCH is refused by the content check (random bytes are no video), which takes a few milliseconds.
    if (res.status !== 204 && offset + body.length < size) throw new Error(`PATCH answered ${res.status}`);
  }
  return seconds(t0);
}

let database;
let server;
try {
  database = await startDatabase({ dataDir: dir, seed: false, log: () => {} });
  useDatabaseUrl(database.url);
  await startQueue(database.url);
  // One creator, enough for both measurements.
  const { rows } = await db().execute(
    sql`insert into users (sec_uid, nickname, avatar) values ('bench', '基准测试', 'avatars/a01.webp') returning id`,
  );
  const userId = Number(rows[0].id);
  const { token } = await createSession(userId);

  // ---------------------------------------------------------------- upload throughput
  const source = path.join(dir, 'payload.bin');
  await writeRandom(source, UPLOAD_MB * MB);
  mkdirSync(uploadsDir(), { recursive: true });
  server = await startUploadServer({ ...process.env });
  const copyT0 = performance.now();
  copyFileSync(source, path.join(uploadsDir(), 'plain-copy.bin'));
  const copySeconds = seconds(copyT0);
  const tusSeconds = await tusUpload(server.base, token, source);
  const copyRate = UPLOAD_MB / copySeconds;
  const tusRate = UPLOAD_MB / tusSeconds;
  console.log(`upload ${UPLOAD_MB} MB on loopback (${CHUNK / MB} MB PATCHes)`);
  console.log(`  tus            ${round(tusRate)} MB/s (${round(tusSeconds, 2)} s)`);
  console.log(`  plain copy     ${round(copyRate)} MB/s (${round(copySeconds, 2)} s)`);
  console.log(`  ratio          tus / copy = ${round(tusRate / copyRate, 2)}`);

  // ---------------------------------------------------------------- transcoding
  const clip = path.join(dir, 'clip-1080.mp4');
  execFileSync(toolPath('ffmpeg'), [
    '-hide_banner',
    '-nostdin',
    '-y',
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=1080x1920:rate=30:duration=${SECONDS}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${SECONDS}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    clip,
  ]);
  const plainDir = path.join(dir, 'plain');
  mkdirSync(plainDir, { recursive: true });
  const plainT0 = performance.now();
  execFileSync(toolPath('ffmpeg'), ladderArgs(clip, planLadder(1080, 1920, plainDir)));
  const plainSeconds = seconds(plainT0);

  const id = 'bench-transcode';
  await registerUpload({ id, userId, kind: 'video', fileName: 'clip-1080.mp4', sizeBytes: statSync(clip).size });
  copyFileSync(clip, path.join(uploadsDir(), id));
  const pipeT0 = performance.now();
  await finishUpload(id);
  const result = await processUpload(id);
  const pipeSeconds = seconds(pipeT0);
  const perMinute = (s) => round((s / SECONDS) * 60, 1);
  console.log(
    `\ntranscode a ${SECONDS} s 1080x1920 clip to 540/720/1080 (seconds per source minute; ${process.env.WORKER_CONCURRENCY ?? 1} job at a time)`,
  );
  console.log(`  pipeline       ${perMinute(pipeSeconds)} s/min (checks, encode, poster, store: ${result})`);
  console.log(`  plain ffmpeg   ${perMinute(plainSeconds)} s/min (same ladder arguments)`);
  console.log(`  ratio          pipeline / ffmpeg = ${round(pipeSeconds / plainSeconds, 2)}`);
} finally {
  server?.child.kill('SIGKILL');
  await stopQueue().catch(() => {});
  await closeDb().catch(() => {});
  await database?.stop().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
