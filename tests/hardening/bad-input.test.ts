/**
 * The bad-input corpus: every operation of the OpenAPI document and every page route, sent wrong types, out-of-range
 * integers, lengths up to 2 MB, NUL and other control characters, invalid UTF-8 and lone surrogates, malformed JSON,
 * forms and multipart bodies, wrong content types, oversized bodies, other methods, and path traversal on /media,
 * against the production server on a real database. No answer may be a 5xx or show a stack or SQL, the server must
 * stay up, and its logs must never hold what was typed.
 */
import { readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reset } from '../../src/server/services/rate-limit.ts';
import { createSession } from '../../src/server/services/sessions.ts';
import { startBuiltServer, type BuiltServer } from './built-server.ts';

const PAGES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/pages');
/** Typed into text values: the logs must never contain it. */
const MARKER = 'zqxcorpus';
const MB2 = 2 * 1024 * 1024;
/** Requests in flight at once for one operation or page, and operations under way at once. */
const PARALLEL = 8;
const OPERATIONS_AT_ONCE = 4;

/** What an answer must never show: a stack frame, SQL, a driver's or a validator's own words. */
const LEAK =
  /Failed query|params: |syntax error at or near|invalid byte sequence|violates (?:unique|foreign key|not-null|check) constraint|DrizzleQueryError|ZodError|node_modules|\bat (?:async )?[\w.<>]+ \(|\.ts:\d+:\d+|\.mjs:\d+:\d+|TypeError:|ReferenceError:|RangeError:|postgres(?:ql)?:\/\//;

interface Sent {
  method: string;
  /** Raw request target: sent byte for byte (no normalising of `..` or re-encoding). */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Finding {
  request: string;
  problem: string;
}

let server: BuiltServer;
const agent = new http.Agent({ keepAlive: true, maxSockets: PARALLEL * OPERATIONS_AT_ONCE });
const findings: Finding[] = [];
let sentCount = 0;
const slowest: [number, string][] = [];
/** Requests the server closed the connection on instead of answering. */
const resets: string[] = [];

function send(req: Sent): Promise<Answer> {
  const { port } = new URL(server.base);
  return new Promise((resolve, reject) => {
    // Framed explicitly: Node sends the body of a DELETE or OPTIONS without a length, and the server would read it as the next request.
    const headers =
      req.body === undefined ? req.headers : { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) };
    const r = http.request({ host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent }, (res) => {
      // An event stream never ends: its status and headers are the answer.
      if (String(res.headers['content-type']).startsWith('text/event-stream')) {
        res.destroy();
        return resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    r.on('error', reject);
    if (req.body !== undefined) r.end(req.body);
    else r.end();
  });
}

function describeRequest(req: Sent): string {
  const body = req.body === undefined ? '' : ` body(${req.body.length}): ${String(req.body).slice(0, 80)}`;
  return `${req.method} ${req.path.slice(0, 160)}${req.headers?.['content-type'] ? ` [${req.headers['content-type']}]` : ''}${body}`;
}

/** Sends one request and records what is wrong with its answer; `expect` may add a rule of its own. */
async function probe(req: Sent, check?: (a: Answer) => string | null): Promise<Answer | null> {
  sentCount++;
  let answer: Answer;
  const started = performance.now();
  try {
    answer = await send(req);
    slowest.push([performance.now() - started, describeRequest(req).slice(0, 120)]);
  } catch (error) {
    // A reset is what a server does to a request it will not read (a 2 MB URL); it must not be the process dying.
    if (!server.alive()) findings.push({ request: describeRequest(req), problem: `server died: ${String(error)}` });
    resets.push(`${describeRequest(req).slice(0, 100)}: ${String(error)}`);
    return null;
  }
  if (answer.status >= 500)
    findings.push({ request: describeRequest(req), problem: `${answer.status}: ${answer.body.slice(0, 200)}` });
  const leak = LEAK.exec(answer.body);
  if (leak)
    findings.push({
      request: describeRequest(req),
      problem: `answer shows ${JSON.stringify(leak[0])}: …${answer.body.slice(Math.max(0, leak.index - 80), leak.index + 120)}…`,
    });
  const extra = check?.(answer);
  if (extra) findings.push({ request: describeRequest(req), problem: extra });
  return answer;
}

/** One line per kind of finding (request path without its query, and the problem's first words), with a count. */
function summary(): string {
  const counts = new Map<string, number>();
  for (const f of findings) {
    const key = `${f.request.split(/[? ]/).slice(0, 2).join(' ')} → ${f.problem.slice(0, 60)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${n}× ${k}`).join('\n');
}

/** Runs `tasks` `width` at a time. */
async function pool(tasks: (() => Promise<unknown>)[], width = PARALLEL): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < tasks.length) await tasks[next++]!();
    }),
  );
}

