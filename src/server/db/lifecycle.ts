/** Brings the database up for a process: the server at DATABASE_URL or the embedded one, migrated, seeded when empty. */
import path from 'node:path';
import { count } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { logLine, type Log } from '../log.ts';
import { mediaStore } from '../media/store.ts';
import { embeddedUrl, ensureDatabase, startEmbedded } from './embedded.ts';
import { migrateDb, withLock } from './migrate.ts';
import * as schema from './schema.ts';
import { seed } from './seed.ts';
import { seedContentIfEmpty } from '../content/store.ts';
import { supervise } from './supervisor.ts';

export interface StartOptions {
  /** Where the embedded cluster lives (`<dataDir>/pg`); default DATA_DIR, else ./data. */
  dataDir?: string;
  /** Told of each step, with its duration, and of the embedded server's troubles; default logLine (stderr). */
  log?: Log;
  /** false skips seeding an empty database. */
  seed?: boolean;
  /** Default DATABASE_URL; an empty string forces the embedded server. */
  databaseUrl?: string;
  /** A direct (unpooled) line to the same server for migrations and the seed; default DATABASE_DIRECT_URL, else databaseUrl. */
  directUrl?: string;
  /** Port of the embedded server; default PG_PORT, else a free one. */
  port?: number;
  /** true restarts the embedded server (with backoff) whenever its postmaster exits unasked; the web server's choice. */
  supervise?: boolean;
}

export interface DatabaseHandle {
  url: string;
  embedded: boolean;
  /** Stops the embedded server (a no-op for an external one). */
  stop(): Promise<void>;
}

const DATABASE = 'shanying';
const SEED_LOCK = 7_364_021_002;

/** Starts (or attaches to) PostgreSQL, applies migrations and seeds an empty database. Safe to call after a kill -9. */
export async function startDatabase(opts: StartOptions = {}): Promise<DatabaseHandle> {
  const log = opts.log ?? logLine;
  const since = (t: number) => Math.round(performance.now() - t);
  const started = performance.now();

  const external = opts.databaseUrl ?? process.env.DATABASE_URL;
  let handle: DatabaseHandle;
  if (external) {
    handle = { url: external, embedded: false, stop: async () => {} };
  } else {
    const t = performance.now();
    const dataDir = opts.dataDir ?? process.env.DATA_DIR ?? './data';
    const server = await startEmbedded({
      databaseDir: path.resolve(dataDir, 'pg'),
      ...(opts.port === undefined ? {} : { port: opts.port }),
      onError: (detail) => log('error', 'db.postgres', { detail }),
    });
    log('info', 'db.embedded.start', {
      ms: since(t),
      port: server.port,
      initialised: server.initialised,
      dir: server.databaseDir,
    });
    const supervisor = opts.supervise ? supervise(server, { log }) : undefined;
    handle = {
      url: embeddedUrl(server.port, DATABASE),
      embedded: true,
      stop: () => {
        supervisor?.stop();
        return server.stop();
      },
    };
    try {
      await ensureDatabase(server.adminUrl, DATABASE);
    } catch (error) {
      await handle.stop();
      throw error;
    }
  }

  // Migrations and the seed hold a session advisory lock, which a transaction pooler would not keep.
  // DATABASE_DIRECT_URL goes with DATABASE_URL: a caller naming its own server names its direct line too, or has none.
  const direct = handle.embedded
    ? handle.url
    : (opts.directUrl ?? (opts.databaseUrl === undefined ? process.env.DATABASE_DIRECT_URL : undefined)) || handle.url;
  try {
    let t = performance.now();
    await migrateDb(direct);
    log('info', 'db.migrate', { ms: since(t) });
    if (opts.seed !== false) {
      t = performance.now();
      // Under a lock, so that app servers starting together seed once.
      const summary = await withLock(direct, SEED_LOCK, async (client) => {
        const db = drizzle(client, { schema });
        const [row] = await db.select({ n: count() }).from(schema.users);
        const made = row && row.n > 0 ? undefined : await seed(db, { artwork: mediaStore() });
        // The editors' content, on a new site and on one that predates it (seeded from src/content once).
        await seedContentIfEmpty(db);
        return made;
      });
      if (summary) log('info', 'db.seed', { ms: since(t), rows: summary });
    }
  } catch (error) {
    await handle.stop();
    throw error;
  }
  log('info', 'db.ready', { ms: since(started), embedded: handle.embedded });
  return handle;
}
