/** Applies the committed drizzle-kit migrations (./drizzle) to a database, one process at a time. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { config } from '../config.ts';

// Any fixed 64-bit key; shared by every app server migrating the same database.
const MIGRATION_LOCK = 7_364_021_001;

/** MIGRATIONS_DIR, else ./drizzle beside this repo's src (works under Node and Vitest), else ./drizzle under the cwd. */
function migrationsFolder(): string {
  const configured = config().MIGRATIONS_DIR;
  if (configured) return configured;
  const besideSource = fileURLToPath(new URL('../../../drizzle', import.meta.url));
  if (existsSync(path.join(besideSource, 'meta', '_journal.json'))) return besideSource;
  return path.resolve('drizzle');
}

/** Runs `fn` on one client holding a session advisory lock, so concurrent starters queue instead of racing. */
export async function withLock<T>(url: string, key: number, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [key]);
    return await fn(client);
  } finally {
    // Ending the session releases the lock too; unlock first so a pooled proxy cannot keep it.
    await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => {});
    await client.end();
  }
}

/** Applies pending migrations to the database at `url`. */
export async function migrateDb(url: string): Promise<void> {
  const migrationsDir = migrationsFolder();
  await withLock(url, MIGRATION_LOCK, async (client) => {
    await client.query("SET client_min_messages = 'warning'");
    await migrate(drizzle(client), { migrationsFolder: migrationsDir });
  });
}
