/**
 * A database for a command run beside the site (`npm run staff`, `npm run content:import`): DATABASE_URL when set;
 * else the embedded PostgreSQL a running server holds under DATA_DIR (found by its postmaster.pid); else that
 * embedded cluster started for the command and stopped after it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { embeddedUrl } from './embedded.ts';
import { startDatabase, type DatabaseHandle } from './lifecycle.ts';

/** The URL of the embedded server a live postmaster serves under `dataDir`, or null. */
function runningEmbedded(dataDir: string): string | null {
  try {
    const lines = readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    if (!(pid > 0) || !(port > 0)) return null;
    process.kill(pid, 0);
    return embeddedUrl(port, 'shanying');
  } catch {
    return null;
  }
}

/** Opens the site's database for a command; `stop()` leaves a running server's database running. */
export async function attachDatabase(): Promise<DatabaseHandle> {
  if (process.env.DATABASE_URL) return startDatabase({ seed: false });
  const dataDir = path.resolve(process.env.DATA_DIR || 'data');
  const running = runningEmbedded(dataDir);
  if (running) return { url: running, embedded: true, stop: async () => {} };
  return startDatabase({ dataDir });
}
