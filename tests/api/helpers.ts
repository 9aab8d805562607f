/** Shared pieces of the API contract tests: a cloned database per file, calls through handleApi, seeded ids. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import type { z } from 'zod';
import { handleApi } from '../../src/server/api/router.ts';
import { routes } from '../../src/server/api/routes/index.ts';
import type { Db } from '../../src/server/db/client.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { freshDb } from '../setup/test-db.ts';

export interface Ctx {
  db: Db;
}

/** Clones the seeded template for this file and makes it the process-wide db(). */
export function useApiDb(): Ctx {
  const ctx = {} as Ctx;
  let close: () => Promise<void>;
  beforeAll(async () => {
    process.env.API_ANON_CACHE = 'off';
    ({ db: ctx.db, close } = await freshDb());
  });
  afterAll(async () => {
    await close();
  });
  return ctx;
}

export interface CallOptions {
  query?: Record<string, string | number>;
  form?: Record<string, string | number>;
  json?: unknown;
  body?: BodyInit;
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** Calls the API as a client would: `call('GET', '/api/aweme/v1/web/tab/feed/', { query: { count: 10 } })`. */
export async function call(method: string, path: string, opts: CallOptions = {}): Promise<Answer> {
  const url = new URL(path, 'http://shanying.test');
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  const headers = new Headers(opts.headers);
  if (opts.token) headers.set('Token', opts.token);
  if (opts.cookie) headers.set('Cookie', opts.cookie);
  let body: BodyInit | undefined = opts.body;
  if (opts.form) {
    body = new URLSearchParams(Object.entries(opts.form).map(([k, v]) => [k, String(v)])).toString();
    headers.set('content-type', 'application/x-www-form-urlencoded');
  }
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers.set('content-type', 'application/json');
  }
  const res = await handleApi(new Request(url, { method, headers, body }));
  const text = method === 'HEAD' ? '' : await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed, text };
}

/** The registered response schema of a route. */
export function responseSchema(method: string, path: string): z.ZodType {
  const r = routes.find((x) => x.method === method && x.path === path);
  if (!r) throw new Error(`no route ${method} ${path}`);
  return r.response;
}

/** Calls a route and checks a 200 whose body its response schema accepts; returns the parsed body. */
export async function ok(method: string, path: string, opts: CallOptions = {}): Promise<any> {
  const res = await call(method, `/api${path}`, opts);
  if (res.status !== 200) throw new Error(`${method} ${path} → ${res.status} ${res.text}`);
  const parsed = responseSchema(method, path).safeParse(res.body);
  if (!parsed.success)
    throw new Error(`${method} ${path}: response does not match its schema: ${parsed.error.message}`);
  return res.body;
}

/** Expects a Family A error with HTTP `status` and its status_code. */
export function expectErrorA(res: Answer, status: number, statusCode: number): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body.status_code).toBe(statusCode);
  expect(typeof res.body.status_msg).toBe('string');
  expect(res.body.status_msg.length).toBeGreaterThan(0);
}

export function expectErrorB(res: Answer, status: number): void {
  expect(res.status, res.text).toBe(status);
  expect(res.body.code).toBe(String(status));
  expect(typeof res.body.msg).toBe('string');
}

/** One row of a query. */
export async function one<T>(ctx: Ctx, query: ReturnType<typeof sql>): Promise<T> {
  const { rows } = await ctx.db.execute(query);
  if (!rows[0]) throw new Error('query returned no row');
  return rows[0] as T;
}

/** A session token for a user. */
export async function tokenFor(userId: number): Promise<string> {
  return (await createSession(userId)).token;
}

/** Pages through a list until has_more is 0; returns every item id. */
export async function pageAll<C extends string | number = string>(
  fetchPage: (cursor: C) => Promise<{ ids: string[]; next: C; hasMore: boolean }>,
  limit = 200,
  start = '0' as C,
): Promise<string[]> {
  const all: string[] = [];
  let cursor = start;
  for (let i = 0; i < limit; i++) {
    const page = await fetchPage(cursor);
    all.push(...page.ids);
    if (!page.hasMore) return all;
    // The answer's cursor is where the next page starts: it must move on.
    expect(page.next).not.toEqual(cursor);
    cursor = page.next;
  }
  throw new Error('paging did not end');
}
