/**
 * `npm run bench:page-writes`: what steady writes do to the shared page cache. Anonymous visitors load a rotation of
 * hot pages (the feed, 精选, 热点, a channel, a profile and five video pages) at 20 connections (Accept-Encoding: br), first
 * with no writes, then while one logged-in account likes and unlikes videos WRITES_PER_S times a second. Every such
 * write tells the caches of anonymous answers that what visitors see changed.
 * Two servers run side by side, their rows interleaved in the same windows: one as shipped, and one with
 * PAGE_REFRESH_MIN_MS=0, where every write makes every kept page stale at once, so that each hot page is rendered
 * again after each write. The ratio of the two is the figure.
 * A benchmark: it prints figures and ratios, it never fails.
 *
 * BENCH_DURATION (s per row, default 6), BENCH_ROUNDS (default 2), BENCH_WRITES_PER_S (default 15; one account may
 * make 300 writes in 5 minutes) and BENCH_CONNECTIONS (default 20) change it.
 */
import autocannon from 'autocannon';
import { ensureBuild, startServer } from './lib.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 6);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WRITES_PER_S = Number(process.env.BENCH_WRITES_PER_S ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ENCODING = { 'accept-encoding': 'br' };

/** The hot pages of a busy minute: lists, a profile and the five most commented videos. */
async function hotPages(base) {
  const feed = await (await fetch(`${base}/api/aweme/v1/web/tab/feed/?count=50`)).json();
  const videos = [...feed.aweme_list].sort((a, b) => b.statistics.comment_count - a.statistics.comment_count);
  const channel = (await (await fetch(`${base}/discover`)).text()).match(/href="\/channel\/(\d+)"/)?.[1] ?? '300201';
  return {
    paths: [
      '/',
      '/discover',
      '/hot',
      `/channel/${channel}`,
      `/user/${videos[0].author.sec_uid}`,
      ...videos.slice(0, 5).map((v) => `/video/${v.aweme_id}`),
    ],
    targets: videos.slice(5, 25).map((v) => v.aweme_id),
  };
}

async function login(base) {
  const demo = await (await fetch(`${base}/api/passport/demo`)).json();
  const res = await fetch(`${base}/api/passport/login/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ email: demo.email, password: demo.password }),
  });
  return (await res.json()).token;
}

/** Likes and unlikes `targets` in turn, WRITES_PER_S a second, until `stop()`; answers how many went through. */
function writer(base, token, targets) {
  let on = true;
  let done = 0;
  let refused = 0;
  const gap = 1000 / WRITES_PER_S;
  const run = (async () => {
    for (let i = 0; on; i++) {
      const started = performance.now();
      const id = targets[i % targets.length];
      const type = Math.floor(i / targets.length) % 2 === 0 ? '1' : '0';
      const res = await fetch(`${base}/api/aweme/v1/web/commit/item/digg/`, {
        method: 'POST',
        headers: { token, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ aweme_id: id, type }),
      });
      const body = await res.json();
      if (res.ok && body.status_code === 0) done++;
      else refused++;
      await new Promise((r) => setTimeout(r, Math.max(0, gap - (performance.now() - started))));
    }
  })();
  return async () => {
    on = false;
    await run;
    return { done, refused };
  };
}

/** Anonymous visits to `paths` in turn, at CONNECTIONS connections for `duration` s. */
function load(base, paths, duration) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        duration,
        headers: ENCODING,
        requests: paths.map((path) => ({ method: 'GET', path })),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

await ensureBuild();
const servers = {
  shipped: await startServer({ RATE_LIMIT_IP_FACTOR: '100000' }),
  'min 0': await startServer({ RATE_LIMIT_IP_FACTOR: '100000', PAGE_REFRESH_MIN_MS: '0' }),
};
try {
  const setups = {};
  for (const [name, server] of Object.entries(servers)) {
    setups[name] = { ...(await hotPages(server.base)), token: await login(server.base) };
    await load(server.base, setups[name].paths, 1);
  }
  console.log(
    `node ${process.version}, 20 connections over ${setups.shipped.paths.length} hot pages, Accept-Encoding: br; ${DURATION} s per row in ${ROUNDS} rounds, interleaved; writes: likes and unlikes, ${WRITES_PER_S}/s`,
  );
  const rows = {};
  for (let round = 0; round < ROUNDS; round++) {
    for (const writes of [false, true]) {
      for (const [name, server] of Object.entries(servers)) {
        const setup = setups[name];
        const stopWriting = writes ? writer(server.base, setup.token, setup.targets) : undefined;
        const result = await load(server.base, setup.paths, DURATION);
        const written = stopWriting ? await stopWriting() : { done: 0, refused: 0 };
        const key = `${name}|${writes ? 'writes' : 'none'}`;
        (rows[key] ??= []).push({
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          non2xx: result.non2xx,
          ...written,
        });
      }
    }
  }
  console.log('\nserver   writes           req/s    p50    p99  non-2xx  writes done/refused');
  const summary = {};
  for (const [key, list] of Object.entries(rows)) {
    const [name, writes] = key.split('|');
    const row = {
      rps: median(list.map((r) => r.rps)),
      p50: median(list.map((r) => r.p50)),
      p99: median(list.map((r) => r.p99)),
    };
    summary[key] = row;
    const done = list.reduce((s, r) => s + r.done, 0);
    const refused = list.reduce((s, r) => s + r.refused, 0);
    const non2xx = list.reduce((s, r) => s + r.non2xx, 0);
    console.log(
      `${name.padEnd(8)} ${(writes === 'writes' ? `${WRITES_PER_S}/s` : 'none').padEnd(12)} ${String(Math.round(row.rps)).padStart(9)} ${String(row.p50).padStart(6)} ${String(row.p99).padStart(6)} ${String(non2xx).padStart(8)}  ${done}/${refused}`,
    );
  }
  const ratio = (a, b) => `${((summary[a].rps / summary[b].rps) * 100).toFixed(1)}%`;
  console.log(`\nunder writes, req/s as shipped vs PAGE_REFRESH_MIN_MS=0: ${ratio('shipped|writes', 'min 0|writes')}`);
  console.log(
    `under writes vs none, as shipped: ${ratio('shipped|writes', 'shipped|none')}; with PAGE_REFRESH_MIN_MS=0: ${ratio('min 0|writes', 'min 0|none')}`,
  );
} finally {
  await Promise.all(Object.values(servers).map((s) => s.close()));
}
