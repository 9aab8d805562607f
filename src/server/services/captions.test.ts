import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClip } from '../../../tests/setup/clips.ts';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { stateFor, aweme } from '../api/shape.ts';
import { captionVideo } from '../jobs/auto-captions.ts';
import { startQueue, stopQueue } from '../job-queue.ts';
import { mediaDir, uploadsDir } from '../media/paths.ts';
import { captionsOf, editCue, getTrack, removeCaptions, uploadCaptions } from './captions.ts';
import { ServiceError } from '../errors.ts';
import { searchVideos } from './search.ts';
import { byIds } from './videos.ts';

let t: TestDb;
let dir: string;
let work: { id: number; authorId: number; durationMs: number };
let other: number;
const saved = { dataDir: process.env.DATA_DIR, engine: process.env.CAPTION_ENGINE };
const ENGINE = `${process.execPath} ${path.resolve('tests/fixtures/fake-caption-engine.mjs')}`;

beforeAll(async () => {
  t = await freshDb();
  dir = mkdtempSync(path.join(tmpdir(), 'captions-'));
  process.env.DATA_DIR = path.join(dir, 'data');
  mkdirSync(uploadsDir(), { recursive: true });
  await startQueue(t.url);
  const { rows } = await t.pool.query(
    `select id, author_id, duration_ms from videos where deleted_at is null and status = 'published' and visibility = 'public'
      order by id limit 1`,
  );
  work = { id: rows[0].id, authorId: rows[0].author_id, durationMs: rows[0].duration_ms };
  other = (await t.pool.query('select id from users where id <> $1 order by id limit 1', [work.authorId])).rows[0].id;
});

afterAll(async () => {
  await stopQueue();
  await t.close();
  rmSync(dir, { recursive: true, force: true });
  for (const [key, value] of [
    ['DATA_DIR', saved.dataDir],
    ['CAPTION_ENGINE', saved.engine],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

const file = (s: string) => new TextEncoder().encode(s);
const stamp = (ms: number) => new Date(ms).toISOString().slice(11, 23);
/** A phrase no title, hashtag or nickname of the seed holds. */
const PHRASE = '蓝鲸在月光下唱歌';
const good = () =>
  file(
    `WEBVTT\n\n${stamp(100)} --> ${stamp(1500)}\n开场白\n\n${stamp(1500)} --> ${stamp(work.durationMs - 100)}\n${PHRASE}\n`,
  );
const found = async (q: string) => (await searchVideos(q, { count: 50 })).items.some((v) => v.id === work.id);

async function refusal(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (e) {
    if (e instanceof ServiceError) return e.key;
    throw e;
  }
  throw new Error('not refused');
}

describe('a work’s captions', () => {
  it('are found by a line only the captions say, and leave search with the captions', async () => {
    expect(await found(PHRASE)).toBe(false);
    const track = await uploadCaptions(work.authorId, work.id, good(), '字幕.vtt');
    expect(track).toMatchObject({ workId: work.id, source: 'upload', cues: [{ text: '开场白' }, { text: PHRASE }] });
    expect(existsSync(path.join(mediaDir(), track.url.replace(/^\/media\//, '')))).toBe(true);
    expect(await found(PHRASE)).toBe(true);
    // Still findable by its title after a caption edit, and by the new words only.
    const [title] = (await byIds([work.id], null)).map((c) => c.desc.split(' #')[0]!);
    const edited = await editCue(work.authorId, work.id, 1, '<i>企鹅</i>在冰上跳舞');
    expect(edited.cues[1]!.text).toBe('企鹅在冰上跳舞');
    expect(await found('企鹅在冰上跳舞')).toBe(true);
    expect(await found(PHRASE)).toBe(false);
    expect(await found(title!)).toBe(true);
    await removeCaptions(work.authorId, work.id);
    expect(await getTrack(work.authorId, work.id)).toBeNull();
    expect(await found('企鹅在冰上跳舞')).toBe(false);
  });

  it('keep what was stored when a file is refused, and are nobody else’s to change', async () => {
    await uploadCaptions(work.authorId, work.id, good(), 'a.vtt');
    const past = file(`WEBVTT\n\n00:00:01.000 --> ${stamp(work.durationMs + 5000)}\n太长\n`);
    expect(await refusal(() => uploadCaptions(work.authorId, work.id, past, 'b.vtt'))).toBe('error.captionPastEnd');
    expect(
      await refusal(() =>
        uploadCaptions(
          work.authorId,
          work.id,
          file('WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n<script>x</script>\n'),
          'c.vtt',
        ),
      ),
    ).toBe('error.captionScript');
    expect(await refusal(() => uploadCaptions(other, work.id, good(), 'd.vtt'))).toBe('error.workNotFound');
    expect(await refusal(() => editCue(other, work.id, 0, '改'))).toBe('error.workNotFound');
    expect(await refusal(() => editCue(work.authorId, work.id, 99, '改'))).toBe('error.captionCueNotFound');
    expect((await getTrack(work.authorId, work.id))!.cues.map((c) => c.text)).toEqual(['开场白', PHRASE]);
  });

  it('ride along in the aweme as video.caption_infos', async () => {
    const cards = await byIds([work.id], null);
    const a = aweme(cards[0]!, await stateFor(null, cards), 'http://shanying.test');
    const track = (await getTrack(work.authorId, work.id))!;
    expect(a.video.caption_infos).toEqual([
      expect.objectContaining({
        caption_format: 'webvtt',
        url: track.url,
        url_list: [track.url],
        is_auto_generated: 0,
      }),
    ]);
    expect((await captionsOf([work.id])).get(work.id)?.url).toBe(track.url);
  });
});

describe('captions written by the engine', () => {
  let video: number;
  beforeAll(async () => {
    // A published work whose media is a real file in the store, without captions.
    makeClip(path.join(mediaDir()), 'engine.mp4', { seconds: 3, width: 180, height: 320 });
    const { rows } = await t.pool.query(
      `update videos set media = 'engine.mp4', duration_ms = 3000
        where id = (select id from videos where id <> $1 and deleted_at is null and status = 'published' order by id limit 1)
        returning id`,
      [work.id],
    );
    video = rows[0].id;
  });

  it('do nothing while no engine is configured', async () => {
    delete process.env.CAPTION_ENGINE;
    expect(await captionVideo(video)).toBe('off');
  });

  it('are refused like an upload when the engine writes cues past the end, and nothing is stored', async () => {
    process.env.CAPTION_ENGINE = `${ENGINE} --past-end`;
    expect(await captionVideo(video)).toEqual({ refused: 'error.captionPastEnd' });
    expect((await captionsOf([video])).has(video)).toBe(false);
  });

  it('are stored as automatic captions from what the engine heard, and found by search', async () => {
    process.env.CAPTION_ENGINE = ENGINE;
    expect(await captionVideo(video)).toBe('stored');
    expect((await captionsOf([video])).get(video)?.source).toBe('auto');
    expect((await searchVideos('引擎听到的第一句话', { count: 50 })).items.some((v) => v.id === video)).toBe(true);
    // A work that has captions keeps them: the engine never replaces a track.
    expect(await captionVideo(video)).toBe('kept');
  });
});
