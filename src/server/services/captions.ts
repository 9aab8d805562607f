/**
 * Captions (字幕) of a work: uploaded by its author (.vtt or .srt, checked by captions/parse.ts), written by the
 * caption engine after transcoding, edited one cue at a time, removed. Each change writes a new WebVTT file under the
 * work's media folder (media keys are immutable) and re-indexes the work for search, so a line of speech finds it.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { CaptionTrack, Cue } from '../../shared/captions.ts';
import { checkCueText, decodeCaptionFile, parseCaptions, toWebVTT } from '../captions/parse.ts';
import { db } from '../db/client.ts';
import type { DbOrTx } from '../db/types.ts';
import { uploads, videoCaptions, videos } from '../db/schema.ts';
import { enqueue, QUEUES } from '../job-queue.ts';
import { isStudioMedia, uploadsDir, WORKS_DIR } from '../media/paths.ts';
import { mediaStore } from '../media/store.ts';
import { mediaUrl } from '../media-url.ts';
import { invalid, notFound } from '../errors.ts';
import { enforce } from './rate-limit.ts';
import { reindexVideoSearch } from './video-search.ts';

/** Caption uploads, cue edits and removals one author may make per hour. */
export const CAPTION_WRITE_RATE = { limit: 120, windowMs: 3_600_000 };

/** The caption file a player loads, as an aweme's `video.caption_infos[]` and the player item carry it. */
export interface CaptionRef {
  url: string;
  lang: string;
  source: 'upload' | 'auto';
}

type Row = typeof videoCaptions.$inferSelect;

const toTrack = (r: Row): CaptionTrack => ({
  workId: r.videoId,
  source: r.source,
  lang: r.lang,
  cues: r.cues,
  url: mediaUrl(r.file),
  updateTime: r.updatedAt.getTime(),
});

/** The caption files of `videoIds` (those that have captions), for lists of awemes and players. */
export async function captionsOf(videoIds: number[]): Promise<Map<number, CaptionRef>> {
  const out = new Map<number, CaptionRef>();
  if (videoIds.length === 0) return out;
  const rows = await db()
    .select({
      id: videoCaptions.videoId,
      file: videoCaptions.file,
      lang: videoCaptions.lang,
      source: videoCaptions.source,
    })
    .from(videoCaptions)
    .where(inArray(videoCaptions.videoId, videoIds));
  for (const r of rows) out.set(r.id, { url: mediaUrl(r.file), lang: r.lang, source: r.source });
  return out;
}

/** The author's own work (not deleted) with what captions need of it: length and media folder; 404 for anyone else. */
async function ownWork(tx: DbOrTx, userId: number, workId: number) {
  const [work] = await tx
    .select({ id: videos.id, durationMs: videos.durationMs, status: videos.status, uploadId: uploads.id })
    .from(videos)
    .leftJoin(uploads, eq(uploads.videoId, videos.id))
    .where(and(eq(videos.id, workId), eq(videos.authorId, userId), isNull(videos.deletedAt)))
    .for('update', { of: videos });
  if (!work) throw notFound('error.workNotFound');
  if (work.status === 'rejected' || work.durationMs <= 0) throw invalid('error.captionNotReady');
  return work;
}

/** Writes the cues as a new WebVTT file under the work's folder; answers its media key. */
async function storeFile(workId: number, uploadId: string | null, cues: Cue[]): Promise<string> {
  const stamp = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const local = path.join(uploadsDir(), `captions-${workId}-${stamp}.vtt`);
  await mkdir(uploadsDir(), { recursive: true });
  await writeFile(local, toWebVTT(cues), 'utf8');
  const key = `${WORKS_DIR}/${uploadId ?? `v${workId}`}/captions-${stamp}.vtt`;
  await mediaStore().put(local, key);
  return key;
}

/** Stores `cues` as the work's track in `tx` (the work row is locked), dropping the previous file; re-indexes search. */
async function save(
  tx: DbOrTx,
  workId: number,
  uploadId: string | null,
  cues: Cue[],
  source: Row['source'],
): Promise<Row> {
  const file = await storeFile(workId, uploadId, cues);
  const [before] = await tx
    .select({ file: videoCaptions.file })
    .from(videoCaptions)
    .where(eq(videoCaptions.videoId, workId));
  const [row] = await tx
    .insert(videoCaptions)
    .values({ videoId: workId, source, cues, file })
    .onConflictDoUpdate({ target: videoCaptions.videoId, set: { source, cues, file, updatedAt: sql`now()` } })
    .returning();
  if (before && isStudioMedia(before.file)) await enqueue(QUEUES.removeMedia, { keys: [before.file] }, { tx });
  await reindexVideoSearch(tx, { ids: [workId] });
  return row!;
}

