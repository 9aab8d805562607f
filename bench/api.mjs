/**
 * `npm run bench:api`: requests/s, p50 and p99 of the hot API reads against a plain node:http hello-world on the
 * same machine in the same run. Target per read: >= 25% of the hello-world's requests/s and p99 < 50 ms
 * at 20 connections. A benchmark: it prints figures and ratios, it never fails.
 *
 * It starts the built server like the Playwright webServer does (`node server.ts`, a temporary DATA_DIR, the
 * embedded database, a free port), and the hello-world as its own process so that neither shares a CPU with
 * autocannon's client. The hot reads are answered from a 2-second cache for anonymous viewers (router.ts), so the
 * first table also has a row as a browser asks (Accept-Encoding: br), and a second run of the same reads with that
 * cache off (API_ANON_CACHE=off: every answer from PostgreSQL, as for a logged-in viewer) shows the cost behind it.
 * Each endpoint runs interleaved with the hello-world (BENCH_ROUNDS alternating runs, default 4) and its ratio is to
 * the hello-world of those same windows ("hello" column): the machine is shared and its load drifts.
 * BENCH_DURATION (s per endpoint, default 10) and BENCH_CONNECTIONS (default 20) override the load; BENCH_UNCACHED=0
 * skips the second run. BENCH_BASELINE=<another built checkout> runs its server beside this one, interleaved in the
 * same windows, and adds its req/s and this checkout's ratio to it ("before", "vs before").
 */
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ensureBuild, freePort, startProcess, startServer, stop, waitReady } from './lib.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const WARMUP = 2;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const BASELINE = process.env.BENCH_BASELINE;
const TARGET_RATIO = 0.25;
const TARGET_P99 = 50;

function load(url, duration, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1, headers }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/**
 * One endpoint against the hello-world, interleaved: ROUNDS alternating runs of each (DURATION / ROUNDS seconds), so
 * that a shared machine's changing load hits both alike; the ratio compares the two means of the same windows.
 */
async function paired(name, url, helloUrl, headers = {}, beforeUrl = undefined) {
  await load(url, WARMUP, headers);
  if (beforeUrl) await load(beforeUrl, WARMUP, headers);
  const mine = [];
  const hello = [];
  const before = [];
  for (let i = 0; i < ROUNDS; i++) {
    hello.push(await load(helloUrl, DURATION / ROUNDS));
    mine.push(await load(url, DURATION / ROUNDS, headers));
    if (beforeUrl) before.push(await load(beforeUrl, DURATION / ROUNDS, headers));
  }
  const mean = (rs, f) => rs.reduce((a, r) => a + f(r), 0) / rs.length;
  return {
    name,
    rps: mean(mine, (r) => r.requests.average),
    p50: Math.max(...mine.map((r) => r.latency.p50)),
    p99: Math.max(...mine.map((r) => r.latency.p99)),
    non2xx: mine.reduce((a, r) => a + r.non2xx, 0),
    errors: mine.reduce((a, r) => a + r.errors + r.timeouts, 0),
    hello: mean(hello, (r) => r.requests.average),
    before: beforeUrl
      ? {
          rps: mean(before, (r) => r.requests.average),
          p99: Math.max(...before.map((r) => r.latency.p99)),
          non2xx: before.reduce((a, r) => a + r.non2xx, 0),
        }
      : undefined,
  };
}

