/**
 * `npm run bench:load`: the built server under a mixed load for a while (default 60 s at 50 connections): anonymous
 * pages, anonymous API reads and logged-in writes (likes, follows, comments) by many seeded users. Prints requests/s,
 * p50/p99, the answers per kind and status, and the server's RSS before, right after and after 30 s idle. A benchmark:
 * it prints figures, it never fails (a non-429 error is printed as such; write 429s are per-user limits doing their job).
 *
 * BENCH_DURATION (s, default 60), BENCH_CONNECTIONS (default 50), BENCH_USERS (default 40 writers), BENCH_RUNS
 * (default 1; a second run shows whether memory keeps growing) and BENCH_IDLE (s, default 30) override the load.
 */
import os from 'node:os';
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { ensureBuild, freePort, startServer } from './lib.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const USERS = Number(process.env.BENCH_USERS ?? 40);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const IDLE = Number(process.env.BENCH_IDLE ?? 30);
/** Share of each kind of request, in that order: pages, API reads, writes. */
const MIX = { page: 0.3, read: 0.5, write: 0.2 };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resident set size of a process in MiB, from /proc. */
function rssMiB(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Math.round(Number(line[1]) / 1024) : NaN;
}

/** Sessions for the first `n` seeded users other than the demo account, opened through the sessions service. */
async function openSessions(pgPort, n) {
  const { embeddedUrl } = await import('../src/server/db/embedded.ts');
  const { connect, useDb } = await import('../src/server/db/client.ts');
  const { createSession } = await import('../src/server/services/sessions.ts');
  const { sql } = await import('drizzle-orm');
  const { db, pool } = connect(embeddedUrl(pgPort, 'shanying'), { max: 2 });
  useDb(db);
  const { rows } = await db.execute(sql`select id, sec_uid from users order by id offset 1 limit ${n}`);
  const users = [];
  for (const row of rows)
    users.push({
      id: Number(row.id),
      secUid: row.sec_uid,
      token: (await createSession(Number(row.id), 'bench/load')).token,
    });
  await pool.end();
  return users;
}

/** What the requests draw from: videos and users of the seed. */
async function targets(base) {
  const feed = await (await fetch(`${base}/api/aweme/v1/web/tab/feed/?count=50`)).json();
  const videos = feed.aweme_list.map((a) => a.aweme_id);
  const authors = [...new Set(feed.aweme_list.map((a) => a.author.sec_uid))];
  return { videos, authors };
}

function pick(list) {
  return list[Math.floor(Math.random() * list.length)];
}

/** One request of the mix; its kind is kept on the connection's context for `onResponse`. */
function nextRequest({ videos, authors }, users, base) {
  const origin = new URL(base).origin;
  let seq = 0;
  return (request, context) => {
    const r = Math.random();
    const video = pick(videos);
    const form = { 'content-type': 'application/x-www-form-urlencoded', origin };
    if (r < MIX.page) {
      context.kind = 'page';
      const path = pick([
        '/',
        `/video/${video}`,
        `/user/${pick(authors)}`,
        '/discover',
        '/hot',
        `/search/${encodeURIComponent('音乐')}`,
      ]);
      return { ...request, method: 'GET', path, headers: { 'accept-encoding': 'br, gzip' }, body: undefined };
    }
    if (r < MIX.page + MIX.read) {
      context.kind = 'read';
      const path = pick([
        '/api/aweme/v1/web/tab/feed/?count=10',
        `/api/aweme/v1/web/aweme/detail/?aweme_id=${video}`,
        `/api/aweme/v1/web/comment/list/?aweme_id=${video}&cursor=0&count=20`,
        `/api/aweme/v1/web/aweme/related/?aweme_id=${video}&count=10`,
        `/api/aweme/v1/web/user/profile/other/?sec_user_id=${pick(authors)}`,
        `/api/aweme/v1/web/general/search/single/?keyword=${encodeURIComponent('舞蹈')}&offset=0&count=10`,
      ]);
      return { ...request, method: 'GET', path, headers: { 'accept-encoding': 'br, gzip' }, body: undefined };
    }
    context.kind = 'write';
    const user = pick(users);
    const headers = { ...form, token: user.token };
    const w = Math.random();
    seq++;
    if (w < 0.4) {
      return {
        ...request,
        method: 'POST',
        path: '/api/aweme/v1/web/commit/item/digg/',
        headers,
        body: `aweme_id=${video}&type=${seq % 2}`,
      };
    }
    if (w < 0.7) {
      const target = pick(users.filter((u) => u !== user));
      return {
        ...request,
        method: 'POST',
        path: '/api/aweme/v1/web/commit/follow/user/',
        headers,
        body: `sec_user_id=${target.secUid}&type=${seq % 2}`,
      };
    }
    const text = encodeURIComponent(`压测评论 ${seq}`);
    return {
      ...request,
      method: 'POST',
      path: '/api/aweme/v1/web/comment/publish',
      headers,
      body: `aweme_id=${video}&text=${text}`,
    };
  };
}