/** The work's captions as its author sees them in the studio, or null when it has none. */
export async function getTrack(userId: number, workId: number): Promise<CaptionTrack | null> {
  const [row] = await db()
    .select({ c: videoCaptions })
    .from(videoCaptions)
    .innerJoin(videos, eq(videos.id, videoCaptions.videoId))
    .where(and(eq(videos.id, workId), eq(videos.authorId, userId), isNull(videos.deletedAt)));
  if (row) return toTrack(row.c);
  const [own] = await db()
    .select({ id: videos.id })
    .from(videos)
    .where(and(eq(videos.id, workId), eq(videos.authorId, userId), isNull(videos.deletedAt)));
  if (!own) throw notFound('error.workNotFound');
  return null;
}

/**
 * Replaces the work's captions with those of an uploaded file (its bytes and name). The file is checked whole before
 * anything is written: a refused file leaves the work's captions as they were.
 */
export async function uploadCaptions(
  userId: number,
  workId: number,
  bytes: Uint8Array,
  fileName: string,
): Promise<CaptionTrack> {
  const text = decodeCaptionFile(bytes);
  await enforce(`captions:${userId}`, CAPTION_WRITE_RATE.limit, CAPTION_WRITE_RATE.windowMs);
  const row = await db().transaction(async (tx) => {
    const work = await ownWork(tx, userId, workId);
    const cues = await parseCaptions(text, fileName, work.durationMs);
    return save(tx, work.id, work.uploadId, cues, 'upload');
  });
  return toTrack(row);
}

/** Changes the text of cue `index` (0-based, in time order); the track becomes the author's own. */
export async function editCue(userId: number, workId: number, index: number, text: string): Promise<CaptionTrack> {
  const clean = checkCueText(text);
  await enforce(`captions:${userId}`, CAPTION_WRITE_RATE.limit, CAPTION_WRITE_RATE.windowMs);
  const row = await db().transaction(async (tx) => {
    const work = await ownWork(tx, userId, workId);
    const [current] = await tx.select().from(videoCaptions).where(eq(videoCaptions.videoId, work.id));
    if (!current) throw notFound('error.captionsNotFound');
    const cue = current.cues[index];
    if (!cue) throw notFound('error.captionCueNotFound');
    const cues = current.cues.map((c, i) => (i === index ? { ...c, text: clean } : c));
    return save(tx, work.id, work.uploadId, cues, 'upload');
  });
  return toTrack(row);
}

/** Removes the work's captions (the player's CC button goes with them). */
export async function removeCaptions(userId: number, workId: number): Promise<void> {
  await enforce(`captions:${userId}`, CAPTION_WRITE_RATE.limit, CAPTION_WRITE_RATE.windowMs);
  await db().transaction(async (tx) => {
    const work = await ownWork(tx, userId, workId);
    const [gone] = await tx
      .delete(videoCaptions)
      .where(eq(videoCaptions.videoId, work.id))
      .returning({ file: videoCaptions.file });
    if (!gone) throw notFound('error.captionsNotFound');
    if (isStudioMedia(gone.file)) await enqueue(QUEUES.removeMedia, { keys: [gone.file] }, { tx });
    await reindexVideoSearch(tx, { ids: [work.id] });
  });
}

/**
 * Stores what the caption engine wrote for a published work, checked as an upload is. The author's own captions win:
 * a work that has them by now is left alone. Answers what happened, for the job's log.
 */
export async function storeEngineCaptions(videoId: number, vtt: string): Promise<'stored' | 'kept' | 'gone'> {
  const text = decodeCaptionFile(new TextEncoder().encode(vtt));
  return db().transaction(async (tx) => {
    const [work] = await tx
      .select({ id: videos.id, durationMs: videos.durationMs, uploadId: uploads.id })
      .from(videos)
      .leftJoin(uploads, eq(uploads.videoId, videos.id))
      .where(and(eq(videos.id, videoId), isNull(videos.deletedAt), eq(videos.status, 'published')))
      .for('update', { of: videos });
    if (!work) return 'gone';
    const [existing] = await tx
      .select({ id: videoCaptions.videoId })
      .from(videoCaptions)
      .where(eq(videoCaptions.videoId, videoId));
    if (existing) return 'kept';
    const cues = await parseCaptions(text, 'engine.vtt', work.durationMs);
    await save(tx, work.id, work.uploadId, cues, 'auto');
    return 'stored';
  });
}