const enc = encodeURIComponent;

/**
 * Bad values for any parameter, %-encoded as they go on the wire (some on purpose not valid encodings). The text
 * hazards come first: a service's own rate limit must not answer before they reach it.
 */
const CORE_VALUES: string[] = [enc(`a\u0000b${MARKER}`), `%ED%B0%80${MARKER}`, 'abc', '2147483648'];

/** Further bad values: each goes to one operation in VALUE_SHARES, on one of its parameters. */
const VALUE_SHARES = 2;
const BAD_VALUES: string[] = [
  '%FF',
  enc(`${MARKER}${'x'.repeat(10_000)}`),
  '%00',
  enc(`a\u0007b${MARKER}`),
  enc(`\u001b[31m${MARKER}`),
  '%ED%A0%80',
  '%C0%AF',
  '%',
  '-1',
  '1.5',
  '1e3',
  '',
  '9'.repeat(40),
  enc('[]'),
  'null',
  enc('多'.repeat(5000)),
  enc(`"><img src=x onerror=alert(1)>${MARKER}`),
  enc(`1' OR '1'='1 ${MARKER}`),
];

/** JSON values of the wrong type or shape, as JSON text; text hazards first. */
const BAD_JSON_VALUES: string[] = [
  `"a\\u0000${MARKER}"`,
  `"\\ud800${MARKER}"`,
  '[]',
  '{}',
  'null',
  'true',
  '1e308',
  '1.5',
];

/** Whole bodies that are not what they claim: the first CORE_BODIES go to every write, the others to one in BODY_SHARES. */
const CORE_BODIES = 4;
const BODY_SHARES = 3;
const BAD_BODIES: { type: string; body: string | Buffer }[] = [
  { type: 'application/json', body: '{' },
  {
    type: 'multipart/form-data; boundary=x',
    body: `--x\r\nContent-Disposition: form-data; name="text"\r\n\r\na\u0000${MARKER}\r\n--x--\r\n`,
  },
  { type: 'application/x-www-form-urlencoded', body: 'x'.repeat(MB2) },
  { type: 'text/plain', body: 'a=b' },
  { type: 'application/json', body: '{"a":' },
  { type: 'application/json', body: 'null' },
  { type: 'application/json', body: '[]' },
  { type: 'application/json', body: '"text"' },
  { type: 'application/json', body: '1' },
  { type: 'application/json', body: `${'['.repeat(200_000)}${']'.repeat(200_000)}` },
  { type: 'application/json', body: `{"a":${'['.repeat(100_000)}0${']'.repeat(100_000)}}` },
  { type: 'application/json', body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]) },
  { type: 'application/json; charset=utf-16', body: Buffer.from('{"a":"b"}', 'utf16le') },
  { type: 'application/x-www-form-urlencoded', body: 'a=%' },
  { type: 'application/x-www-form-urlencoded', body: 'a=%zz&b' },
  { type: 'application/x-www-form-urlencoded', body: Buffer.from([0x61, 0x3d, 0xff, 0xfe, 0x00]) },
  { type: 'application/x-www-form-urlencoded', body: `${'&'.repeat(100_000)}` },
  { type: 'application/x-www-form-urlencoded', body: Array.from({ length: 20_000 }, (_, i) => `k${i}=v`).join('&') },
  { type: 'multipart/form-data', body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--' },
  { type: 'multipart/form-data; boundary=x', body: 'garbage without parts' },
  {
    type: 'multipart/form-data; boundary=x',
    body: '--x\r\nContent-Disposition: form-data; name="f"; filename="../../x.sh"\r\nContent-Type: text/x-sh\r\n\r\n#!/bin/sh\r\n--x--\r\n',
  },
  {
    type: 'application/xml',
    body: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>',
  },
  { type: 'application/octet-stream', body: Buffer.from([0, 1, 2, 3, 255]) },
  { type: '', body: 'a=1' },
  { type: 'application/json', body: JSON.stringify({ text: 'x'.repeat(MB2) }) },
];

