/** Per-file databases for unit tests: clones of the seeded template (freshDb) or empty ones (emptyDb). */
import type pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { connect, useDb, type Db } from '../../src/server/db/client.ts';
import { createEmptyDatabase, dropDatabase, withClient, withDatabase } from './pg-admin.ts';

export interface TestDb {
  db: Db;
  /** The pool behind `db`, for raw SQL in tests. */
  pool: pg.Pool;
  url: string;
  name: string;
  /** Closes the pool and drops the database. */
  close(): Promise<void>;
}

let serial = 0;

async function open(create: (client: pg.Client, name: string) => Promise<void>): Promise<TestDb> {
  const admin = inject('dbAdminUrl');
  const name = `${inject('dbTemplate')}_${process.pid}_${++serial}`;
  await withClient(admin, (client) => create(client, name));
  const url = withDatabase(admin, name);
  const { db, pool } = connect(url, 5);
  useDb(db);
  let closed: Promise<void> | undefined;
  return {
    db,
    pool,
    url,
    name,
    close: () =>
      (closed ??= (async () => {
        await pool.end();
        await withClient(admin, (client) => dropDatabase(client, name));
      })()),
  };
}

/** A private copy of the migrated, seeded template (seeded at `seedNow()`); also made the process-wide `db()`. */
export function freshDb(): Promise<TestDb> {
  return open(async (client, name) => {
    const tmpl = client.escapeIdentifier(inject('dbTemplate'));
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${tmpl} STRATEGY FILE_COPY`);
  });
}

/** Gives the calling test file its own fresh database (`freshDb`) before its tests, and drops it after them. */
export function useFreshDb(ready: (db: Db) => void): void {
  let t: TestDb | undefined;
  beforeAll(async () => {
    t = await freshDb();
    ready(t.db);
  });
  afterAll(async () => {
    await t?.close();
  });
}

/** An empty database (no tables): for migration and seed tests. */
export function emptyDb(): Promise<TestDb> {
  return open(createEmptyDatabase);
}

/** The "now" the template was seeded with. */
export function seedNow(): Date {
  return new Date(inject('seedNow'));
}
