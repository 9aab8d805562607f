/**
 * The processing job of a checked upload: encode its ladder and first-frame poster into a scratch folder, move them
 * into the media store, record them on the upload and publish its work if the creator has sent the form. Safe to run
 * again after a kill at any point: the scratch folder is made anew and the store's keys are overwritten.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import { and, eq, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { uploads, videos, type UploadOutputs } from '../db/schema.ts';
import { gearSize } from '../media/ladder.ts';
import { mediaStore } from '../media/store.ts';
import { encodeLadder, extractPoster, planLadder } from '../media/transcode.ts';
import { failUpload, publishUpload, workPrefix } from '../services/studio.ts';
import { removeUploadFiles, uploadFiles } from '../services/uploads.ts';

export interface ProcessJob {
  uploadId: string;
}

/** Processes one upload; returns what happened (for logs and tests). */
export async function processUpload(
  uploadId: string,
  signal?: AbortSignal,
): Promise<'published' | 'ready' | 'skipped' | 'failed'> {
  const [u] = await db()
    .select({
      status: uploads.status,
      width: uploads.width,
      height: uploads.height,
      durationMs: uploads.durationMs,
      coverTime: videos.coverTime,
    })
    .from(uploads)
    .leftJoin(videos, eq(videos.id, uploads.videoId))
    .where(eq(uploads.id, uploadId));
  if (!u || u.status !== 'processing' || !u.width || !u.height || !u.durationMs) return 'skipped';
  const { data } = uploadFiles(uploadId);
  if (!(await stat(data).catch(() => null))) {
    // The source is gone (deleted by hand, or a disk lost): nothing to retry with.
    await failUpload(uploadId);
    return 'failed';
  }

  const work = `${data}.work`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const plans = planLadder(u.width, u.height, work);
  await encodeLadder(data, plans, signal);
  const posterAt = u.coverTime ?? 0;
  const posterFile = `${work}/poster.webp`;
  await extractPoster(data, posterAt, u.durationMs, gearSize(u.width, u.height, 540), posterFile);

  const prefix = workPrefix(uploadId);
  const store = mediaStore();
  const renditions: UploadOutputs['renditions'] = [];
  for (const p of plans) {
    const { size } = await stat(p.file);
    const key = `${prefix}/${p.gear}.mp4`;
    await store.put(p.file, key);
    // Measured over the whole file (audio included), as players compare it with their bandwidth.
    const bitRate = Math.round((size * 8 * 1000) / u.durationMs);
    renditions.push({ gear: p.gear, width: p.width, height: p.height, bitRate, path: key, sizeBytes: size });
  }
  const poster = `${prefix}/poster-${Date.now().toString(36)}.webp`;
  await store.put(posterFile, poster);
  const outputs: UploadOutputs = {
    renditions,
    poster,
    posterAt,
    durationMs: u.durationMs,
    width: u.width,
    height: u.height,
  };

  const [stored] = await db()
    .update(uploads)
    .set({ status: 'ready', outputs, updatedAt: sql`now()` })
    .where(and(eq(uploads.id, uploadId), eq(uploads.status, 'processing')))
    .returning({ videoId: uploads.videoId });
  await removeUploadFiles(uploadId);
  if (!stored) {
    // Deleted or failed meanwhile: what was just made belongs to nothing.
    await store.remove([], [prefix]);
    return 'skipped';
  }
  return (await publishUpload(uploadId)) ? 'published' : 'ready';
}
