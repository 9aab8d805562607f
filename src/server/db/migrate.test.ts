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