interface Operation {
  method: 'GET' | 'POST';
  path: string;
  auth: boolean;
  /** Parameter name → JSON schema. */
  params: Record<string, Record<string, unknown>>;
}

interface Seeds {
  video: number;
  comment: number;
  secUid: string;
  room: number;
  conversation: number;
  users: number[];
}

function operations(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const out: Operation[] = [];
  for (const [p, methods] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(methods)) {
      const params: Record<string, Record<string, unknown>> = {};
      if (m === 'get') {
        for (const prm of (op.parameters ?? []) as { name: string; schema: Record<string, unknown> }[])
          params[prm.name] = prm.schema;
      } else {
        const body = (
          op.requestBody as
            | { content: Record<string, { schema: { properties?: Record<string, Record<string, unknown>> } }> }
            | undefined
        )?.content['application/x-www-form-urlencoded']?.schema;
        Object.assign(params, body?.properties ?? {});
      }
      out.push({
        method: m.toUpperCase() as 'GET' | 'POST',
        path: `/api${p}`,
        auth: Array.isArray(op.security),
        params,
      });
    }
  }
  return out;
}

/** A value the parameter takes, so that each bad value is the only thing wrong with a request. */
function goodValue(name: string, schema: Record<string, unknown>, seeds: Seeds): string {
  const options = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  if (options?.length)
    return goodValue(name, options.find((o) => o.type !== 'null' && o.const !== '') ?? options[0]!, seeds);
  if (Array.isArray(schema.enum)) return String(schema.enum[0]);
  if (schema.const !== undefined) return String(schema.const);
  if (/sec_u(?:ser_)?id|secUid|^(?:to_)?user$/i.test(name)) return seeds.secUid;
  if (schema.type === 'integer' || schema.type === 'number') {
    const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
    const max = typeof schema.maximum === 'number' ? schema.maximum : 2_147_483_647;
    const wanted = /aweme_id|item_id|^vid$|videoId|video_id|group_id|work/i.test(name)
      ? seeds.video
      : /cid|comment_id|reply_id|parentId|replyId/i.test(name)
        ? seeds.comment
        : /room/i.test(name)
          ? seeds.room
          : /conversation/i.test(name)
            ? seeds.conversation
            : /user_id|userId/i.test(name)
              ? seeds.users[1]!
              : 1;
    return String(Math.min(Math.max(wanted, min), max));
  }
  if (schema.type === 'boolean') return 'true';
  return enc(`hello ${MARKER}`);
}

