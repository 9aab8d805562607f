import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTableName, isTable } from 'drizzle-orm';
import { emptyDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { migrateDb } from './migrate.ts';
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
