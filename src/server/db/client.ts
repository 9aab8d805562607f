/** The one pg pool and Drizzle handle of this process, pointed at DATABASE_URL (set by server.ts to the embedded server when unset). */
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema>;

let pool: pg.Pool | undefined;
let handle: Db | undefined;

/** Opens a Drizzle handle on a new pool for `url` (tests use one per cloned database). */
export function connect(url: string, max = 10): { db: Db; pool: pg.Pool } {
  const p = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // A fast shutdown of PostgreSQL terminates idle clients (57P01); unhandled, that would crash Node.
  p.on('error', (err) => console.error(JSON.stringify({ level: 'warn', msg: 'pg pool error', error: err.message })));
  return { db: drizzle(p, { schema }), pool: p };
}

/** The process-wide database handle. */
export function db(): Db {
  if (!handle) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error('DATABASE_URL is not set: start the portal with `npm start` (server.ts starts the database)');
    ({ db: handle, pool } = connect(url, Number(process.env.PG_POOL_MAX ?? 10)));
  }
  return handle;
}

/** Sets the process-wide handle (tests point it at their own cloned database). */
export function useDb(next: Db): void {
  handle = next;
}

/** Closes the process-wide pool, if one was opened. */
export async function closeDb(): Promise<void> {
  const p = pool;
  pool = undefined;
  handle = undefined;
  await p?.end();
}
