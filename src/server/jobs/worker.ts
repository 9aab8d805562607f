/**
 * The workers of the job queue: media processing, its dead letters, media removal, the hourly upload sweep, the
 * minutely 热度 window and search-index merge, automatic captions, data exports and account deletions.
 */
import { eq } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import { mergeGinPending } from '../db/gin-pending.ts';
import { logLine } from '../log.ts';
import { uploads } from '../db/schema.ts';
import { mediaStore } from '../media/store.ts';
import { failUpload } from '../services/studio.ts';
import { expireHeat } from '../services/rankings.ts';
import { removeUploadFiles } from '../services/uploads.ts';
import { finishDeletion, finishDueDeletions } from '../services/account-deletion.ts';
import { buildExport, failExport, sweepExports } from '../services/data-export.ts';
import { captionVideo, type CaptionJob } from './auto-captions.ts';
import { processUpload, type ProcessJob } from './process-video.ts';
import { enqueue, EXPORT_RETRIES, QUEUES } from '../job-queue.ts';
import { sweepUploads } from './sweep-uploads.ts';

/** When abandoned uploads are swept: hourly, at minute 17 (UTC). */
export const SWEEP_CRON = '17 * * * *';
/** When the 热度 window is moved: every minute, so an hour that leaves it is gone within a minute (pg-boss's finest cron). */
export const HEAT_WINDOW_CRON = '* * * * *';
/** When the search indexes' pending entries are merged: every minute, so a search reads through a minute of writes at most. */
export const GIN_PENDING_CRON = '* * * * *';
/** When expired data exports are deleted and overdue account deletions finished: hourly, at minute 41. */
export const ACCOUNT_SWEEP_CRON = '41 * * * *';

interface RemoveJob {
  keys?: string[];
  prefixes?: string[];
  uploadId?: string;
}

/** Whether a web server works the job queue itself: not with WORKERS=0 (or WORKER=off), when `npm run worker` runs apart. */
export function inProcessWorkers(settings = config()): boolean {
  return settings.WORKERS && settings.WORKER;
}

/**
 * Starts the workers on a started queue, asking it for jobs every WORKER_POLL_SECONDS and encoding WORKER_CONCURRENCY
 * uploads at once (each encode takes every core ffmpeg can use).
 */
export async function startWorkers(boss: PgBoss, options: { pollingIntervalSeconds?: number } = {}): Promise<void> {
  const settings = config();
  const polling = { pollingIntervalSeconds: options.pollingIntervalSeconds ?? settings.WORKER_POLL_SECONDS };
  const encoding = { ...polling, localConcurrency: settings.WORKER_CONCURRENCY };
  await boss.work<ProcessJob>(QUEUES.process, encoding, async ([job]) => {
    const started = performance.now();
    const result = await processUpload(job!.data.uploadId, job!.signal);
    logLine('info', 'jobs.process', {
      uploadId: job!.data.uploadId,
      result,
      retry: job!.retryCount,
      ms: Math.round(performance.now() - started),
    });
  });
  await boss.work<ProcessJob>(QUEUES.processFailed, polling, async ([job]) => {
    logLine('info', 'jobs.process.gave-up', { uploadId: job!.data.uploadId });
    await failUpload(job!.data.uploadId);
  });
  await boss.work<RemoveJob>(QUEUES.removeMedia, polling, async ([job]) => {
    const { keys = [], prefixes = [], uploadId } = job!.data;
    await mediaStore().remove(keys, prefixes);
    if (uploadId) await removeUploadFiles(uploadId);
  });
  await boss.work(QUEUES.sweepUploads, polling, async () => {
    const started = performance.now();
    const swept = await sweepUploads();
    logLine('info', 'jobs.sweep-uploads', { ...swept, ms: Math.round(performance.now() - started) });
  });
  // The schedule is a row in pg-boss's tables, written again (the same row) by every process that starts workers; one
  // process's cron pass at a time turns it into one job per hour, which one worker takes: once per cluster.
  await boss.schedule(QUEUES.sweepUploads, SWEEP_CRON);
  await boss.work(QUEUES.heatWindow, polling, async () => {
    const rescored = await expireHeat();
    if (rescored > 0) logLine('info', 'jobs.heat-window', { rescored });
  });
  await boss.schedule(QUEUES.heatWindow, HEAT_WINDOW_CRON);
  await boss.work(QUEUES.ginPending, polling, async () => {
    const started = performance.now();
    const pages = await mergeGinPending();
    if (pages > 0) logLine('info', 'jobs.gin-pending', { pages, ms: Math.round(performance.now() - started) });
  });
  await boss.schedule(QUEUES.ginPending, GIN_PENDING_CRON);
  await boss.work<CaptionJob>(QUEUES.autoCaptions, polling, async ([job]) => {
    const started = performance.now();
    const result = await captionVideo(job!.data.videoId, job!.signal);
    logLine('info', 'jobs.captions', {
      videoId: job!.data.videoId,
      result: typeof result === 'string' ? result : 'refused',
      ...(typeof result === 'string' ? {} : { reason: result.refused }),
      ms: Math.round(performance.now() - started),
    });
  });
  await boss.work<{ exportId: number }>(QUEUES.dataExport, polling, async ([job]) => {
    const started = performance.now();
    try {
      const result = await buildExport(job!.data.exportId);
      logLine('info', 'jobs.export', {
        exportId: job!.data.exportId,
        result,
        ms: Math.round(performance.now() - started),
      });
    } catch (error) {
      // The last try: the member sees 打包失败 and may ask again.
      if (job!.retryCount >= EXPORT_RETRIES) await failExport(job!.data.exportId);
      throw error;
    }
  });
  await boss.work<{ userId: number }>(QUEUES.accountDelete, polling, async ([job]) => {
    const result = await finishDeletion(job!.data.userId);
    logLine('info', 'jobs.account-delete', { userId: job!.data.userId, result });
  });
  await boss.work(QUEUES.accountSweep, polling, async () => {
    const [exports, accounts] = [await sweepExports(), await finishDueDeletions()];
    logLine('info', 'jobs.account-sweep', { exports, accounts });
  });
  await boss.schedule(QUEUES.accountSweep, ACCOUNT_SWEEP_CRON);
  await requeueOrphans();
}

/** Makes sure every upload in 'processing' has its job (keyed by upload, so one that exists is not sent twice). */
async function requeueOrphans(): Promise<void> {
  const waiting = await db().select({ id: uploads.id }).from(uploads).where(eq(uploads.status, 'processing'));
  for (const u of waiting) await enqueue(QUEUES.process, { uploadId: u.id }, { key: u.id });
}
