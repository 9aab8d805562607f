/**
 * One PostgreSQL per test run: the embedded server in a temp dir (or the server at DATABASE_URL), holding a
 * migrated, seeded template database that every test file clones (tests/setup/test-db.ts).
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { connect } from '../../src/server/db/client.ts';
import { startEmbedded, type EmbeddedServer } from '../../src/server/db/embedded.ts';
import { migrateDb } from '../../src/server/db/migrate.ts';
import { seed } from '../../src/server/db/seed.ts';
import { seedContentIfEmpty } from '../../src/server/content/store.ts';
import { ensureBuild } from './build.ts';
import { createEmptyDatabase, dropDatabase, withClient, withDatabase } from './pg-admin.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the test server (its `postgres` database, or DATABASE_URL). */
    dbAdminUrl: string;
    /** The seeded template; clones are named `<template>_<pid>_<n>`. */
    dbTemplate: string;
    /** ISO time the template was seeded with (fixed; SEED_NOW overrides it). */
    seedNow: string;
  }
}

/**
 * The fixed "now" of the seeded template (SEED_NOW=<ISO> overrides it). Seeded activity is as of this moment:
 * a service that ranks by the database clock sees it as old, so tests of "recent" logic add their own fresh rows.
 */
export const SEED_NOW = new Date(process.env.SEED_NOW ?? '2026-06-01T04:00:00.000Z').toISOString();
const PREFIX = 'shanying_tmpl_';

let server: EmbeddedServer | undefined;
let tempDir: string | undefined;
let adminUrl: string | undefined;
let template: string | undefined;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export async function setup(project: TestProject): Promise<void> {
  // Before any file starts: several start the built server, and must not each build it at once.
  ensureBuild();
  const started = performance.now();
  if (process.env.DATABASE_URL) {
    adminUrl = process.env.DATABASE_URL;
  } else {
    tempDir = await mkdtemp(path.join(tmpdir(), 'shanying-test-'));
    // The unprivileged postgres user must be able to enter it.
    await chmod(tempDir, 0o755);
    server = await startEmbedded({
      databaseDir: path.join(tempDir, 'pg'),
      persistent: false,
      postgresFlags: [
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
      ],
      // Statement errors reach the tests as exceptions; only server-level failures are worth printing.
      onError: (message) => {
        if (/\b(FATAL|PANIC)\b/.test(message)) console.error(message);
      },
    });
    adminUrl = server.adminUrl;
  }

  template = `${PREFIX}${process.pid}`;
  const url = withDatabase(adminUrl, template);
  await withClient(adminUrl, async (client) => {
    // Leftovers of runs that died before their teardown (their pid is gone).
    const { rows } = await client.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
      `${PREFIX}%`,
    ]);
    for (const { datname } of rows) {
      const pid = Number(datname.slice(PREFIX.length).split('_')[0]);
      if (!alive(pid) || datname.startsWith(`${template}`)) await dropDatabase(client, datname);
    }
    await createEmptyDatabase(client, template!);
  });
  await migrateDb(url);
  const { db, pool } = connect(url, 2);
  try {
    await seed(db, { now: new Date(SEED_NOW) });
    await seedContentIfEmpty(db);
  } finally {
    await pool.end();
  }
  // Cloning needs the template free of sessions; refusing connections keeps it that way.
  await withClient(adminUrl, (client) =>
    client.query(`ALTER DATABASE ${client.escapeIdentifier(template!)} ALLOW_CONNECTIONS false`),
  );

  project.provide('dbAdminUrl', adminUrl);
  project.provide('dbTemplate', template);
  project.provide('seedNow', SEED_NOW);
  if (process.env.SHANYING_TEST_TIMINGS)
    console.log(`test database ready in ${Math.round(performance.now() - started)} ms`);
}

export async function teardown(): Promise<void> {
  try {
    if (adminUrl && template) {
      await withClient(adminUrl, async (client) => {
        const { rows } = await client.query<{ datname: string }>(
          'SELECT datname FROM pg_database WHERE datname LIKE $1',
          [`${template}%`],
        );
        for (const { datname } of rows) await dropDatabase(client, datname);
      });
    }
  } finally {
    await server?.stop();
    if (tempDir) await rm(tempDir, { recursive: true, force: true });
  }
}
