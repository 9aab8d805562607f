/**
 * Uploads: the row behind each tus upload, the content checks when its last byte arrives, and the hand-over to the
 * processing queue. A refused upload leaves nothing on disk.
 */
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { t } from '../../i18n/t.ts';
import type { MessageKey } from '../../i18n/zh-CN.ts';
import type { UploadKind, UploadView } from '../../shared/studio.ts';
import { replaceControlChars } from '../../shared/text-chars.ts';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import { uploads } from '../db/schema.ts';
import { enqueue, QUEUES } from '../job-queue.ts';
import { checkCover, checkVideo } from '../media/checks.ts';
import { uploadsDir } from '../media/paths.ts';
import { mediaUrl } from '../media-url.ts';
import { notFound, ServiceError, type MessageVars } from '../errors.ts';
import { enforce } from './rate-limit.ts';

/** New uploads a user may start per hour (each resumable upload counts once, however many requests it takes). */
export const UPLOAD_RATE = { limit: 30, windowMs: 60 * 60 * 1000 };
/** Largest cover image. */
export const COVER_MAX_BYTES = 10 * 1024 * 1024;
/** Longest file name kept (the name is only shown back to its owner). */
const FILE_NAME_MAX = 200;

/** The largest upload of a kind, in bytes (videos: UPLOAD_MAX_BYTES). */
export function uploadCap(kind: UploadKind = 'video'): number {
  if (kind === 'cover') return COVER_MAX_BYTES;
  return config().UPLOAD_MAX_BYTES;
}

/** Counts one new upload against the user's hourly limit (429 past it). */
export async function admitUpload(userId: number): Promise<void> {
  await enforce(`upload:${userId}`, UPLOAD_RATE.limit, UPLOAD_RATE.windowMs);
}

/** The file of an upload under DATA_DIR/uploads, and tus's info file beside it. */
export function uploadFiles(id: string): { data: string; info: string } {
  const data = path.join(uploadsDir(), id);
  return { data, info: `${data}.json` };
}

/** Deletes an upload's files (data, tus info, any scratch folder of the worker). */
export async function removeUploadFiles(id: string): Promise<void> {
  const { data, info } = uploadFiles(id);
  await Promise.all([
    rm(data, { force: true }),
    rm(info, { force: true }),
    rm(`${data}.work`, { recursive: true, force: true }),
  ]);
}

/** Records a new upload of `userId` (before tus creates its file). */
export async function registerUpload(u: {
  id: string;
  userId: number;
  kind: UploadKind;
  fileName: string;
  sizeBytes: number;
}): Promise<void> {
  const fileName = [...replaceControlChars(u.fileName, '').trim()].slice(0, FILE_NAME_MAX).join('') || u.id;
  await db().insert(uploads).values({ id: u.id, userId: u.userId, kind: u.kind, fileName, sizeBytes: u.sizeBytes });
}

/** Who owns an upload, or null when there is no such upload. */
export async function uploadOwner(id: string): Promise<number | null> {
  const [row] = await db().select({ userId: uploads.userId }).from(uploads).where(eq(uploads.id, id));
  return row?.userId ?? null;
}

/** Marks an upload refused with a catalogue reason and deletes its files. */
export async function rejectUpload(id: string, reason: MessageKey, vars?: MessageVars): Promise<void> {
  await db()
    .update(uploads)
    .set({ status: 'rejected', reason, reasonVars: vars ?? null, updatedAt: sql`now()` })
    .where(eq(uploads.id, id));
  await removeUploadFiles(id);
}

/**
 * Runs when an upload's last byte is stored: checks the content, then queues a video for processing (a cover is
 * ready at once). A refusal deletes the files, records the reason and is rethrown for the uploader to see.
 * `maxDurationSec` raises the length limit for a live recording.
 */
export async function finishUpload(id: string, maxDurationSec?: number): Promise<void> {
  const [row] = await db()
    .select({ kind: uploads.kind, status: uploads.status })
    .from(uploads)
    .where(eq(uploads.id, id));
  if (!row) {
    await removeUploadFiles(id);
    throw notFound('error.uploadNotFound');
  }
  if (row.status !== 'uploading') return;
  const { data } = uploadFiles(id);
  try {
    if (row.kind === 'cover') {
      const info = await checkCover(data);
      await db()
        .update(uploads)
        .set({ status: 'ready', width: info.width, height: info.height, updatedAt: sql`now()` })
        .where(and(eq(uploads.id, id), eq(uploads.status, 'uploading')));
      return;
    }
    const info = await checkVideo(data, maxDurationSec);
    await db().transaction(async (tx) => {
      const moved = await tx
        .update(uploads)
        .set({
          status: 'processing',
          durationMs: info.durationMs,
          width: info.width,
          height: info.height,
          updatedAt: sql`now()`,
        })
        .where(and(eq(uploads.id, id), eq(uploads.status, 'uploading')))
        .returning({ id: uploads.id });
      if (moved.length > 0) await enqueue(QUEUES.process, { uploadId: id }, { tx, key: id });
    });
  } catch (error) {
    if (error instanceof ServiceError) await rejectUpload(id, error.key, error.vars);
    else await removeUploadFiles(id);
    throw error;
  }
}

/** An upload of `userId` as the studio shows it. */
export async function getUpload(userId: number, id: string): Promise<UploadView> {
  const [u] = await db()
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.userId, userId)));
  if (!u) throw notFound('error.uploadNotFound');
  // While bytes are coming, the file's length is tus's offset.
  const received =
    u.status === 'uploading'
      ? await stat(uploadFiles(id).data).then(
          (s) => s.size,
          () => 0,
        )
      : u.status === 'rejected'
        ? 0
        : u.sizeBytes;
  return {
    id: u.id,
    kind: u.kind,
    fileName: u.fileName,
    sizeBytes: u.sizeBytes,
    receivedBytes: received,
    status: u.status,
    reason: u.reason ? t(u.reason as MessageKey, u.reasonVars ?? undefined) : null,
    durationMs: u.durationMs,
    width: u.width,
    height: u.height,
    poster: u.outputs ? mediaUrl(u.outputs.poster) : null,
    workId: u.videoId,
  };
}
