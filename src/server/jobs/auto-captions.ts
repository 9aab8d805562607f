/**
 * The automatic captions job, sent when a work is published while CAPTION_ENGINE is set: the work's audio goes to the
 * engine, and what it prints is checked like an uploaded file and stored as the work's captions (unless the author has
 * added their own meanwhile). A refused output is logged and not retried: the same audio would give the same text.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { videos } from '../db/schema.ts';
import { captionEngine, dropScratch, extractAudio, runEngine } from '../captions/engine.ts';
import { uploadsDir } from '../media/paths.ts';
import { mediaStore } from '../media/store.ts';
import { storeEngineCaptions } from '../services/captions.ts';
import { ServiceError } from '../errors.ts';
import { laddersOf } from '../services/renditions.ts';

export interface CaptionJob {
  videoId: number;
}

/** Writes captions for one published work; answers what happened (for logs and tests). */
export async function captionVideo(
  videoId: number,
  signal?: AbortSignal,
): Promise<'stored' | 'kept' | 'gone' | 'off' | { refused: string }> {
  const argv = captionEngine();
  if (!argv) return 'off';
  const [v] = await db()
    .select({ media: videos.media })
    .from(videos)
    .where(and(eq(videos.id, videoId), isNull(videos.deletedAt), eq(videos.status, 'published')));
  if (!v) return 'gone';
  // The smallest rendition carries the same sound as the others and is the quickest to read.
  const ladder = (await laddersOf([videoId])).get(videoId) ?? [];
  const source = ladder.at(-1)?.path ?? v.media;
  const store = mediaStore();
  const media = await store.open(source);
  const audio = path.join(uploadsDir(), `captions-${videoId}-${Date.now().toString(36)}.wav`);
  try {
    await mkdir(uploadsDir(), { recursive: true });
    await extractAudio(media.file, audio, signal);
    const vtt = await runEngine(argv, audio, signal);
    return await storeEngineCaptions(videoId, vtt);
  } catch (error) {
    if (error instanceof ServiceError) return { refused: error.key };
    throw error;
  } finally {
    await media.release();
    await dropScratch(audio);
  }
}
