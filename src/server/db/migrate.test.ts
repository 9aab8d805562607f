import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTableName, isTable } from 'drizzle-orm';
import { emptyDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { migrateDb, migrationsFolder, NO_TRANSACTION } from './migrate.ts';
import * as schema from './schema.ts';

describe('migrateDb', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await emptyDb();
  });
  afterAll(() => t.close());

  it('creates every table of the schema on an empty database, and is idempotent', async () => {
    await migrateDb(t.url);
    await migrateDb(t.url);
    const { rows } = await t.pool.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    );
    const expected = Object.values(schema)
      .filter((value) => isTable(value))
      .map((table) => getTableName(table))
      .sort();
    expect(rows.map((r) => r.table_name)).toEqual(expected);
    const applied = await t.pool.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    expect(applied.rows[0].n).toBeGreaterThanOrEqual(1);
  });

  it('lets two starters migrate the same database at once', async () => {
    await expect(Promise.all([migrateDb(t.url), migrateDb(t.url)])).resolves.toBeDefined();
  });
});

describe('a migration outside a transaction', () => {
  let t: TestDb;
  let folder: string;
  beforeAll(async () => {
    t = await emptyDb();
    await migrateDb(t.url);
    // The committed migrations and one more that builds an index concurrently.
    folder = mkdtempSync(path.join(tmpdir(), 'shanying-migrations-'));
    cpSync(migrationsFolder(), folder, { recursive: true });
    const journalFile = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { when: number; tag: string }[] };
    const last = journal.entries[journal.entries.length - 1]!;
    journal.entries.push({ ...last, when: last.when + 1, tag: '9999_concurrent' });
    writeFileSync(journalFile, JSON.stringify(journal));
    writeFileSync(
      path.join(folder, '9999_concurrent.sql'),
      `${NO_TRANSACTION}\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "users_nickname_test_idx" ON "users" ("nickname");`,
    );
  });
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await t.close();
  });

  const withFolder = async (fn: () => Promise<void>) => {
    process.env.MIGRATIONS_DIR = folder;
    try {
      await fn();
    } finally {
      delete process.env.MIGRATIONS_DIR;
    }
  };
  const index = async () =>
    (
      await t.pool.query<{ valid: boolean }>(
        `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         WHERE c.relname = 'users_nickname_test_idx'`,
      )
    ).rows[0];

  it('builds its index concurrently (which a transaction refuses) and records it once', async () => {
    await withFolder(() => migrateDb(t.url));
    expect(await index()).toEqual({ valid: true });
    const { rows } = await t.pool.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    await withFolder(() => migrateDb(t.url));
    const again = await t.pool.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    expect(again.rows[0].n).toBe(rows[0].n);
  });

  it('builds again an index an interrupted run left invalid', async () => {
    // What a crash during CREATE INDEX CONCURRENTLY leaves: the index, marked invalid, and the migration unrecorded.
    await t.pool.query(`UPDATE pg_index SET indisvalid = false WHERE indexrelid = 'users_nickname_test_idx'::regclass`);
    await t.pool.query(
      `DELETE FROM drizzle.__drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)`,
    );
    expect(await index()).toEqual({ valid: false });
    await withFolder(() => migrateDb(t.url));
    expect(await index()).toEqual({ valid: true });
  });
});

describe('lanes of a migration outside a transaction', () => {
  let t: TestDb;
  let folder: string;
  const journalFile = () => path.join(folder, 'meta', '_journal.json');
  // Adds one migration after the committed ones (in place of the one added before, and later than it).
  let added = 0;
  const withMigration = async (tag: string, text: string, fn: () => Promise<void>) => {
    cpSync(migrationsFolder(), folder, { recursive: true });
    const journal = JSON.parse(readFileSync(journalFile(), 'utf8')) as { entries: { when: number; tag: string }[] };
    const last = journal.entries[journal.entries.length - 1]!;
    journal.entries.push({ ...last, when: last.when + ++added, tag });
    writeFileSync(journalFile(), JSON.stringify(journal));
    writeFileSync(path.join(folder, `${tag}.sql`), `${NO_TRANSACTION}\n${text}`);
    process.env.MIGRATIONS_DIR = folder;
    try {
      await fn();
    } finally {
      delete process.env.MIGRATIONS_DIR;
    }
  };
  const recorded = async () =>
    (await t.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations')).rows[0]!.n;
  beforeAll(async () => {
    t = await emptyDb();
    await migrateDb(t.url);
    folder = mkdtempSync(path.join(tmpdir(), 'shanying-lanes-'));
  });
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await t.close();
  });

  it("runs each lane's statements beside the others, and a join waits for them all", async () => {
    // Lane a waits (up to 10 s) for what lane b writes after it: run one after the other, a would write "a alone".
    const text = `CREATE TABLE IF NOT EXISTS lane_probe (who text NOT NULL);
--> statement-breakpoint
-- migrate: lane a
DO $$ BEGIN
  FOR i IN 1..1000 LOOP
    EXIT WHEN EXISTS (SELECT 1 FROM lane_probe WHERE who = 'b');
    PERFORM pg_sleep(0.01);
  END LOOP;
  INSERT INTO lane_probe VALUES (CASE WHEN EXISTS (SELECT 1 FROM lane_probe WHERE who = 'b') THEN 'a after b' ELSE 'a alone' END);
END $$;
--> statement-breakpoint
-- migrate: lane b
INSERT INTO lane_probe VALUES ('b');
--> statement-breakpoint
-- migrate: join
INSERT INTO lane_probe SELECT 'joined after ' || count(*) FROM lane_probe;`;
    const before = await recorded();
    await withMigration('9998_lanes', text, () => migrateDb(t.url));
    const { rows } = await t.pool.query<{ who: string }>('SELECT who FROM lane_probe ORDER BY who');
    expect(rows.map((r) => r.who)).toEqual(['a after b', 'b', 'joined after 2']);
    expect(await recorded()).toBe(before + 1);
  });

  it("fails on a lane's error, records nothing, and leaves no lane's connection open", async () => {
    const text = `-- migrate: lane a
SELECT 1 / 0;
--> statement-breakpoint
-- migrate: lane b
SELECT pg_sleep(0.2);
--> statement-breakpoint
SELECT 1;`;
    const before = await recorded();
    await withMigration('9999_lane_fails', text, async () => {
      await expect(migrateDb(t.url)).rejects.toThrow(/division by zero/);
    });
    expect(await recorded()).toBe(before);
    const open = await t.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
         AND query ~ 'pg_sleep\\(0\\.2\\)|1 / 0'`,
    );
    expect(open.rows[0]!.n).toBe(0);
  });
});