function query(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${enc(k)}=${v}`)
    .join('&');
}

/** Every request of the corpus for one operation, with the token of a user of its own. */
function operationCases(op: Operation, turn: number, token: string, seeds: Seeds): Sent[] {
  const good: Record<string, string> = {};
  for (const [name, schema] of Object.entries(op.params)) good[name] = goodValue(name, schema, seeds);
  const headers: Record<string, string> = { token, origin: server.base };
  const cases: Sent[] = [];
  const withFields = (fields: Record<string, string>): Sent =>
    op.method === 'GET'
      ? { method: 'GET', path: `${op.path}?${query(fields)}`, headers }
      : {
          method: 'POST',
          path: op.path,
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: query(fields),
        };

  cases.push(withFields(good));
  const names = Object.keys(op.params);
  // Every parameter gets the core values; the other values go round the parameters (the door is shared, each value
  // still meets every operation), which keeps the corpus to a few thousand requests.
  const jsonBody = (name: string, json: string) =>
    `{${Object.entries(good)
      .map(([k, v]) => `${JSON.stringify(k)}:${k === name ? json : JSON.stringify(decodeURIComponent(v))}`)
      .join(',')}}`;
  names.forEach((name, i) => {
    const schema = op.params[name]!;
    const values = [
      ...CORE_VALUES,
      ...BAD_VALUES.filter(
        (_, j) => j % VALUE_SHARES === turn % VALUE_SHARES && Math.floor(j / VALUE_SHARES) % names.length === i,
      ),
    ];
    if (typeof schema.maximum === 'number') values.push(String(schema.maximum), String(schema.maximum + 1));
    if (typeof schema.minimum === 'number') values.push(String(schema.minimum - 1));
    for (const value of values) cases.push(withFields({ ...good, [name]: value }));
    // Repeated and bracketed keys.
    if (op.method === 'GET')
      cases.push({ ...withFields(good), path: `${op.path}?${query(good)}&${enc(name)}=2&${enc(name)}[]=3` });
    if (op.method === 'POST') {
      for (const json of BAD_JSON_VALUES.filter((_, j) => j < 2 || j % names.length === i)) {
        cases.push({
          method: 'POST',
          path: op.path,
          headers: { ...headers, 'content-type': 'application/json' },
          body: jsonBody(name, json),
        });
      }
    }
  });
  // Unknown and hostile parameter names.
  cases.push(withFields({ ...good, [`__proto__`]: '1', constructor: '1', [`a\u0000${MARKER}`]: '1' }));
  cases.push(withFields({ ...good, '%00': '1' }));
  if (op.method === 'POST') {
    for (const { type, body } of BAD_BODIES.filter((_, j) => j < CORE_BODIES || j % BODY_SHARES === turn % BODY_SHARES))
      cases.push({
        method: 'POST',
        path: op.path,
        headers: { ...headers, ...(type ? { 'content-type': type } : {}) },
        body,
      });
    cases.push({
      method: 'POST',
      path: op.path,
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({
        __proto__: { admin: true },
        ...Object.fromEntries(Object.entries(good).map(([k, v]) => [k, decodeURIComponent(v)])),
      }),
    });
  } else {
    cases.push({ method: 'GET', path: `${op.path}?${'a=1&'.repeat(4000)}`, headers });
  }
  // Other methods and no credentials.
  cases.push({ method: ['PUT', 'DELETE', 'PATCH'][turn % 3]!, path: op.path, headers });
  cases.push({
    ...withFields(good),
    headers: op.method === 'GET' ? {} : { 'content-type': 'application/x-www-form-urlencoded' },
  });
  cases.push({ ...withFields(good), headers: { ...withFields(good).headers, token: `${'x'.repeat(5000)}` } });
  return cases;
}

/** Page routes from src/pages, with sample values for their parameters. */
function pageRoutes(dir = PAGES_DIR, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (entry.name !== 'api') out.push(...pageRoutes(path.join(dir, entry.name), `${prefix}/${entry.name}`));
    } else if (entry.name.endsWith('.astro')) {
      const name = entry.name.replace(/\.astro$/, '');
      out.push(name === 'index' ? prefix || '/' : `${prefix}/${name}`);
    }
  }
  return out;
}

const PATH_PARAM_VALUES = [
  `a%00${MARKER}`,
  '%07',
  '%FF',
  '%ED%A0%80',
  '..%2f..%2fetc%2fpasswd',
  '2147483648',
  '99999999999999999999',
  '-1',
  'x'.repeat(4000),
  enc(`<script>alert(1)</script>${MARKER}`),
  '%',
];

const PAGE_QUERY_VALUES = [
  `%00${MARKER}`,
  '%FF',
  '%ED%A0%80',
  '2147483648',
  'x'.repeat(1000),
  enc('<img src=x onerror=alert(1)>'),
];
const PAGE_QUERY_NAMES = [
  'q',
  'type',
  'showTab',
  'ep',
  'days',
  'workId',
  'published',
  'ticket',
  'tab',
  'cursor',
  'modal_id',
];

function pageCases(route: string, cookie: string, seeds: Seeds): Sent[] {
  const cases: Sent[] = [];
  const sample = (value: string) => route.replace(/\[[^\]]+\]/g, value);
  const concrete = sample(
    route.includes('[keyword]')
      ? enc('美食')
      : route.startsWith('/user/')
        ? seeds.secUid
        : String(route.includes('/live/') ? seeds.room : seeds.video),
  );
  for (const headers of [{}, { cookie }] as Record<string, string>[]) {
    cases.push({ method: 'GET', path: concrete, headers });
    cases.push({ method: 'HEAD', path: concrete, headers });
  }
  if (route.includes('['))
    for (const value of PATH_PARAM_VALUES) cases.push({ method: 'GET', path: sample(value), headers: { cookie } });
  for (const value of PAGE_QUERY_VALUES)
    cases.push({
      method: 'GET',
      path: `${concrete}?${PAGE_QUERY_NAMES.map((name) => `${name}=${value}`).join('&')}`,
      headers: { cookie },
    });
  cases.push({ method: 'GET', path: `${concrete}?${'a=1&'.repeat(3000)}` });
  cases.push({ method: 'GET', path: `${concrete}?q=${'x'.repeat(MB2)}` });
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
    cases.push({
      method,
      path: concrete,
      headers: { cookie, origin: server.base, 'content-type': 'application/x-www-form-urlencoded' },
      body: `a=%00${MARKER}`,
    });
  }
  return cases;
}

const MEDIA_CASES = [
  '/media/../../package.json',
  '/media/..%2f..%2fpackage.json',
  '/media/%2e%2e/%2e%2e/server.ts',
  '/media/%252e%252e/%252e%252e/server.ts',
  '/media/..\\..\\server.ts',
  '/media/..%5c..%5cserver.ts',
  '/media/clips/..%2f..%2f..%2f..%2fetc%2fpasswd',
  '/media//etc/passwd',
  '/media/clips/%00.mp4',
  '/media/clips/c01.mp4%00.txt',
  '/media/clips/%ED%A0%80.mp4',
  '/media/clips/%FF.mp4',
  `/media/${'a/'.repeat(3000)}x.mp4`,
  '/media/%c0%ae%c0%ae/%c0%ae%c0%ae/server.ts',
  '/media/clips/c01.mp4/..',
];

describe('the bad-input corpus', () => {
  let seeds: Seeds;
  let doc: { paths: Record<string, Record<string, Record<string, unknown>>> };

  beforeAll(async () => {
    server = await startBuiltServer({ RATE_LIMIT_IP_FACTOR: '100' });
    const q = async <T>(sql: string): Promise<T> => (await server.db.pool.query(sql)).rows[0] as T;
    const video = await q<{ id: number; cid: number }>(`
      select v.id, (select min(c.id) from comments c where c.video_id = v.id) as cid from videos v
      where v.deleted_at is null and v.visibility = 'public' and v.status = 'published' and v.comment_count > 0 order by v.id limit 1`);
    const user = await q<{ sec_uid: string }>('select sec_uid from users order by id desc limit 1');
    const room = await q<{ id: number }>("select id from live_rooms where status = 'live' order by id limit 1");
    // The operations act as users other than the owners of the seeded targets, so that none deletes or hides them.
    const users = (
      await server.db.pool.query<{ id: number }>(
        `select id from users where id not in (select author_id from videos where id = ${video.id})
           and id not in (select user_id from comments where id = ${video.cid}) order by id`,
      )
    ).rows.map((r) => r.id);
    const conversation = await q<{ id: number }>('select id from conversations order by id limit 1');
    seeds = {
      video: video.id,
      comment: video.cid,
      secUid: user.sec_uid,
      room: room?.id ?? 1,
      conversation: conversation?.id ?? 1,
      users,
    };
    doc = JSON.parse((await send({ method: 'GET', path: '/api/openapi.json' })).body);
  }, 180_000);

  beforeEach(() => {
    findings.length = 0;
  });

  afterAll(async () => {
    agent.destroy();
    await server?.stop();
  }, 60_000);

  it('finds no 5xx and no leak over every OpenAPI operation', async () => {
    const only = process.env.HARDENING_ONLY ? new RegExp(process.env.HARDENING_ONLY) : undefined;
    const ops = operations(doc).filter((op) => !only || only.test(op.path));
    if (!only) expect(ops.length).toBeGreaterThan(50);
    const tasks: (() => Promise<unknown>)[] = [];
    for (const [i, op] of ops.entries()) {
      // Each operation acts as a user of its own: one changing a password or logging out leaves the others signed in.
      const userId = seeds.users[i % seeds.users.length]!;
      tasks.push(async () => {
        // Fresh limits for each operation: a limit reached by the ones before must not hide what lies behind it.
        await reset('');
        const { token } = await createSession(userId);
        await pool(operationCases(op, i, token, seeds).map((c) => () => probe(c)));
      });
    }
    await pool(tasks, OPERATIONS_AT_ONCE);
    if (findings.length) console.log(summary());
    expect(findings.slice(0, 40)).toEqual([]);
  }, 600_000);

  it('finds no 5xx and no leak over every page route; pages answer only GET and HEAD', async () => {
    const only = process.env.HARDENING_ONLY ? new RegExp(process.env.HARDENING_ONLY) : undefined;
    const routes = pageRoutes().filter((route) => !only || only.test(route));
    if (!only) expect(routes).toContain('/search/[keyword]');
    const { token } = await createSession(seeds.users[0]!);
    const cookie = `sy_session=${token}`;
    const tasks = routes.flatMap((route) =>
      pageCases(route, cookie, seeds).map(
        (c) => () =>
          probe(c, (a) =>
            ['GET', 'HEAD'].includes(c.method) || (a.status === 405 && a.headers.allow === 'GET, HEAD')
              ? null
              : `${c.method} answered ${a.status} (allow: ${a.headers.allow})`,
          ),
      ),
    );
    await pool(tasks);
    if (findings.length) console.log(summary());
    expect(findings.slice(0, 40)).toEqual([]);
  }, 600_000);

  it('refuses path traversal on /media', async () => {
    await pool(
      MEDIA_CASES.map(
        (p) => () =>
          probe({ method: 'GET', path: p }, (a) =>
            [400, 403, 404].includes(a.status) ? null : `answered ${a.status}, not 400/403/404`,
          ),
      ),
    );
    expect(findings).toEqual([]);
  });

  it('answers a query string past the server’s limit with 431, under /api in the family’s envelope', async () => {
    const sug = await probe({
      method: 'GET',
      path: `/api/aweme/v1/web/search/sug/?keyword=${enc(`${MARKER}${'搜'.repeat(6000)}`)}`,
    });
    expect(sug?.status).toBe(431);
    expect(JSON.parse(sug!.body)).toEqual({ status_code: 6, status_msg: '请求的地址或请求头过长' });
    const b = await probe({ method: 'GET', path: `/api/video/self?showTab=${'x'.repeat(20_000)}` });
    expect(JSON.parse(b!.body)).toEqual({ code: '431', msg: '请求的地址或请求头过长', data: null });
    const page = await probe({ method: 'GET', path: `/search/${'x'.repeat(20_000)}` });
    expect(page?.status).toBe(431);
    const malformed = await probe({ method: 'POST', path: '/api/video/feed', headers: { 'content-length': '-1' } });
    expect(malformed?.status).toBe(400);
    expect(JSON.parse(malformed!.body)).toEqual({ code: '400', msg: '参数错误', data: null });
    expect(findings).toEqual([]);
  });

  it('is still up, and logged none of what was typed', async () => {
    expect(server.alive()).toBe(true);
    expect((await send({ method: 'GET', path: '/healthz' })).status).toBe(200);
    expect((await send({ method: 'GET', path: '/api/aweme/v1/web/tab/feed/?count=1' })).status).toBe(200);
    console.log(
      `bad-input corpus: ${sentCount} requests, ${resets.length} closed without an answer${resets.length ? `, e.g.\n${resets.slice(0, 10).join('\n')}` : ''}`,
    );
    console.log(
      `slowest:\n${slowest
        .sort((a, b) => b[0] - a[0])
        .slice(0, 10)
        .map(([ms, r]) => `${Math.round(ms)} ms ${r}`)
        .join('\n')}`,
    );
    const output = server.output();
    const typed = output.split('\n').filter((line) => line.includes(MARKER));
    expect(typed.slice(0, 5)).toEqual([]);
    expect(output).not.toMatch(/Failed query|params: /);
  });
});
