/**
 * Applies the committed drizzle-kit migrations (./drizzle) to a database, one process at a time.
 *
 * drizzle's own migrator runs every pending migration inside one transaction, where PostgreSQL refuses
 * `CREATE INDEX CONCURRENTLY`; an index built without it holds a lock that stops every write to its table for the
 * whole build (minutes on a large table). So this runner applies the same journal into the same bookkeeping table
 * (`drizzle.__drizzle_migrations`, so databases migrated either way agree), each migration in a transaction of its own,
 * except a migration whose first line is `-- migrate: no-transaction`: its statements run one by one, outside any
 * transaction, and must each be safe to run again (`IF NOT EXISTS`), since a crash can stop it half way.
 *
 * In such a migration, a statement with a line `-- migrate: lane NAME` runs on a connection of that lane's own, after the
 * lane's earlier statements, while the runner goes on with the next ones: two back-fills of different tables, each one
 * process of PostgreSQL's, then take both cores. A statement with a line `-- migrate: join` first waits for every lane,
 * and so does the migration's end. A lane's connection starts with the server's settings (its SETs are its own).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import pg from 'pg';
import { config } from '../config.ts';

// Any fixed 64-bit key; shared by every app server migrating the same database.
const MIGRATION_LOCK = 7_364_021_001;

/** The first line of a migration that must run outside a transaction. */
export const NO_TRANSACTION = '-- migrate: no-transaction';

/** A statement's line that puts it on a lane of its own (see above), and the line that waits for every lane. */
const LANE = /^-- migrate: lane (\S+)\s*$/m;
const JOIN = /^-- migrate: join\s*$/m;

/** MIGRATIONS_DIR, else ./drizzle beside this repo's src (works under Node and Vitest), else ./drizzle under the cwd. */
export function migrationsFolder(): string {
  const configured = config().MIGRATIONS_DIR;
  if (configured) return path.resolve(configured);
  const besideSource = fileURLToPath(new URL('../../../drizzle', import.meta.url));
  if (existsSync(path.join(besideSource, 'meta', '_journal.json'))) return besideSource;
  return path.resolve('drizzle');
}

/**
 * Runs `fn` on one client holding a session advisory lock, so concurrent starters queue instead of racing. The lock is
 * tried, not waited for inside a statement: `CREATE INDEX CONCURRENTLY` waits out every open statement, a blocked
 * `pg_advisory_lock` of a second starter included, which would wait for it in turn (a deadlock).
 */
export async function withLock<T>(url: string, key: number, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [key]);
      if (rows[0]?.got) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return await fn(client);
  } finally {
    // Ending the session releases the lock too; unlock first so a pooled proxy cannot keep it.
    await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => {});
    await client.end();
  }
}

/** One journal entry as applied: its tag (file name), its statements and whether it runs outside a transaction. */
export interface Migration extends MigrationMeta {
  tag: string;
  noTransaction: boolean;
}

/** The journal's migrations in order, with their tags. */
export function readMigrations(folder = migrationsFolder()): Migration[] {
  const metas = readMigrationFiles({ migrationsFolder: folder });
  const journal = readJournal(folder);
  return metas.map((m, i) => ({
    ...m,
    tag: journal[i]!,
    noTransaction: m.sql[0]!.trimStart().startsWith(NO_TRANSACTION),
  }));
}

/** The journal's tags in order (readMigrationFiles drops them). */
function readJournal(folder: string): string[] {
  const { entries } = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string }[];
  };
  return entries.map((e) => e.tag);
}

/** Index names a statement creates concurrently: an interrupted build leaves them INVALID, and they are rebuilt. */
function concurrentIndexNames(statement: string): string[] {
  return [
    ...statement.matchAll(/CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+(?:IF\s+NOT\s+EXISTS\s+)?"?(\w+)"?/gi),
  ].map((m) => m[1]!);
}

/** Told how long each statement of a migration took (bench:scale prints where a migration spends its time). */
export type StatementTimer = (tag: string, statement: string, ms: number) => void;

