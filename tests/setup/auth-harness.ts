/**
 * What the auth service tests share: their own database, an outbox in a temporary DATA_DIR, every log line and
 * every secret the flows handled, and the check that no secret is kept in clear.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import { sessions } from '../../src/server/db/schema.ts';
import { requestLoginCode } from '../../src/server/services/auth/codes.ts';
import { ServiceError } from '../../src/server/errors.ts';
import { lastOutboxCode } from '../../src/server/services/mailer.ts';
import { hashToken } from '../../src/server/services/sessions.ts';
import { freshDb, type TestDb } from './test-db.ts';

export interface AuthHarness {
  /** The file's database (after beforeAll). */
  readonly t: TestDb;
  /** Tokens, passwords and tickets the flows handled; none may appear in clear in the database or in any output. */
  readonly secrets: Set<string>;
  /** Login codes the flows mailed. */
  readonly codes: Set<string>;
  /** The ServiceError a promise rejects with. */
  failure(promise: Promise<unknown>): Promise<ServiceError>;
  /** Remembers a login's token as a secret. */
  track<T extends { token: string }>(login: T): T;
  /** Requests a code and reads it from the outbox, as a developer would. */
  mailedCode(email: string, ip: string): Promise<string>;
  /** Checks every table and log line for the secrets and codes seen, after at least `min` of each were seen. */
  expectSecretsKept(min: { secrets: number; codes: number; sessions: number }): Promise<void>;
}

/** Registers the file's beforeAll/afterAll and returns its harness. */
export function useAuthHarness(): AuthHarness {
  let db: TestDb | undefined;
  let dataDir: string;
  const savedDataDir = process.env.DATA_DIR;
  const savedSmtp = process.env.SMTP_URL;
  const secrets = new Set<string>();
  const codes = new Set<string>();
  const output: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'shanying-auth-'));
    process.env.DATA_DIR = dataDir;
    delete process.env.SMTP_URL;
    const keep = (chunk: unknown) => {
      output.push(String(chunk));
      return true;
    };
    vi.spyOn(process.stdout, 'write').mockImplementation(keep);
    vi.spyOn(process.stderr, 'write').mockImplementation(keep);
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void output.push(args.map(String).join(' ')));
    }
    db = await freshDb();
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await db?.close();
    if (savedDataDir === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = savedDataDir;
    if (savedSmtp !== undefined) process.env.SMTP_URL = savedSmtp;
    await rm(dataDir, { recursive: true, force: true });
  });

  const harness: AuthHarness = {
    get t() {
      if (!db) throw new Error('the auth harness has no database before beforeAll');
      return db;
    },
    secrets,
    codes,
    async failure(promise) {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ServiceError);
      return error as ServiceError;
    },
    track(login) {
      secrets.add(login.token);
      return login;
    },
    async mailedCode(email, ip) {
      await requestLoginCode(email, { ip });
      const code = await lastOutboxCode(email);
      expect(code).toMatch(/^\d{6}$/);
      codes.add(code!);
      return code!;
    },
    async expectSecretsKept(min) {
      expect(secrets.size).toBeGreaterThanOrEqual(min.secrets);
      expect(codes.size).toBeGreaterThanOrEqual(min.codes);
      const t = harness.t;
      const { rows: columns } = await t.db.execute<{ table_name: string; column_name: string }>(sql`
        select table_name, column_name from information_schema.columns
        where table_schema = 'public' and data_type in ('text', 'character varying', 'jsonb', 'ARRAY', 'json')`);
      expect(columns.length).toBeGreaterThan(20);
      const dump: string[] = [];
      for (const { table_name, column_name } of columns) {
        const { rows } = await t.db.execute<{ v: string | null }>(
          sql`select ${sql.identifier(column_name)}::text as v from ${sql.identifier(table_name)}`,
        );
        for (const { v } of rows) if (v) dump.push(v);
      }
      const everything = dump.join('\n');
      const logs = output.join('\n');
      if (codes.size > 0) expect(logs).toContain('outbox');
      for (const secret of secrets) {
        expect(everything.includes(secret), 'a secret is stored in clear').toBe(false);
        expect(logs.includes(secret), 'a secret reached the log').toBe(false);
      }
      for (const code of codes) {
        const clear = new RegExp(`(?<![0-9A-Za-z])${code}(?![0-9A-Za-z])`);
        expect(clear.test(everything), 'a code is stored in clear').toBe(false);
        expect(clear.test(logs), 'a code reached the log').toBe(false);
      }
      // What is stored instead: the hashes of the tokens handed out.
      const hashes = new Set((await t.db.select({ h: sessions.tokenHash }).from(sessions)).map((r) => r.h));
      expect([...secrets].filter((s) => hashes.has(hashToken(s))).length).toBeGreaterThanOrEqual(min.sessions);
    },
  };
  return harness;
}
