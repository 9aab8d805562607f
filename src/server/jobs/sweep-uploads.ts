/**
 * The sweep of abandoned uploads: an upload still 'uploading' that nothing has written to for UPLOAD_IDLE_MS (its data
 * file's mtime, which every PATCH moves; its row's created_at when it has no data file) is marked refused with
 * 'error.uploadExpired' and its files deleted. Files of tus's that belong to no row (a user deleted with their uploads)
 * are deleted once as old. Run hourly by the job queue; running it twice, or on two workers at once, is harmless.
 */
import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import { config, defaultOf } from '../config.ts';
import { db } from '../db/client.ts';
import { uploads } from '../db/schema.ts';
import { UPLOAD_LOCK_CLASS } from '../http/upload-lock.ts';
import { uploadsDir } from '../media/paths.ts';
import { removeUploadFiles, uploadFiles } from '../services/uploads.ts';

/** How long an upload may go without a byte before it is swept, when UPLOAD_IDLE_MS is unset: 24 hours. */
export const DEFAULT_UPLOAD_IDLE_MS = defaultOf('UPLOAD_IDLE_MS');

/** How long an upload may go without a byte before it is swept (UPLOAD_IDLE_MS). */
export function uploadIdleMs(): number {
  return config().UPLOAD_IDLE_MS;
}

// tus's own ids (16 random bytes in hex: upload.ts names no ids of its own); nothing else in the folder is a stray's.
const TUS_FILE = /^([0-9a-f]{32})(\.json)?$/;

const mtimeOf = (file: string) =>
  stat(file).then(
    (s) => s.mtimeMs,
    () => null,
  );

/** When an upload last received a byte: its data file's mtime, else when its row was made. */
async function lastWrite(id: string, createdAt: Date): Promise<number> {
  return (await mtimeOf(uploadFiles(id).data)) ?? createdAt.getTime();
}

/**
 * Ends one abandoned upload, unless a request is working on it. The sweep takes the upload's tus lock for its
 * transaction (a transaction-level advisory lock conflicts with the session-level one a PATCH holds, and works through
 * a transaction pooler) and only if it is free: a PATCH that holds it is never cut, the upload waits for the next
 * sweep. A PATCH arriving meanwhile waits for the lock, then finds the files gone and answers 404. The idle time is
 * judged again under the lock, since a PATCH may have written between the scan and here; the files go before the
 * commit releases the lock, so no PATCH can append to a file of an upload already marked refused.
 */
async function expire(id: string, cutoff: number): Promise<boolean> {
  return db().transaction(async (tx) => {
    const { rows } = await tx.execute<{ got: boolean }>(
      sql`select pg_try_advisory_xact_lock(${UPLOAD_LOCK_CLASS}, hashtext(${id})) as got`,
    );
    if (!rows[0]?.got) return false;
    const [row] = await tx
      .select({ createdAt: uploads.createdAt })
      .from(uploads)
      .where(and(eq(uploads.id, id), eq(uploads.status, 'uploading')))
      .for('update');
    if (!row || (await lastWrite(id, row.createdAt)) > cutoff) return false;
    await tx
      .update(uploads)
      .set({ status: 'rejected', reason: 'error.uploadExpired', reasonVars: null, updatedAt: sql`now()` })
      .where(and(eq(uploads.id, id), eq(uploads.status, 'uploading')));
    await removeUploadFiles(id);
    return true;
  });
}

/** Deletes the tus files of uploads that have no row, once none of them has changed for `idleMs`. */
async function removeStrays(cutoff: number): Promise<number> {
  const entries = await readdir(uploadsDir(), { withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException): Dirent[] => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  const ids = [
    ...new Set(
      entries
        .filter((e) => e.isFile())
        .map((e) => TUS_FILE.exec(e.name)?.[1])
        .filter((id) => id !== undefined),
    ),
  ];
  if (ids.length === 0) return 0;
  const known = new Set(
    (await db().select({ id: uploads.id }).from(uploads).where(inArray(uploads.id, ids))).map((r) => r.id),
  );
  let removed = 0;
  for (const id of ids) {
    if (known.has(id)) continue;
    const { data, info } = uploadFiles(id);
    const newest = Math.max(...(await Promise.all([mtimeOf(data), mtimeOf(info)])).map((m) => m ?? -Infinity));
    if (newest > cutoff) continue;
    await removeUploadFiles(id);
    removed++;
  }
  return removed;
}

/** Sweeps abandoned uploads and stray tus files; answers how many of each went. */
export async function sweepUploads(
  idleMs = uploadIdleMs(),
  now = Date.now(),
): Promise<{ expired: number; strays: number }> {
  const cutoff = now - idleMs;
  // An upload made since the cutoff cannot have been idle that long: only older rows are read.
  const candidates = await db()
    .select({ id: uploads.id, createdAt: uploads.createdAt })
    .from(uploads)
    .where(and(eq(uploads.status, 'uploading'), lt(uploads.createdAt, new Date(cutoff))));
  let expired = 0;
  for (const u of candidates) {
    if ((await lastWrite(u.id, u.createdAt)) > cutoff) continue;
    if (await expire(u.id, cutoff)) expired++;
  }
  return { expired, strays: await removeStrays(cutoff) };
}