async function measure(name, url, headers = {}) {
  await load(url, WARMUP, headers);
  const r = await load(url, DURATION, headers);
  return {
    name,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

const HELLO = `
  const http = require('node:http');
  http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'text/plain' }); res.end('hello world'); })
    .listen(Number(process.env.PORT), '127.0.0.1');
`;

const READS = (id) => [
  ['tab/feed count=10', '/api/aweme/v1/web/tab/feed/?count=10'],
  ['aweme/detail', `/api/aweme/v1/web/aweme/detail/?aweme_id=${id}`],
  ['comment/list count=20', `/api/aweme/v1/web/comment/list/?aweme_id=${id}&cursor=0&count=20`],
  ['v2 module/feed count=20', '/api/aweme/v2/web/module/feed/?count=20'],
];

/** The video the reads use: of the first 50 in the feed, the one with the most comments. */
async function busiestVideo(base) {
  const feed = await (await fetch(`${base}/api/aweme/v1/web/tab/feed/?count=50`)).json();
  return [...feed.aweme_list].sort((a, b) => b.statistics.comment_count - a.statistics.comment_count)[0].aweme_id;
}

function table(title, base, rows) {
  const pad = (s, n) => String(s).padEnd(n);
  const lpad = (s, n) => String(s).padStart(n);
  console.log(`\n${title}`);
  console.log(
    `${pad('endpoint', 26)}${lpad('req/s', 10)}${lpad('p50 ms', 9)}${lpad('p99 ms', 9)}${lpad('hello', 9)}${lpad('vs hello', 10)}  target (>= 25%, p99 < 50 ms)`,
  );
  for (const r of [base, ...rows]) {
    const hello = r.hello ?? base.rps;
    const ratio = r.rps / hello;
    const meets = r === base ? '' : ratio >= TARGET_RATIO && r.p99 < TARGET_P99 ? 'met' : 'MISSED';
    const faults = r.non2xx || r.errors ? `  (${r.non2xx} non-2xx, ${r.errors} errors)` : '';
    // A read the baseline does not have answers it with errors: no ratio to those.
    const before = !r.before
      ? ''
      : r.before.non2xx
        ? '  before: not in the baseline (non-2xx)'
        : `  before ${Math.round(r.before.rps)} req/s p99 ${r.before.p99} ms, vs before ${((r.rps / r.before.rps) * 100).toFixed(1)}%`;
    console.log(
      `${pad(r.name, 26)}${lpad(Math.round(r.rps), 10)}${lpad(r.p50, 9)}${lpad(r.p99, 9)}${lpad(Math.round(hello), 9)}${lpad(`${(ratio * 100).toFixed(1)}%`, 10)}  ${meets}${faults}${before}`,
    );
  }
}

async function main() {
  ensureBuild();
  const helloPort = await freePort();
  const helloUrl = `http://127.0.0.1:${helloPort}/`;
  const hello = startProcess(['-e', HELLO], { ...process.env, PORT: String(helloPort) });
  const asShipped = { NODE_ENV: 'production', API_ANON_CACHE: undefined };
  let server;
  let baseline;
  try {
    server = await startServer(asShipped);
    const app = server.base;
    if (BASELINE) baseline = await startServer(asShipped, path.resolve(BASELINE));
    await waitReady(helloUrl, hello.child, hello.output);
    const id = await busiestVideo(app);
    const was = (p) => (baseline ? `${baseline.base}${p}` : undefined);

    console.log(
      `node ${process.version}, ${os.cpus().length} CPUs, ${CONNECTIONS} connections x ${DURATION} s each (after ${WARMUP} s warm-up), aweme_id ${id}`,
    );
    const base = await measure('hello-world (node:http)', helloUrl);
    const rows = [];
    for (const [name, p] of READS(id)) rows.push(await paired(name, `${app}${p}`, helloUrl, {}, was(p)));
    rows.push(
      await paired(
        'tab/feed, br (browser)',
        `${app}${READS(id)[0][1]}`,
        helloUrl,
        { 'accept-encoding': 'br, gzip' },
        was(READS(id)[0][1]),
      ),
    );
    table('node server.ts, anonymous (the 2 s anonymous cache on, as shipped)', base, rows);
    await server.close();
    await baseline?.close();
    baseline = undefined;

    if (process.env.BENCH_UNCACHED !== '0') {
      server = await startServer({ ...asShipped, API_ANON_CACHE: 'off' });
      if (BASELINE) baseline = await startServer({ ...asShipped, API_ANON_CACHE: 'off' }, path.resolve(BASELINE));
      const url = server.base;
      const uncachedRows = [];
      for (const [name, p] of READS(await busiestVideo(url)))
        uncachedRows.push(await paired(name, `${url}${p}`, helloUrl, {}, was(p)));
      table(
        'the same reads with API_ANON_CACHE=off (every answer from PostgreSQL, as for a logged-in viewer)',
        base,
        uncachedRows,
      );
    }
  } finally {
    await server?.close();
    await baseline?.close();
    await stop(hello.child);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
