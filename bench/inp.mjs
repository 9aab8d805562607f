/**
 * `npm run bench:inp`: Interaction to Next Paint of a viewer's first interaction on a phone, under the mobile CPU
 * throttle (CDP Emulation.setCPUThrottlingRate, default 4x), logged out and logged in (target: ≤ 200 ms). Each
 * interaction is the first of a fresh visit (a 412×823 touch screen), made REACTION_MS (default 1000) after the first
 * video frame, when the island may still be loading or hydrating:
 *
 * - swipe (/): the ↓ key, the feed's next video;
 * - like (/ and /video/{id}): a tap on ♥ (a visitor gets the login prompt, a member the like);
 * - comments (/ and /video/{id}): a tap on 评论;
 * - search (/ and /video/{id}): a tap on the header's search icon, which focuses the search box.
 *
 * INP is read in the page from the Event Timing API (`event` entries with an interactionId, the longest duration of
 * the interaction: input delay, handlers and the next paint). Each row also says in how many visits the island had
 * hydrated by the tap.
 *
 * BENCH_BASELINE=<another built checkout> runs its server beside this one and interleaves every visit with it ("before"
 * rows). RUNS (default 5) visits per row; THROTTLE (default 4). A benchmark: it prints figures, never fails.
 */
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { ensureBuild, startServer } from './lib.mjs';

const RUNS = Number(process.env.RUNS ?? 5);
const THROTTLE = Number(process.env.THROTTLE ?? 4);
const REACTION_MS = Number(process.env.REACTION_MS ?? 1000);
const BASELINE = process.env.BENCH_BASELINE;
const TARGET_INP = 200;
const ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'];
const CONTEXT = { locale: 'zh-CN', viewport: { width: 412, height: 823 }, isMobile: true, hasTouch: true };
/** Labels from src/i18n/zh-CN.ts: video.likes, video.comments, video.actions, phone.search. */
const LIKE = '点赞';
const COMMENTS = '评论';
const ACTIONS = '视频操作';
const SEARCH = '搜索';

const sleep = (n) => new Promise((resolve) => setTimeout(resolve, n));
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

function quantile(xs, q) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] : undefined;
}
const ms = (x) => (x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(0));

// Runs in the page before its scripts: the first video frame (ms since navigation start), and every interaction's
// longest event duration, by interactionId.
function watchPage() {
  const seen = { frame: undefined, interactions: {} };
  window.__inp = seen;
  const hook = new MutationObserver(() => {
    const v = document.querySelector('[data-active="true"] video, [data-player] video');
    if (!v || typeof v.requestVideoFrameCallback !== 'function') return;
    hook.disconnect();
    v.requestVideoFrameCallback((now) => (seen.frame = now));
  });
  hook.observe(document, { childList: true, subtree: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.interactionId)
        seen.interactions[e.interactionId] = Math.max(seen.interactions[e.interactionId] ?? 0, e.duration);
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
}

/** The element an interaction acts on, in the active feed item or the video page. */
const TARGETS = {
  like: (page) =>
    page
      .locator(
        `[data-active="true"] ul[aria-label="${ACTIONS}"], [data-player-actions] ul[aria-label="${ACTIONS}"], main ul[aria-label="${ACTIONS}"]`,
      )
      .first()
      .locator('button', { has: page.locator('.sr-only', { hasText: new RegExp(`^${LIKE}$`) }) })
      .first(),
  comments: (page) =>
    page
      .locator(`[data-active="true"] ul[aria-label="${ACTIONS}"], main ul[aria-label="${ACTIONS}"]`)
      .first()
      .locator('button', { has: page.locator('.sr-only', { hasText: new RegExp(`^${COMMENTS}$`) }) })
      .first(),
  search: (page) => page.locator('#site-header').getByRole('button', { name: SEARCH, exact: true }),
};

/** One fresh visit: the first interaction `kind` on `url`; its INP (ms), and whether the island had hydrated. */
async function visit(browser, url, kind, session) {
  const context = await browser.newContext(CONTEXT);
  if (session) {
    await context.addCookies([{ name: 'sy_session', value: session.token, url }]);
    await context.addInitScript(
      ([token, user]) => localStorage.setItem('sy.user', JSON.stringify({ token, userInfo: user })),
      [session.token, session.user],
    );
  }
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    await page.addInitScript(watchPage);
    await page.goto(url, { waitUntil: 'load' });
    const end = Date.now() + 20_000;
    while (Date.now() < end && !(await page.evaluate(() => window.__inp.frame !== undefined))) await sleep(50);
    await sleep(REACTION_MS);
    const target = kind === 'swipe' ? null : TARGETS[kind](page);
    // Located before the clock starts: the tap itself is all that happens in the page.
    if (target) await target.waitFor({ state: 'visible', timeout: 10_000 });
    const hydrated = await page.evaluate(
      () => !document.querySelector('astro-island[ssr] [data-index], astro-island[ssr] [data-player]'),
    );
    if (target) await target.tap();
    else await page.keyboard.press('ArrowDown');
    let inp;
    const until = Date.now() + 5000;
    while (Date.now() < until) {
      await sleep(100);
      const all = Object.values(await page.evaluate(() => window.__inp.interactions));
      if (all.length) {
        // A last moment for the other events of the same interaction (keyup, click) to report.
        await sleep(300);
        inp = Math.max(...Object.values(await page.evaluate(() => window.__inp.interactions)));
        break;
      }
    }
    // An interaction under 16 ms reports no entry: it counts as 16 at most.
    return { inp: inp ?? 16, hydrated };
  } finally {
    await context.close();
  }
}