function run(base, setup) {
  const counts = {};
  const count = (kind, status) => {
    const row = (counts[kind] ??= {});
    row[status] = (row[status] ?? 0) + 1;
  };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: DURATION,
        pipelining: 1,
        // A shared machine's tail can pass autocannon's 10 s default: wait longer and report it as latency instead.
        timeout: 30,
        // A request that timed out comes back without a status; autocannon counts it among its time-outs.
        requests: [
          { setupRequest: setup, onResponse: (status, _body, context) => status && count(context.kind, status) },
        ],
      },
      (error, result) => (error ? reject(error) : resolve({ result, counts })),
    );
  });
}

function report(label, { result, counts }) {
  const all = Object.entries(counts).flatMap(([kind, row]) =>
    Object.entries(row).map(([status, n]) => ({ kind, status, n })),
  );
  const total = all.reduce((a, r) => a + r.n, 0);
  const writes429 = all.filter((r) => r.kind === 'write' && r.status === '429').reduce((a, r) => a + r.n, 0);
  const failed = all
    .filter((r) => Number(r.status) >= 400 && !(r.kind === 'write' && r.status === '429'))
    .reduce((a, r) => a + r.n, 0);
  console.log(`\n${label}`);
  console.log(
    `  ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${total} answers`,
  );
  for (const [kind, row] of Object.entries(counts)) {
    console.log(
      `  ${kind.padEnd(9)} ${Object.entries(row)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ')}`,
    );
  }
  // autocannon's errors are connection failures and time-outs (no answer within 10 s); statuses are counted above.
  console.log(
    `  errors: ${failed} answers >= 400 other than write 429s, ${result.errors} without an answer (${result.timeouts} time-outs); write 429s: ${writes429}`,
  );
}

async function main() {
  ensureBuild();
  const pgPort = await freePort();
  // Every connection comes from 127.0.0.1 here, standing for many visitors: per-address limits (searches are limited per
  // address) scale as for a site behind one proxy address; the per-account limits the writers meet stay as shipped.
  const server = await startServer({
    NODE_ENV: 'production',
    API_ANON_CACHE: undefined,
    PG_PORT: String(pgPort),
    RATE_LIMIT_IP_FACTOR: '1000',
  });
  try {
    const users = await openSessions(pgPort, USERS);
    const setup = nextRequest(await targets(server.base), users, server.base);
    console.log(
      `node ${process.version}, ${os.cpus().length} CPUs, ${CONNECTIONS} connections x ${DURATION} s, ${users.length} writers`,
    );
    console.log(
      `mix: ${MIX.page * 100}% anonymous pages, ${MIX.read * 100}% anonymous API reads, ${MIX.write * 100}% logged-in writes`,
    );
    const rss = [['before', rssMiB(server.pid)]];
    for (let i = 1; i <= RUNS; i++) {
      report(`run ${i}`, await run(server.base, setup));
      rss.push([`after run ${i}`, rssMiB(server.pid)]);
    }
    await sleep(IDLE * 1000);
    rss.push([`after ${IDLE} s idle`, rssMiB(server.pid)]);
    console.log(`\nserver RSS (MiB): ${rss.map(([k, v]) => `${k} ${v}`).join(', ')}`);
  } finally {
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
