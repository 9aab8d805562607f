/**
 * `npm run worker`: works the job queue (media processing, media removal, the hourly upload sweep) without serving
 * HTTP, for running workers apart from web servers (start those with WORKERS=0). Same database settings as server.ts:
 * DATABASE_URL, or the embedded PostgreSQL under DATA_DIR when no other process holds it.
 */
import { ConfigError, loadProcessConfig, useDatabaseUrl } from './src/server/config.ts';
import { startDatabase } from './src/server/db/lifecycle.ts';
import { startQueue, stopQueue } from './src/server/job-queue.ts';
import { startWorkers } from './src/server/jobs/worker.ts';
import { logLine } from './src/server/log.ts';
import { mediaStore } from './src/server/media/store.ts';

let stopping = false;
let database: Awaited<ReturnType<typeof startDatabase>> | undefined;

async function stop(reason: string): Promise<void> {
  if (stopping) process.exit(130);
  stopping = true;
  logLine('info', `worker stopping (${reason})`);
  await stopQueue().catch(() => {});
  await database?.stop().catch(() => {});
  process.exit(0);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stop(signal));

try {
  // A setting that does not parse stops the start here, naming the variable, rather than at the first job.
  loadProcessConfig();
} catch (error) {
  if (error instanceof ConfigError) logLine('error', error.message);
  else logLine('error', 'settings could not be read', { error });
  process.exit(1);
}

try {
  mediaStore();
  database = await startDatabase();
  useDatabaseUrl(database.url);
  await startWorkers(await startQueue(database.url));
  logLine('info', 'worker ready');
} catch (error) {
  logLine('error', 'worker start-up failed', { error });
  await database?.stop().catch(() => {});
  process.exit(1);
}
