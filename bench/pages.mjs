/**
 * `npm run bench:pages`: every page route's requests/s, p50 and p99 at 20 connections (Accept-Encoding: br, as a
 * browser asks), in three modes: anonymous with the page cache as shipped (warm), anonymous with PAGE_CACHE=off (every
 * visit rendered and compressed), and logged in (a session cookie: rendered for the viewer, never cached). Each row
 * runs interleaved with a static baseline in the same windows: a plain node:http process answering that route's very
 * bytes, fetched once from the server in that mode with the same status and headers, brotli-compressed as they came
 * (the cache also serves bytes compressed beforehand, so the baseline does no compression either). The ratio to it is
 * the figure. Targets: cached >= 50 % of the baseline, cache off >= 11 %, p99 <= 50 ms; logged in, a page of public
 * content is the shared copy a visitor gets (>= 50 %, p99 <= 50 ms), and a page about the viewer, rendered for them,
 * >= 25 % of its ceiling row with p99 <= 100 ms.
 * Rows that render per request (cache off, logged in) also print a ceiling: the same node:http compressing that page's
 * HTML per request as the server does (brotli at the dynamic quality and window, encoding.ts), with nothing rendered.
 * No renderer that compresses per request can pass it, so its ratio to the static copy says how much of a target is
 * within reach at all for a page of that size.
 * A benchmark: it prints figures and ratios, it never fails.
 *
 * BENCH_DURATION (s per row, default 3, split over BENCH_ROUNDS alternating runs of each, default 2), BENCH_WARMUP (s,
 * default 1), BENCH_CONNECTIONS (default 20), BENCH_MODES (comma list of cached,off,login; default all) and
 * BENCH_ROUTES (comma list of route names, e.g. /,/video/{id}) narrow it. BENCH_BASELINE=<another built checkout>
 * runs its server beside this one in each mode and measures each row on it in the same rounds, printing its
 * req/s and p99 ("before") and this checkout's ratio to it. The search page's per-address limit is
 * raised (RATE_LIMIT_IP_FACTOR) so that its row measures the render, not the 429.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { BROTLI_DYNAMIC_QUALITY, BROTLI_DYNAMIC_WINDOW } from '../src/server/encoding.ts';
import { ensureBuild, freePort, startProcess, startServer, stop, waitReady } from './lib.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const MODES = (process.env.BENCH_MODES ?? 'cached,off,login').split(',').map((m) => m.trim());
const ONLY = process.env.BENCH_ROUTES?.split(',').map((r) => r.trim());
const BEFORE_ROOT = process.env.BENCH_BASELINE;
const TARGETS = { cached: 0.5, off: 0.11, login: 0.5 };
const TARGET_P99 = 50;
/** Pages about the viewer, rendered for a member's session (src/server/http/personal-pages.ts), by route name. */
const PERSONAL = new Set([
  '/follow',
  '/friend',
  '/user/self',
  '/settings',
  '/post',
  '/post/manage',
  '/search/{keyword}',
]);
/** A member's page about themselves: this share of its ceiling row (compression alone), p99 <= 100 ms. */
const PERSONAL_CEILING_SHARE = 0.25;
const PERSONAL_P99 = 100;
const ENCODING = { 'accept-encoding': 'br' };

/** The page routes, by name, with the path each is measured on (ids from the seed). */
function routes(ids) {
  const all = [
    ['/', '/'],
    ['/discover', '/discover'],
    ['/hot', '/hot'],
    ['/live', '/live'],
    ['/follow', '/follow'],
    ['/friend', '/friend'],
    ['/video/{id}', `/video/${ids.video}`],
    ['/user/{id}', `/user/${ids.user}`],
    ['/user/self', '/user/self'],
    ['/channel/{id}', `/channel/${ids.channel}`],
    ['/live/{id}', `/live/${ids.live}`],
    ['/vs', '/vs'],
    ['/vs/{id}', `/vs/${ids.vs}`],
    ['/search/{keyword}', `/search/${encodeURIComponent('音乐')}`],
    ['/settings', '/settings'],
    ['/post', '/post'],
    ['/post/manage', '/post/manage'],
    ['/about (prerendered)', '/about'],
    ['/faq (prerendered)', '/faq'],
    ['404', '/no-such-page'],
  ];
  return ONLY ? all.filter(([name]) => ONLY.includes(name)) : all;
}

