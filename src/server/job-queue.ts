/**
 * The job queue: pg-boss on the portal's own PostgreSQL (its tables in the `pgboss` schema, which pg-boss creates and
 * migrates itself). Jobs are rows, so they survive restarts; a job sent inside a transaction exists only if it commits.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { fromDrizzle, PgBoss, type ConstructorOptions, type Queue } from 'pg-boss';
import { config } from './config.ts';
import type { DbOrTx } from './db/types.ts';
import { asError } from './error-fields.ts';
import { logLine } from './log.ts';

/** Queue names. */
export const QUEUES = {
  /** Transcode an upload's ladder and poster, then publish its work: `{ uploadId }`. */
  process: 'video-process',
  /** Where a process job lands once its retries are spent: marks the upload and its work 未通过. */
  processFailed: 'video-process-failed',
  /** Delete media files of a deleted work: `{ keys, prefixes }`. */
  removeMedia: 'media-remove',
  /** End abandoned uploads and delete stray tus files (sweep-uploads.ts), on a schedule: no data. */
  sweepUploads: 'upload-sweep',
  /** Move the 热度 window past the hour that left it (services/rankings.ts), on a schedule: no data. */
  heatWindow: 'heat-window',
  /** Merge the GIN indexes' pending entries into them (db/gin-pending.ts), on a schedule: no data. */
  ginPending: 'gin-pending',
  /** Write a published work's captions with CAPTION_ENGINE (auto-captions.ts): `{ videoId }`. */
  autoCaptions: 'video-captions',
  /** Build a member's data export ZIP (data-export.ts): `{ exportId }`. */
  dataExport: 'data-export',
  /** Delete an account whose cooling-off has ended, sent to start at its due time: `{ userId }`. */
  accountDelete: 'account-delete',
  /** Hourly: delete expired data exports and any account deletion whose job was lost. No data. */
  accountSweep: 'account-sweep',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** Retries of a data export before it is marked failed. */
export const EXPORT_RETRIES = 2;

/**
 * Transcoding retries three times with exponential backoff from 10 s; a worker that dies mid-job stops its heartbeat,
 * and the job is retried once `heartbeatSeconds` pass without one (or after `expireInSeconds` at the latest).
 */
const QUEUE_OPTIONS: Record<QueueName, Omit<Queue, 'name'>> = {
  [QUEUES.processFailed]: { retryLimit: 5, retryDelay: 5, retryBackoff: true },
  [QUEUES.process]: {
    retryLimit: 3,
    retryDelay: 10,
    retryBackoff: true,
    retryDelayMax: 300,
    expireInSeconds: 3600,
    heartbeatSeconds: 10,
    deadLetter: QUEUES.processFailed,
  },
  [QUEUES.removeMedia]: { retryLimit: 5, retryDelay: 30, retryBackoff: true },
  // A sweep that fails is tried again once; the next hour's sweep picks up whatever is left.
  [QUEUES.sweepUploads]: { retryLimit: 1, retryDelay: 60, expireInSeconds: 900 },
  // Every minute; a missed run is the next minute's.
  [QUEUES.heatWindow]: { retryLimit: 0, expireInSeconds: 120 },
  [QUEUES.ginPending]: { retryLimit: 0, expireInSeconds: 120 },
  [QUEUES.autoCaptions]: { retryLimit: 2, retryDelay: 30, retryBackoff: true, expireInSeconds: 1800 },
  [QUEUES.dataExport]: { retryLimit: EXPORT_RETRIES, retryDelay: 30, retryBackoff: true, expireInSeconds: 1800 },
  [QUEUES.accountDelete]: { retryLimit: 5, retryDelay: 60, retryBackoff: true, expireInSeconds: 900 },
  [QUEUES.accountSweep]: { retryLimit: 1, retryDelay: 60, expireInSeconds: 900 },
};

let boss: PgBoss | undefined;
let starting: Promise<PgBoss> | undefined;

/** Starts pg-boss on `url` (DATABASE_URL by default) and makes sure the queues exist; later calls get the same instance. */
export function startQueue(url = config().DATABASE_URL, options: Partial<ConstructorOptions> = {}): Promise<PgBoss> {
  if (boss) return Promise.resolve(boss);
  if (!url) return Promise.reject(new Error('DATABASE_URL is not set: the job queue needs the database'));
  starting ??= (async () => {
    const instance = new PgBoss({ connectionString: url, max: 4, application_name: 'shanying-jobs', ...options });
    instance.on('error', (error: unknown) => {
      // pg-boss also emits plain copies of an error (its fields spread, with the queue and the worker): made an Error
      // again, so that errorFields judges its message as any other's (a query's values never reach the log).
      const { queue, worker } = (error ?? {}) as { queue?: unknown; worker?: unknown };
      logLine('warn', 'jobs: pg-boss error', {
        error: asError(error),
        ...(typeof queue === 'string' ? { queue } : {}),
        ...(typeof worker === 'string' ? { worker } : {}),
      });
    });
    await instance.start();
    // Dead-letter queues must exist before the queues that name them.
    for (const [name, opts] of Object.entries(QUEUE_OPTIONS)) {
      await instance.createQueue(name, opts);
      await instance.updateQueue(name, opts);
    }
    boss = instance;
    return instance;
  })().catch((error: unknown) => {
    starting = undefined;
    throw error;
  });
  return starting;
}

/** The started queue (started on first use from DATABASE_URL). */
export function queue(): Promise<PgBoss> {
  return boss ? Promise.resolve(boss) : startQueue();
}

/**
 * Sends a job; with `tx`, inside that transaction (it exists only if the transaction commits). With `key`, the job's
 * id is derived from it, so sending the same key again while the job is kept is a no-op. With `startAfter`, no worker
 * takes it before then.
 */
export async function enqueue(
  name: QueueName,
  data: object,
  options: { tx?: DbOrTx; key?: string; startAfter?: Date } = {},
): Promise<void> {
  const b = await queue();
  await b.send(name, data, {
    ...(options.tx ? { db: fromDrizzle(options.tx, sql) } : {}),
    ...(options.key ? { id: keyedId(`${name}:${options.key}`) } : {}),
    ...(options.startAfter ? { startAfter: options.startAfter } : {}),
  });
}

/** A UUID (version 4 layout) derived from `key`. */
function keyedId(key: string): string {
  const h = createHash('sha256').update(key).digest();
  h[6] = (h[6]! & 0x0f) | 0x40;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** Stops workers (letting a running job finish for up to `timeoutMs`) and closes the queue's pool. */
export async function stopQueue(timeoutMs = 10_000): Promise<void> {
  const b = boss ?? (await starting?.catch(() => undefined));
  boss = undefined;
  starting = undefined;
  await b?.stop({ graceful: true, timeout: timeoutMs, close: true });
}
