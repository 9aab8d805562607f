/** The studio's caption doors: bad caption files are each a clear error in Family B's envelope, and nothing is stored. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQueue, stopQueue } from '../../src/server/job-queue.ts';
import { freshDb, type TestDb } from '../setup/test-db.ts';
import { call, expectErrorB, ok, tokenFor } from './helpers.ts';

const ctx = {} as TestDb;
const saved = process.env.DATA_DIR;
let dir: string;
let work: { id: number; author_id: number; duration_ms: number };
let owner: string;
let stranger: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'captions-api-'));
  process.env.DATA_DIR = dir;
  process.env.API_ANON_CACHE = 'off';
  Object.assign(ctx, await freshDb());
  await startQueue(ctx.url);
  const { rows } = await ctx.db.execute(
    sql`select id, author_id, duration_ms from videos where deleted_at is null and status = 'published' order by id limit 1`,
  );
  work = rows[0] as typeof work;
  owner = await tokenFor(work.author_id);
  const other = await ctx.db.execute(sql`select id from users where id <> ${work.author_id} order by id limit 1`);
  stranger = await tokenFor((other.rows[0] as { id: number }).id);
});

afterAll(async () => {
  await stopQueue();
  await ctx.close();
  if (saved === undefined) delete process.env.DATA_DIR;
  else process.env.DATA_DIR = saved;
  rmSync(dir, { recursive: true, force: true });
});

const form = (name: string, content: Uint8Array | string, workId = work.id) => {
  const body = new FormData();
  body.set('workId', String(workId));
  body.set('file', new Blob([content as BlobPart]), name);
  return body;
};
const upload = (token: string, body: FormData) => call('POST', '/api/studio/captions/upload', { token, body });
const stamp = (ms: number) => new Date(ms).toISOString().slice(11, 23);
const stored = async () => (await ok('GET', '/studio/captions', { token: owner, query: { workId: work.id } })).data;

describe('caption uploads', () => {
  it('store a good file and answer its cues', async () => {
    const good = `WEBVTT\n\n00:00:00.100 --> 00:00:01.000\n<b>第一句</b>\n`;
    const res = await upload(owner, form('a.vtt', good));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ source: 'upload', cues: [{ start: 100, end: 1000, text: '第一句' }] });
  });

  const cases: [string, string, () => Uint8Array | string, number, RegExp][] = [
    [
      'binary',
      'a.png',
      () => Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      400,
      /^字幕文件不是文本文件/,
    ],
    ['10 MB', 'big.vtt', () => new Uint8Array(10 * 1024 * 1024).fill(0x41), 413, /^请求体过大$/],
    [
      '10,000 cues',
      'many.vtt',
      () =>
        `WEBVTT\n\n${Array.from({ length: 10_000 }, (_, i) => `00:00:00.000 --> 00:00:00.500\n第${i}句\n`).join('\n')}`,
      400,
      /^字幕最多 2000 条$/,
    ],
    [
      '<script>',
      'x.vtt',
      () => 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n<script>alert(1)</script>\n',
      400,
      /^第 4 行：字幕不能包含脚本/,
    ],
    [
      'a cue past the end',
      'late.srt',
      () => `1\n00:00:00,000 --> ${stamp(work.duration_ms + 3000).replace('.', ',')}\n太晚了\n`,
      400,
      /^第 2 行：字幕时间超出了视频长度/,
    ],
    [
      'a malformed time',
      'bad.vtt',
      () => 'WEBVTT\n\n00:00:0x.000 --> 00:00:01.000\n坏\n',
      400,
      /^第 3 行：时间格式不正确/,
    ],
  ];
  it.each(cases)('refuse %s with a clear error, storing nothing', async (_, name, content, status, message) => {
    const before = await stored();
    const res = await upload(owner, form(name, content()));
    expectErrorB(res, status);
    expect(res.body.msg).toMatch(message);
    expect(res.body.data).toBeNull();
    expect(await stored()).toEqual(before);
  });

  it('refuse another member’s work, a missing file and an unknown work as the envelope says', async () => {
    const before = await stored();
    expectErrorB(await upload(stranger, form('ok.vtt', 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n好\n')), 404);
    const noFile = new FormData();
    noFile.set('workId', String(work.id));
    const missing = await upload(owner, noFile);
    expectErrorB(missing, 400);
    expect(missing.body.msg).toBe('请选择字幕文件');
    expectErrorB(
      await upload(owner, form('ok.vtt', 'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n好\n', 2_000_000_000)),
      404,
    );
    expectErrorB(
      await call('POST', '/api/studio/captions/cue', {
        token: stranger,
        form: { workId: work.id, index: 0, text: '改' },
      }),
      404,
    );
    expectErrorB(
      await call('POST', '/api/studio/captions/cue', {
        token: owner,
        form: { workId: work.id, index: 0, text: 'a\u0000b' },
      }),
      400,
    );
    expect(await stored()).toEqual(before);
  });
});