function load(url, duration, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1, headers }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/** One GET, the body as it came (not decoded). */
function fetchRaw(url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** The static baseline: answers `/<n>` with the n-th recorded answer's status, headers and bytes, as they are. */
const BASELINE = `
  const http = require('node:http');
  const fs = require('node:fs');
  const zlib = require('node:zlib');
  const answers = JSON.parse(fs.readFileSync(process.env.ANSWERS, 'utf8')).map((a) => ({ ...a, body: Buffer.from(a.body, 'base64') }));
  const brotli = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: Number(process.env.BR_QUALITY), [zlib.constants.BROTLI_PARAM_LGWIN]: Number(process.env.BR_WINDOW) } };
  http.createServer((req, res) => {
    // /<i>: the recorded bytes as they are; /c/<i>: the decoded HTML compressed again for this request.
    const again = req.url.startsWith('/c/');
    const a = answers[Number(req.url.slice(again ? 3 : 1))];
    if (!a) { res.writeHead(404); return res.end(); }
    if (!again || a.headers['content-encoding'] !== 'br') {
      res.writeHead(a.status, a.headers);
      return res.end(a.body);
    }
    a.raw ??= zlib.brotliDecompressSync(a.body);
    zlib.brotliCompress(a.raw, brotli, (error, body) => {
      if (error) { res.writeHead(500); return res.end(); }
      res.writeHead(a.status, { ...a.headers, 'content-length': String(body.byteLength) });
      res.end(body);
    });
  }).listen(Number(process.env.PORT), '127.0.0.1');
`;

/** Records every answer the baseline will serve, then starts it; `url(i)` is where the i-th one is. */
async function startBaseline(answers) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'shanying-bench-pages-'));
  const file = path.join(dir, 'answers.json');
  const drop = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
  writeFileSync(
    file,
    JSON.stringify(
      answers.map((a) => ({
        status: a.status,
        headers: Object.fromEntries(Object.entries(a.headers).filter(([k]) => !drop.has(k))),
        body: a.body.toString('base64'),
      })),
    ),
  );
  const port = await freePort();
  const proc = startProcess(['-e', BASELINE], {
    ...process.env,
    PORT: String(port),
    ANSWERS: file,
    BR_QUALITY: String(BROTLI_DYNAMIC_QUALITY),
    BR_WINDOW: String(BROTLI_DYNAMIC_WINDOW),
  });
  await waitReady(`http://127.0.0.1:${port}/0`, proc.child, proc.output);
  return {
    url: (i) => `http://127.0.0.1:${port}/${i}`,
    compressing: (i) => `http://127.0.0.1:${port}/c/${i}`,
    close: async () => {
      await stop(proc.child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * ROUNDS alternating runs of the page, of its static copy, (given `ceilingUrl`) of the ceiling and (given `before`, a
 * URL and headers) of the same page on the baseline server, after a warm-up.
 */
async function paired(url, staticUrl, headers, ceilingUrl, before) {
  await load(url, WARMUP, headers);
  if (before) await load(before.url, WARMUP, before.headers);
  const mine = [];
  const base = [];
  const ceiling = [];
  const was = [];
  for (let i = 0; i < ROUNDS; i++) {
    base.push(await load(staticUrl, DURATION / ROUNDS, ENCODING));
    if (ceilingUrl) ceiling.push(await load(ceilingUrl, DURATION / ROUNDS, ENCODING));
    mine.push(await load(url, DURATION / ROUNDS, headers));
    if (before) was.push(await load(before.url, DURATION / ROUNDS, before.headers));
  }
  const mean = (rs) => rs.reduce((a, r) => a + r.requests.average, 0) / rs.length;
  return {
    rps: mean(mine),
    p50: Math.max(...mine.map((r) => r.latency.p50)),
    p99: Math.max(...mine.map((r) => r.latency.p99)),
    errors: mine.reduce((a, r) => a + r.errors + r.timeouts, 0),
    base: mean(base),
    ceiling: ceiling.length ? mean(ceiling) : undefined,
    before: was.length ? { rps: mean(was), p99: Math.max(...was.map((r) => r.latency.p99)) } : undefined,
  };
}

/** Ids from the seed: the busiest video of the feed, its author, a live room, a series and a channel. */
async function seedIds(base) {
  const feed = await (await fetch(`${base}/api/aweme/v1/web/tab/feed/?count=50`)).json();
  const video = [...feed.aweme_list].sort((a, b) => b.statistics.comment_count - a.statistics.comment_count)[0];
  const first = async (page, pattern) => (await (await fetch(`${base}${page}`)).text()).match(pattern)?.[1];
  return {
    video: video.aweme_id,
    user: video.author.sec_uid,
    live: await first('/live', /href="\/live\/(\d+)"/),
    vs: await first('/vs', /href="\/vs\/(\d+)"/),
    channel: (await first('/discover', /href="\/channel\/(\d+)"/)) ?? '300201',
  };
}

/** A session for the seed's first user, opened through the sessions service on the server's database. */
async function openSession(pgPort) {
  const { embeddedUrl } = await import('../src/server/db/embedded.ts');
  const { connect, useDb } = await import('../src/server/db/client.ts');
  const { createSession } = await import('../src/server/services/sessions.ts');
  const { sql } = await import('drizzle-orm');
  const { db, pool } = connect(embeddedUrl(pgPort, 'shanying'), { max: 2 });
  useDb(db);
  try {
    const { rows } = await db.execute(sql`select id from users order by id limit 1`);
    return (await createSession(Number(rows[0].id), 'bench/pages')).token;
  } finally {
    await pool.end();
  }
}

/**
 * Measures `list` ([name, path]) on `app` in `mode`, each against its own bytes served statically, and beside it on
 * `before` ({ app, headers }: the baseline server) when given.
 */
async function measureMode(mode, app, list, headers, before) {
  const answers = [];
  for (const [, p] of list) answers.push(await fetchRaw(`${app}${p}`, headers));
  const baseline = await startBaseline(answers);
  const rows = [];
  try {
    for (let i = 0; i < list.length; i++) {
      const [name, p] = list[i];
      const answer = answers[i];
      const perRequest = mode !== 'cached' && answer.headers['content-encoding'] === 'br';
      const row = await paired(
        `${app}${p}`,
        baseline.url(i),
        headers,
        perRequest ? baseline.compressing(i) : undefined,
        before && { url: `${before.app}${p}`, headers: before.headers },
      );
      rows.push({
        mode,
        name,
        status: answer.status,
        bytes: answer.body.byteLength,
        encoding: answer.headers['content-encoding'] ?? 'none',
        cache: answer.headers['cache-control'] ?? '',
        ...row,
      });
      printRow(rows.at(-1));
    }
  } finally {
    await baseline.close();
  }
  return rows;
}

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);

function header() {
  console.log(
    `\n${pad('mode', 8)}${pad('route', 22)}${lpad('status', 7)}${lpad('bytes', 8)}${lpad('req/s', 9)}${lpad('p50', 6)}${lpad('p99', 6)}${lpad('static', 9)}${lpad('ratio', 8)}${lpad('ceiling', 9)}${BEFORE_ROOT ? `${lpad('before', 9)}${lpad('b.p99', 7)}${lpad('vs', 7)}` : ''}  target`,
  );
}

/** The row's target: which figure, its floor, the p99 bound, and whether it is met. */
function targetOf(r) {
  if (r.mode === 'login' && PERSONAL.has(r.name)) {
    // Rendered for the member: judged against what compression alone allows for a page of that size.
    const share = r.ceiling ? r.rps / r.ceiling : r.rps / r.base;
    return {
      met: share >= PERSONAL_CEILING_SHARE && r.p99 <= PERSONAL_P99,
      text: `>= ${PERSONAL_CEILING_SHARE * 100}% of ceiling (${(share * 100).toFixed(1)}%), p99 <= ${PERSONAL_P99} ms`,
    };
  }
  return {
    met: r.rps / r.base >= TARGETS[r.mode] && r.p99 <= TARGET_P99,
    text: `>= ${TARGETS[r.mode] * 100}%, p99 <= ${TARGET_P99} ms`,
  };
}

function printRow(r) {
  const ratio = r.rps / r.base;
  const target = targetOf(r);
  const met = target.met ? `met (${target.text})` : `MISSED (${target.text})`;
  const errors = r.errors ? `  ${r.errors} errors` : '';
  const ceiling = r.ceiling ? `${((r.ceiling / r.base) * 100).toFixed(1)}%` : '';
  const before = BEFORE_ROOT
    ? r.before
      ? `${lpad(Math.round(r.before.rps), 9)}${lpad(r.before.p99, 7)}${lpad(`${(r.rps / r.before.rps).toFixed(2)}x`, 7)}`
      : `${lpad('', 9)}${lpad('', 7)}${lpad('', 7)}`
    : '';
  console.log(
    `${pad(r.mode, 8)}${pad(r.name, 22)}${lpad(r.status, 7)}${lpad(r.bytes, 8)}${lpad(Math.round(r.rps), 9)}${lpad(r.p50, 6)}${lpad(r.p99, 6)}${lpad(Math.round(r.base), 9)}${lpad(`${(ratio * 100).toFixed(1)}%`, 8)}${lpad(ceiling, 9)}${before}  ${met}${errors}`,
  );
}

function summary(rows) {
  console.log('\nsummary (ratio to the static copy of the same bytes; p99 in ms):');
  for (const mode of MODES) {
    const mine = rows.filter((r) => r.mode === mode);
    if (!mine.length) continue;
    const ratios = mine.map((r) => r.rps / r.base).sort((a, b) => a - b);
    const met = mine.filter((r) => targetOf(r).met).length;
    const median = ratios[Math.floor(ratios.length / 2)];
    const ceilings = mine
      .filter((r) => r.ceiling)
      .map((r) => r.ceiling / r.base)
      .sort((a, b) => a - b);
    const ceiling = ceilings.length
      ? `; ceiling (compression alone) median ${(ceilings[Math.floor(ceilings.length / 2)] * 100).toFixed(1)}%`
      : '';
    const vsBefore = mine
      .filter((r) => r.before)
      .map((r) => r.rps / r.before.rps)
      .sort((a, b) => a - b);
    const before = vsBefore.length
      ? `; vs before min ${(vsBefore[0] * 100).toFixed(1)}%, median ${(vsBefore[Math.floor(vsBefore.length / 2)] * 100).toFixed(1)}%, max ${(vsBefore.at(-1) * 100).toFixed(1)}%`
      : '';
    console.log(
      `  ${pad(mode, 7)} ratio min ${(ratios[0] * 100).toFixed(1)}%, median ${(median * 100).toFixed(1)}%; p99 max ${Math.max(...mine.map((r) => r.p99))}; targets met on ${met}/${mine.length} routes${ceiling}${before}`,
    );
  }
}

async function main() {
  ensureBuild();
  const env = { NODE_ENV: 'production', API_ANON_CACHE: undefined, RATE_LIMIT_IP_FACTOR: '1000' };
  console.log(
    `node ${process.version}, ${os.cpus().length} CPUs, ${CONNECTIONS} connections, Accept-Encoding: br; ${DURATION} s per row in ${ROUNDS} rounds interleaved with its static copy (after ${WARMUP} s warm-up)`,
  );
  console.log(
    'static copy: node:http answering the bytes this server sent for that route in that mode (brotli as sent, same status and headers)',
  );
  const loadAverage = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ');
  console.log(`load average ${loadAverage()}`);
  const rows = [];
  if (MODES.includes('cached') || MODES.includes('login')) {
    const pgPort = await freePort();
    const server = await startServer({ ...env, PAGE_CACHE: undefined, PG_PORT: String(pgPort) });
    const basePg = BEFORE_ROOT ? await freePort() : undefined;
    const baseline = BEFORE_ROOT
      ? await startServer({ ...env, PAGE_CACHE: undefined, PG_PORT: String(basePg) }, path.resolve(BEFORE_ROOT)).catch(
          (error) => (server.close(), Promise.reject(error)),
        )
      : undefined;
    if (baseline) console.log(`baseline (${BEFORE_ROOT}) on ${baseline.base}, measured in the same rounds ("before")`);
    header();
    try {
      const list = routes(await seedIds(server.base));
      if (MODES.includes('cached'))
        rows.push(
          ...(await measureMode(
            'cached',
            server.base,
            list,
            ENCODING,
            baseline && { app: baseline.base, headers: ENCODING },
          )),
        );
      if (MODES.includes('login')) {
        const token = await openSession(pgPort);
        const before = baseline && {
          app: baseline.base,
          headers: { ...ENCODING, cookie: `sy_session=${await openSession(basePg)}` },
        };
        rows.push(
          ...(await measureMode('login', server.base, list, { ...ENCODING, cookie: `sy_session=${token}` }, before)),
        );
      }
    } finally {
      await server.close();
      await baseline?.close();
    }
  } else header();
  if (MODES.includes('off')) {
    const server = await startServer({ ...env, PAGE_CACHE: 'off' });
    const baseline = BEFORE_ROOT
      ? await startServer({ ...env, PAGE_CACHE: 'off' }, path.resolve(BEFORE_ROOT)).catch(
          (error) => (server.close(), Promise.reject(error)),
        )
      : undefined;
    try {
      const before = baseline && { app: baseline.base, headers: ENCODING };
      rows.push(...(await measureMode('off', server.base, routes(await seedIds(server.base)), ENCODING, before)));
    } finally {
      await server.close();
      await baseline?.close();
    }
  }
  summary(rows);
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} at the end`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
