/**
 * `npm run bench:cluster`: requests per second of a mix of anonymous pages and API reads through HAProxy, with one app
 * server in the rotation and with two, on the cluster of `npm run cluster` (scripts/cluster/index.mjs), in one run.
 * The two set-ups alternate round by round (HAProxy's runtime API takes web2 out and puts it back; nothing restarts),
 * so a slow moment of a shared machine falls on both. Prints each run, the medians, and the ratio two / one.
 * A benchmark: it prints, never fails.
 *
 *   BENCH_ROUNDS (3), BENCH_SECONDS (10 per run), BENCH_CONNECTIONS (32)
 */
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ROOT, startCluster } from '../scripts/cluster/index.mjs';
import { buildIfNeeded } from '../scripts/build-if-needed.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** What an anonymous visitor's browser asks for most: the home and discovery pages, videos, a profile, the feed API. */
async function mix(base) {
  const feed = await (await fetch(`${base}/api/aweme/v1/web/tab/feed/?count=6`)).json();
  const videos = feed.aweme_list.map((a) => a.aweme_id);
  const author = feed.aweme_list[0].author.sec_uid;
  return [
    '/',
    '/discover',
    ...videos.slice(0, 4).map((id) => `/video/${id}`),
    `/user/${author}`,
    '/hot',
    '/api/aweme/v1/web/tab/feed/?count=10',
    `/api/aweme/v1/web/aweme/detail/?aweme_id=${videos[0]}`,
    `/api/aweme/v1/web/comment/list/?aweme_id=${videos[0]}&cursor=0&count=20`,
  ];
}

function load(base, paths, seconds) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration: seconds,
        timeout: 30,
        requests: paths.map((p) => ({ method: 'GET', path: p })),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function main() {
  buildIfNeeded();
  const cluster = await startCluster({ dir: path.join(ROOT, '.cluster', 'bench'), log: () => {} });
  try {
    const paths = await mix(cluster.url);
    console.log(
      `node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), shared by HAProxy, the app servers, PgBouncer, PostgreSQL and this load generator`,
    );
    console.log(`mix of ${paths.length} anonymous GETs in turn: ${paths.map((p) => p.split('?')[0]).join(' ')}`);
    console.log(
      `${CONNECTIONS} connections x ${SECONDS} s per run, ${ROUNDS} rounds, one and two app servers alternating\n`,
    );
    // Warm both servers' caches and JIT before measuring.
    await load(cluster.url, paths, 4);

    const runs = { one: [], two: [] };
    console.log('round  servers  req/s    p50 ms  p99 ms  non-2xx  errors');
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? ['one', 'two'] : ['two', 'one'];
      for (const setup of order) {
        await cluster.setWebState('web2', setup === 'one' ? 'maint' : 'ready');
        // Connections HAProxy holds to web2 close; let the machine settle.
        await sleep(1_000);
        const result = await load(cluster.url, paths, SECONDS);
        runs[setup].push(result);
        console.log(
          `${String(round).padEnd(7)}${(setup === 'one' ? '1' : '2').padEnd(9)}${result.requests.average.toFixed(0).padEnd(9)}${String(result.latency.p50).padEnd(8)}${String(result.latency.p99).padEnd(8)}${String(result.non2xx).padEnd(9)}${result.errors}`,
        );
      }
    }
    await cluster.setWebState('web2', 'ready');
    const one = median(runs.one.map((r) => r.requests.average));
    const two = median(runs.two.map((r) => r.requests.average));
    console.log(
      `\nmedian req/s: one app server ${one.toFixed(0)}, two ${two.toFixed(0)}; ratio two/one ${(two / one).toFixed(2)}`,
    );
    console.log(
      `median p99 ms: one ${median(runs.one.map((r) => r.latency.p99))}, two ${median(runs.two.map((r) => r.latency.p99))}`,
    );
  } finally {
    await cluster.stop();
  }
}

await main();