/** Runs `statement` on `client`, first dropping any index it builds concurrently that an interrupted run left invalid. */
async function runStatement(client: pg.Client, statement: string): Promise<void> {
  for (const name of concurrentIndexNames(statement)) {
    const { rows } = await client.query<{ invalid: boolean }>(
      `SELECT NOT i.indisvalid AS invalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE c.relname = $1 AND c.relnamespace = 'public'::regnamespace`,
      [name],
    );
    if (rows[0]?.invalid) await client.query(`DROP INDEX CONCURRENTLY IF EXISTS "${name}"`);
  }
  await client.query(statement);
}

/** A lane of a migration outside a transaction: its connection, and its statements so far, in order. */
interface Lane {
  client: Promise<pg.Client>;
  done: Promise<void>;
  error?: unknown;
}

async function applyOne(url: string, client: pg.Client, m: Migration, timer?: StatementTimer): Promise<void> {
  const timed = async (tag: string, statement: string, work: () => Promise<void>) => {
    const t = performance.now();
    await work();
    timer?.(tag, statement, performance.now() - t);
  };
  const record = () =>
    client.query('INSERT INTO drizzle.__drizzle_migrations ("hash", "created_at") VALUES ($1, $2)', [
      m.hash,
      m.folderMillis,
    ]);
  if (!m.noTransaction) {
    await client.query('BEGIN');
    try {
      for (const statement of m.sql)
        if (statement.trim()) await timed(m.tag, statement, () => client.query(statement).then(() => {}));
      await record();
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    }
    return;
  }
  const lanes = new Map<string, Lane>();
  // Waits for every lane, closes their connections and throws the first lane's error.
  const join = async () => {
    if (!lanes.size) return;
    const names = [...lanes.keys()].join(', ');
    const all = [...lanes.values()];
    lanes.clear();
    await timed(m.tag, `-- waiting for the lanes ${names}`, async () => {
      await Promise.all(all.map((lane) => lane.done));
    });
    await Promise.all(all.map((lane) => lane.client.then((c) => c.end()).catch(() => {})));
    const failed = all.find((lane) => lane.error !== undefined);
    if (failed) throw failed.error;
  };
  try {
    for (const statement of m.sql) {
      if (!statement.trim()) continue;
      if (JOIN.test(statement)) await join();
      const name = LANE.exec(statement)?.[1];
      if (name === undefined) {
        await timed(m.tag, statement, () => runStatement(client, statement));
        continue;
      }
      let lane = lanes.get(name);
      if (!lane) {
        const laneClient = new pg.Client({ connectionString: url });
        laneClient.on('error', () => {});
        lane = { client: laneClient.connect().then(() => laneClient), done: Promise.resolve() };
        lanes.set(name, lane);
      }
      const current = lane;
      current.done = current.done.then(async () => {
        if (current.error !== undefined) return;
        try {
          const laneClient = await current.client;
          await timed(`${m.tag}, lane ${name}`, statement, () => runStatement(laneClient, statement));
        } catch (error) {
          current.error = error;
        }
      });
    }
  } catch (error) {
    // A statement that failed on the runner's own connection still waits for the lanes; its error is the one told.
    await join().catch(() => {});
    throw error;
  }
  await join();
  await record();
}

/**
 * Applies pending migrations to the database at `url`; `until` stops before the first migration whose tag it names;
 * `timer` is told each statement's time.
 */
export async function migrateDb(url: string, options: { until?: string; timer?: StatementTimer } = {}): Promise<void> {
  const migrations = readMigrations();
  await withLock(url, MIGRATION_LOCK, async (client) => {
    await client.query("SET client_min_messages = 'warning'");
    await client.query('CREATE SCHEMA IF NOT EXISTS drizzle');
    await client.query(
      'CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)',
    );
    const { rows } = await client.query<{ created_at: string }>(
      'SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1',
    );
    const last = rows[0] ? Number(rows[0].created_at) : -Infinity;
    for (const m of migrations) {
      if (options.until !== undefined && m.tag.endsWith(options.until)) break;
      if (m.folderMillis > last) await applyOne(url, client, m, options.timer);
    }
  });
}