async function demoSession(base) {
  const demo = await (await fetch(`${base}/api/passport/demo`)).json();
  if (!demo.email) throw new Error('the server has no demo account');
  const login = await fetch(`${base}/api/passport/login/password`, {
    method: 'POST',
    body: new URLSearchParams({ email: demo.email, password: demo.password }),
  });
  if (!login.ok) throw new Error(`demo login: ${login.status}`);
  return login.json();
}

async function prepare(name, server) {
  const feed = await (await fetch(`${server.base}/api/aweme/v1/web/tab/feed/?count=1`)).json();
  return {
    name,
    base: server.base,
    video: `/video/${feed.aweme_list[0].aweme_id}`,
    session: await demoSession(server.base),
  };
}

async function main() {
  ensureBuild();
  const server = await startServer();
  const baseline = BASELINE ? await startServer({}, path.resolve(BASELINE)) : null;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ARGS,
  });
  try {
    console.log(
      `load average ${loadavg()} (${os.cpus().length} CPUs); CPU throttle ${THROTTLE}x; ${RUNS} visits a row`,
    );
    const targets = [await prepare('now', server), ...(baseline ? [await prepare('before', baseline)] : [])];
    const rows = [];
    const plan = [];
    for (const member of [false, true])
      for (const route of ['/', 'video'])
        for (const kind of ['swipe', 'like', 'comments', 'search'])
          if (kind !== 'swipe' || route === '/') plan.push({ member, route, kind });
    for (const { member, route, kind } of plan) {
      const results = new Map(targets.map((t) => [t.name, []]));
      for (let i = 0; i < RUNS; i++)
        for (const t of i % 2 ? [...targets].reverse() : targets) {
          const url = `${t.base}${route === '/' ? '/' : t.video}`;
          const r = await visit(browser, url, kind, member ? t.session : null).catch((error) => ({
            error: error.message.split('\n')[0],
          }));
          results.get(t.name).push(r);
        }
      for (const t of targets) {
        const rs = results.get(t.name);
        const ok = rs.filter((r) => r.inp !== undefined);
        const inps = ok.map((r) => r.inp);
        const row = {
          viewer: member ? 'in' : 'out',
          route: route === '/' ? '/' : '/video/{id}',
          kind,
          build: t.name,
          p50: quantile(inps, 0.5),
          max: inps.length ? Math.max(...inps) : undefined,
          hydrated: `${ok.filter((r) => r.hydrated).length}/${ok.length}`,
          errors: rs.filter((r) => r.error).map((r) => r.error),
        };
        rows.push(row);
        process.stderr.write(
          `${row.viewer} ${row.route} ${kind} ${t.name}: p50 ${ms(row.p50)} ms, max ${ms(row.max)} ms [${inps.map(ms).join(' ')}] (load ${loadavg()})\n`,
        );
      }
    }
    const header = [
      'viewer',
      'route',
      'interaction',
      ...(baseline ? ['build'] : []),
      'INP p50 ms',
      'INP max ms',
      'hydrated at tap',
      'errors',
    ];
    console.log(`\n| ${header.join(' | ')} |\n|${header.map(() => ' --- ').join('|')}|`);
    for (const r of rows)
      console.log(
        `| ${[r.viewer, r.route, r.kind, ...(baseline ? [r.build] : []), ms(r.p50), ms(r.max), r.hydrated, [...new Set(r.errors)].join('; ')].join(' | ')} |`,
      );
    const now = rows.filter((r) => r.build === 'now' && r.max !== undefined);
    console.log(
      `\nINP ≤ ${TARGET_INP} ms (p50): ${now.filter((r) => r.p50 <= TARGET_INP).length} of ${now.length} rows; worst p50 ${ms(Math.max(...now.map((r) => r.p50)))} ms`,
    );
    console.log(`load average ${loadavg()} at the end`);
  } finally {
    await browser.close();
    await server.close();
    await baseline?.close();
  }
}

main().catch((error) => {
  console.error(`bench/inp: ${error instanceof Error ? error.stack : error}`);
  process.exitCode = 1;
});
