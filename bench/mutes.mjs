/**
 * `npm run bench:mutes`: what 200 muted keywords cost a member's reads. Two fresh members on the same server, one with
 * no mutes and one with 200 muted keywords (the cap), ask for the same reads (the recommend feed, search, 首页's
 * popular list, a video's related list); each read runs interleaved between the two (BENCH_ROUNDS alternating runs,
 * default 4), so the shared machine's drifting load hits both alike, and the ratio compares the means of the same
 * windows. Target: the muted member's requests/s at least 90 % of the other's (no read more than 10 % slower).
 * A benchmark: it prints figures and ratios, it never fails. BENCH_DURATION (s per read, default 8) and
 * BENCH_CONNECTIONS (default 10) override the load.
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ensureBuild, startServer } from './lib.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WARMUP = 2;
const KEYWORDS = 200;
const TARGET = 0.9;

function load(url, duration, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1, headers }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/** A new member through an e-mailed login code (the server's outbox under its DATA_DIR). */
async function member(base, dataDir, label) {
  const email = `${label}-bench@bench.example`;
  const sent = await fetch(`${base}/api/passport/code/send`, {
    method: 'POST',
    body: new URLSearchParams({ email }),
  });
  if (!sent.ok) throw new Error(`code/send ${sent.status}`);
  let code = null;
  for (let i = 0; i < 50 && !code; i++) {
    try {
      const file = readdirSync(path.join(dataDir, 'outbox'))
        .filter((n) => n.endsWith(`-${email}.txt`))
        .sort()
        .at(-1);
      code = file ? readFileSync(path.join(dataDir, 'outbox', file), 'utf8').match(/\b(\d{6})\b/)?.[1] : null;
    } catch {
      // The outbox is written a moment after the answer.
    }
    if (!code) await new Promise((r) => setTimeout(r, 100));
  }
  const login = await fetch(`${base}/api/passport/login/code`, {
    method: 'POST',
    body: new URLSearchParams({ email, code }),
  });
  if (!login.ok) throw new Error(`login/code ${login.status}`);
  return (await login.json()).token;
}

/** 200 keywords that read like what people mute (two or three characters), none of them the search's own word. */
function keywords() {
  const a = [...'剧透广告标题党引流带货低俗恐怖血腥暴力赌博抽奖代购刷单减肥整容医美催婚'];
  const b = [...'视频内容话题直播链接主播粉丝分享评论合集挑战教程测评开箱日常'];
  const out = new Set();
  for (let i = 0; out.size < KEYWORDS; i++)
    out.add(`${a[i % a.length]}${b[(i * 7) % b.length]}${i % 3 ? '' : a[(i * 3) % a.length]}`);
  return [...out];
}

async function main() {
  ensureBuild();
  const server = await startServer({ NODE_ENV: 'production', RATE_LIMIT_IP_FACTOR: '100' });
  try {
    const plain = await member(server.base, server.dataDir, 'plain');
    const muted = await member(server.base, server.dataDir, 'muted');
    for (const value of keywords()) {
      const r = await fetch(`${server.base}/api/user/mutes/add`, {
        method: 'POST',
        headers: { Token: muted },
        body: new URLSearchParams({ kind: 'keyword', value }),
      });
      if (!r.ok) throw new Error(`mutes/add ${r.status} ${await r.text()}`);
    }
    const stored = (await (await fetch(`${server.base}/api/user/mutes`, { headers: { Token: muted } })).json()).data
      .items.length;
    const feed = await (await fetch(`${server.base}/api/aweme/v1/web/tab/feed/?count=10`)).json();
    const id = feed.aweme_list[0].aweme_id;
    const reads = [
      ['recommend tab/feed count=10', '/api/aweme/v1/web/tab/feed/?count=10'],
      [
        'search 美食 count=10',
        `/api/aweme/v1/web/general/search/single/?keyword=${encodeURIComponent('美食')}&count=10&offset=10`,
      ],
      ['首页 module/feed count=20', '/api/aweme/v2/web/module/feed/?count=20'],
      ['related count=12', `/api/aweme/v1/web/aweme/related/?aweme_id=${id}&count=12`],
    ];
    console.log(
      `node ${process.version}, ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; ` +
        `${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${DURATION / ROUNDS} s per member per read; the muted member holds ${stored} keywords`,
    );
    const pad = (s, n) => String(s).padEnd(n);
    const lpad = (s, n) => String(s).padStart(n);
    console.log(
      `${pad('read', 30)}${lpad('none req/s', 12)}${lpad('p50', 6)}${lpad('p99', 6)}${lpad('200 kw req/s', 14)}${lpad('p50', 6)}${lpad('p99', 6)}${lpad('ratio', 9)}  target (>= ${TARGET * 100}%)`,
    );
    for (const [name, p] of reads) {
      const url = `${server.base}${p}`;
      const h0 = { Token: plain };
      const h1 = { Token: muted };
      await load(url, WARMUP, h0);
      await load(url, WARMUP, h1);
      const none = [];
      const some = [];
      for (let i = 0; i < ROUNDS; i++) {
        // Alternate which goes first, so neither always meets the warmer machine.
        if (i % 2) {
          some.push(await load(url, DURATION / ROUNDS, h1));
          none.push(await load(url, DURATION / ROUNDS, h0));
        } else {
          none.push(await load(url, DURATION / ROUNDS, h0));
          some.push(await load(url, DURATION / ROUNDS, h1));
        }
      }
      const mean = (rs) => rs.reduce((a, r) => a + r.requests.average, 0) / rs.length;
      const worst = (rs, k) => Math.max(...rs.map((r) => r.latency[k]));
      const faults = [...none, ...some].reduce((a, r) => a + r.non2xx + r.errors + r.timeouts, 0);
      const ratio = mean(some) / mean(none);
      console.log(
        `${pad(name, 30)}${lpad(Math.round(mean(none)), 12)}${lpad(worst(none, 'p50'), 6)}${lpad(worst(none, 'p99'), 6)}${lpad(Math.round(mean(some)), 14)}${lpad(worst(some, 'p50'), 6)}${lpad(worst(some, 'p99'), 6)}${lpad(`${(ratio * 100).toFixed(1)}%`, 9)}  ${ratio >= TARGET ? 'met' : 'MISSED'}${faults ? `  (${faults} non-2xx or errors)` : ''}`,
      );
    }
    console.log(
      `load average after: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
