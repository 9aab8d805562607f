/**
 * `npm run bench:lighthouse`: Lighthouse's performance, accessibility, best-practices and SEO scores, with LCP, CLS
 * and TBT, for every page route, logged out and (for the personal pages) logged in, with the mobile preset and then
 * the desktop one. A benchmark: it prints a table, never fails.
 *
 * It starts the built server the way the other benchmarks do (a temporary DATA_DIR, the embedded database, a free
 * port) and runs Lighthouse from npm against Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium) through
 * chrome-launcher. The mobile preset simulates a slow phone, so its performance figures are a model, not a timing.
 *
 * PRESETS=mobile runs one preset only; ROUTES=/,/hot runs only those routes (/video/* every route under /video/); DETAILS=1 also prints the elements each
 * failed accessibility audit names, and the main-thread tasks of 50 ms and more (as the preset models them) with the
 * script each is attributed to, the frames the compositor drew (Lighthouse's filmstrip screenshots) and the CSS
 * animations that ran.
 *
 * Beside Lighthouse's TBT, "TBT by CPU" reads the same audit's trace by the renderer's own CPU time: the tasks after the
 * observed first paint, each one's CPU time times the preset's multiplier, less 50 ms. Lighthouse's model scales the
 * tasks' wall time, which on a shared two-core machine also holds the time the page's thread waited for a core (a build
 * audited at TBT 143 ms on a quiet day audits at 1,100-1,250 ms beside a loaded one); the CPU figure moves with the
 * page's own work.
 *
 * BLOCK=<patterns> (comma-separated, Lighthouse's blockedUrlPatterns: BLOCK='*.mp4') audits with those requests failed,
 * to weigh a part's cost (the playing video, say) against the page without it.
 *
 * TRACE_DIR=<a directory> also writes each audit's trace there (one JSON file per audit, named by preset, route, viewer
 * and time), to open in Chromium's performance panel or read with bench/trace-tasks.mjs.
 *
 * BENCH_BASELINE=<another built checkout> runs its server beside this one, on its own Chromium, and audits every route
 * on each in turn, so a shared machine's load falls on both alike; RUNS=n (default 1) repeats each audit and prints the
 * median. The table then has a "before" row under each route, and the load average is printed beside it.
 *
 * The mobile preset slows the host's CPU by 4x, calibrated on a desktop whose Lighthouse benchmark index is 1,500-2,000;
 * on a slower host the same 4x models a slower phone than the preset means (Lighthouse warns below 1,000). Every run
 * prints the host's index. CPU_SLOWDOWN=<n> audits the mobile preset with that multiplier instead; CPU_SLOWDOWN=calibrate
 * first audits one page three times to read the index (their median) and takes the multiplier Lighthouse's own
 * calculator gives for a mid-tier phone (lighthouse-cpu-throttling-calculator: 1x at an index of 150, 2x at 800, 3x at
 * 1,300, 4x at 1,533).
 */
import { readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { ensureBuild, ROOT, startServer } from './lib.mjs';
import { blockingByCpu, longTasks, pageNavigation, threadCpu } from './trace-tasks.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const PRESETS = (process.env.PRESETS ?? 'mobile,desktop').split(',');
const ONLY = process.env.ROUTES?.split(',');
/** Whether ROUTES asks for `route` (an entry ending in * takes every route it begins, e.g. /video/*). */
const asked = (route) =>
  !ONLY || ONLY.some((o) => (o.endsWith('*') ? route.startsWith(o.slice(0, -1)) : o === decodeURIComponent(route)));
const DETAILS = Boolean(process.env.DETAILS);
const BASELINE = process.env.BENCH_BASELINE;
const RUNS = Math.max(1, Number(process.env.RUNS ?? 1));
const CPU_SLOWDOWN = process.env.CPU_SLOWDOWN;
const BLOCK = process.env.BLOCK?.split(',');
/** The mobile preset's CPU multiplier (undefined: the preset's own 4x); set once in main() for CPU_SLOWDOWN. */
let cpuSlowdown;

/**
 * The CPU multiplier that models a mid-tier phone on a host of Lighthouse benchmark index `index`, as Lighthouse's
 * calculator (lighthouse-cpu-throttling-calculator) gives it: linear between its calibration points.
 */
function calibratedSlowdown(index) {
  if (index >= 1300) return 3 + (index - 1300) / 233;
  if (index >= 800) return 2 + (index - 800) / 500;
  return Math.max(1, 1 + (index - 150) / 650);
}
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// Personal pages, measured again logged in as the demo account (logged out they show a login prompt), with the feed and
// a video page, which a member gets as the shared copy with their own marks after first paint.
const PERSONAL = ['/', '/follow', '/friend', '/user/self', '/settings', '/post', '/post/manage', '/post/data'];

/** Every page route of src/pages, its dynamic segments filled with ids of the seeded data. */
async function pageRoutes(base) {
  const feed = await (await fetch(`${base}/api/aweme/v1/web/tab/feed/?count=1&refresh_index=1`)).json();
  const aweme = feed.aweme_list[0];
  const idOf = async (listPath, pattern) => (await (await fetch(`${base}${listPath}`)).text()).match(pattern)?.[1];
  const ids = {
    'channel/[id]': [
      '/channel/300201',
      '/channel/300203',
      '/channel/300204',
      '/channel/300205',
      '/channel/300206',
      '/channel/300207',
      '/channel/300208',
      '/channel/300209',
    ],
    'live/[id]': [`/live/${await idOf('/live', /href="\/live\/(\d+)"/)}`],
    'search/[keyword]': [`/search/${encodeURIComponent('美食')}`],
    'user/[id]': [`/user/${aweme.author.sec_uid}`],
    'video/[id]': [`/video/${aweme.aweme_id}`],
    'vs/[id]': [`/vs/${await idOf('/vs', /href="\/vs\/(\d+)"/)}`],
  };
  const root = path.join(ROOT, 'src', 'pages');
  const routes = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      const rel = path.relative(root, file).split(path.sep).join('/');
      if (entry.isDirectory()) {
        if (rel !== 'api') walk(file);
      } else if (entry.name.endsWith('.astro')) {
        const route = rel.replace(/\.astro$/, '').replace(/(^|\/)index$/, '');
        if (route.includes('[')) routes.push(...(ids[route] ?? []));
        else routes.push(`/${route}`);
      }
    }
  };
  walk(root);
  return routes.sort();
}

const sessions = new Map();

/**
 * The demo account's session on `base`, opened once per server: every member's audit starts a Chrome of its own, and a
 * login for each went past the login's rate limit (429) in a sweep with RUNS=3.
 */
function demoSession(base) {
  if (!sessions.has(base))
    sessions.set(
      base,
      (async () => {
        const demo = await (await fetch(`${base}/api/passport/demo`)).json();
        const login = await fetch(`${base}/api/passport/login/password`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
          body: new URLSearchParams({ email: demo.email, password: demo.password }),
        });
        if (!login.ok) throw new Error(`demo login answered ${login.status}`);
        return login.json();
      })(),
    );
  return sessions.get(base);
}

/** Logs the browser on `port` in as the demo account: the session cookie, and the token where the login dialog keeps it. */
async function logIn(base, port) {
  const session = await demoSession(base);
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    await context.addCookies([{ name: 'sy_session', value: session.token, url: base }]);
    const page = await context.newPage();
    await page.goto(`${base}/404`);
    await page.evaluate(
      ([token, user]) => localStorage.setItem('sy.user', JSON.stringify({ token, userInfo: user })),
      [session.token, session.user],
    );
    await page.close();
  } finally {
    // Disconnects only: the browser belongs to chrome-launcher.
    await browser.close();
  }
}

/** One Lighthouse run: the four scores (0-100) and LCP (ms), CLS and TBT (ms). */
async function audit(url, port, preset, loggedIn) {
  const flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: CATEGORIES,
    disableStorageReset: loggedIn,
    ...(BLOCK ? { blockedUrlPatterns: BLOCK } : {}),
    ...(preset === 'mobile' && cpuSlowdown ? { throttling: { cpuSlowdownMultiplier: cpuSlowdown } } : {}),
  };
  const result = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
  const lhr = result?.lhr;
  if (!lhr) return null;
  const score = (id) => (lhr.categories[id]?.score == null ? '-' : String(Math.round(lhr.categories[id].score * 100)));
  const value = (id) => lhr.audits[id]?.numericValue;
  const failed = Object.values(lhr.categories.accessibility?.auditRefs ?? [])
    .map((ref) => lhr.audits[ref.id])
    .filter(
      (a) =>
        a &&
        a.score !== null &&
        a.score < 1 &&
        a.scoreDisplayMode !== 'informative' &&
        a.scoreDisplayMode !== 'notApplicable',
    )
    .map((a) => a.id);
  // The audit's trace, and the multiplier its preset models the CPU with (the desktop preset's is 1).
  const events = result.artifacts?.Trace?.traceEvents ?? [];
  const nav = pageNavigation(events);
  const slowdown = preset === 'desktop' ? 1 : (cpuSlowdown ?? 4);
  if (process.env.TRACE_DIR) {
    const name = `${preset}-${new URL(url).pathname.replace(/\W+/g, '_')}-${loggedIn ? 'in' : 'out'}-${Date.now()}.json`;
    writeFileSync(path.join(process.env.TRACE_DIR, name), JSON.stringify({ traceEvents: events }));
  }
  if (DETAILS) {
    for (const id of failed) {
      const nodes = (lhr.audits[id].details?.items ?? []).map((item) =>
        `${item.node?.selector ?? ''} ${item.node?.explanation?.split('\n')[1] ?? ''}`.trim(),
      );
      console.log(`${preset} ${url} ${id}:\n  ${nodes.slice(0, 12).join('\n  ')}`);
    }
    const tasks = (lhr.audits['long-tasks']?.details?.items ?? [])
      .filter((t) => t.duration >= 50)
      .map((t) => `${fmt(t.startTime)} ms +${fmt(t.duration)} ms ${String(t.url).replace(/^https?:\/\/[^/]+/, '')}`);
    if (tasks.length) console.log(`${preset} ${url} long tasks (start +duration script):\n  ${tasks.join('\n  ')}`);
    console.log(`  FCP ${fmt(value('first-contentful-paint'))} ms, TTI ${fmt(value('interactive'))} ms (simulated)`);
    // The best-practices audits that failed, with what each names (a console error, a deprecated API).
    for (const ref of lhr.categories['best-practices']?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (!a || a.score === null || a.score >= 1 || a.scoreDisplayMode === 'informative') continue;
      const items = (a.details?.items ?? []).map((i) => i.description ?? i.source?.url ?? i.url ?? JSON.stringify(i));
      console.log(`  best practice failed: ${a.id} ${items.slice(0, 5).join(' | ').slice(0, 400)}`);
    }
    // What moved, as the layout-shifts audit names it: the element and its share of the shift.
    for (const shift of lhr.audits['layout-shifts']?.details?.items ?? [])
      console.log(`  layout shift ${fmt(shift.score, 4)}: ${shift.node?.selector ?? shift.node?.snippet ?? '?'}`);
    // What the model scaled: the tasks of the observed (unthrottled) run that it holds long, by wall time, × 4.
    if (nav && preset === 'mobile')
      for (const t of longTasks(events, nav, { long: 50, scale: slowdown, wall: true }))
        console.log(
          `  observed at ${fmt(t.start)} ms: ${fmt(t.wall)} ms as modelled (×${fmt(slowdown, 2)}) [${t.top.join('; ')}]`,
        );
  }
  // The observed (unthrottled) run's timings, which the trace's times are.
  const observed = lhr.audits.metrics?.details?.items?.[0];
  // What else held the cores while the page loaded: each thread's CPU from the navigation to the load event.
  const loadEnd = observed?.observedLoad;
  if (DETAILS && nav && loadEnd) {
    const busiest = threadCpu(events, nav, 0, loadEnd).filter(([, ms]) => ms >= 10);
    console.log(
      `  CPU by thread until load (${fmt(loadEnd)} ms): ${busiest.map(([name, ms]) => `${name} ${fmt(ms)}`).join(', ')}`,
    );
  }
  // Frames and animations: Lighthouse keeps a screenshot of every frame the compositor draws (its filmstrip), so a
  // page that draws continuously (a playing video, an endless CSS animation) has each frame drawn and captured on the
  // cores the page's own thread shares.
  if (DETAILS && nav) {
    const frames = events.filter((e) => e.name === 'Screenshot' && e.ts >= nav.ts).length;
    const running = new Set(
      events
        .filter((e) => e.name === 'Animation' && e.ph === 'b' && e.args?.data?.state === 'running')
        .map((e) => `${e.args.data.displayName || e.args.data.name || '?'} on ${e.args.data.nodeName ?? '?'}`),
    );
    console.log(`  frames captured: ${frames}; animations started: ${[...running].slice(0, 6).join(' | ') || 'none'}`);
  }
  // The same blocking time by the renderer's own CPU: after the observed first paint, each main-thread task's CPU time
  // times the preset's multiplier.
  const observedFcp = observed?.observedFirstContentfulPaint;
  const cpuTbt =
    nav && observedFcp !== undefined ? blockingByCpu(events, nav, { after: observedFcp, scale: slowdown }) : undefined;
  return {
    scores: CATEGORIES.map(score),
    lcp: value('largest-contentful-paint'),
    cls: value('cumulative-layout-shift'),
    tbt: value('total-blocking-time'),
    cpuTbt,
    failed,
    error: lhr.runtimeError?.code,
    benchmarkIndex: lhr.environment?.benchmarkIndex,
  };
}

const fmt = (x, digits = 0) => (x === undefined ? '-' : x.toFixed(digits));

/** The median of numbers (Lighthouse's scores as strings are turned to numbers); '-' when there is none. */
function median(xs) {
  const n = xs
    .map(Number)
    .filter((x) => Number.isFinite(x))
    .sort((a, b) => a - b);
  return n.length ? n[Math.floor((n.length - 1) / 2)] : undefined;
}

/** RUNS results of one audit folded into one: the median of each figure, every failed audit and error. */
function fold(results) {
  const ok = results.filter((r) => r?.scores);
  if (!ok.length) return results[0] ?? null;
  return {
    scores: CATEGORIES.map((_, i) => fmt(median(ok.map((r) => r.scores[i])))),
    lcp: median(ok.map((r) => r.lcp)),
    cls: median(ok.map((r) => r.cls)),
    tbt: median(ok.map((r) => r.tbt)),
    tbts: ok.map((r) => r.tbt),
    cpuTbt: median(ok.map((r) => r.cpuTbt)),
    benchmarkIndex: median(ok.map((r) => r.benchmarkIndex)),
    failed: [...new Set(ok.flatMap((r) => r.failed))],
    error: [...new Set(results.map((r) => r?.error).filter(Boolean))].join(' ') || undefined,
  };
}

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

async function main() {
  ensureBuild();
  const server = await startServer();
  const baseline = BASELINE
    ? await startServer({}, path.resolve(BASELINE)).catch((error) => (server.close(), Promise.reject(error)))
    : null;
  let chrome;
  try {
    console.log(`load average ${loadavg()} (${os.cpus().length} CPUs)`);
    console.log(
      `server ready in ${server.seconds.toFixed(1)} s on ${server.base}${baseline ? `; baseline (${BASELINE}) on ${baseline.base}` : ''}`,
    );
    const freshChrome = async () => {
      await chrome?.kill();
      chrome = await chromeLauncher.launch({
        chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        chromeFlags: CHROME_FLAGS,
      });
    };
    await freshChrome();
    if (CPU_SLOWDOWN === 'calibrate') {
      // The index of a shared machine moves from audit to audit: the median of three.
      const probes = [];
      for (let i = 0; i < 3; i++)
        probes.push((await audit(`${server.base}/about`, chrome.port, 'mobile', false))?.benchmarkIndex);
      const index = median(probes.filter(Boolean));
      if (!index) throw new Error('CPU_SLOWDOWN=calibrate: the probe audits gave no benchmark index');
      cpuSlowdown = calibratedSlowdown(index);
      console.log(
        `host benchmark index ${fmt(index)} (${probes.map((x) => fmt(x)).join(', ')}): the mobile preset audits at ${fmt(cpuSlowdown, 2)}x CPU (calibrated)`,
      );
    } else if (CPU_SLOWDOWN) {
      cpuSlowdown = Number(CPU_SLOWDOWN);
      if (!(cpuSlowdown >= 1)) throw new Error(`CPU_SLOWDOWN=${CPU_SLOWDOWN}: a number of 1 or more, or calibrate`);
      console.log(`the mobile preset audits at ${fmt(cpuSlowdown, 2)}x CPU`);
    }
    // The same routes on each server, paired by position (the seed's ids may differ between them).
    const targets = [];
    for (const [name, s] of [['now', server], ...(baseline ? [['before', baseline]] : [])]) {
      const routes = (await pageRoutes(s.base)).filter(asked);
      // A member's visit to a shared page (the feed, a video page) is measured too: its marks come after first paint.
      const sharedLoggedIn = routes.filter((r) => r.startsWith('/video/')).slice(0, 1);
      const personal = [...PERSONAL, ...sharedLoggedIn].filter(asked);
      // Logged-out runs first: each starts from cleared storage; logging in then keeps the session for the rest.
      const runs = [
        ...routes.map((route) => ({ route, loggedIn: false })),
        ...personal.map((route) => ({ route, loggedIn: true })),
      ];
      targets.push({ name, base: s.base, runs });
    }
    const header = [
      'preset',
      'route',
      'viewer',
      ...(baseline ? ['build'] : []),
      'perf',
      'a11y',
      'best-pr.',
      'SEO',
      'LCP ms',
      'CLS',
      'TBT ms',
      ...(RUNS > 1 ? ['TBT of each run'] : []),
      'TBT by CPU ms',
      'a11y audits failed',
    ];
    const rows = [];
    const benchmarkIndexes = [];
    for (const preset of PRESETS) {
      for (let i = 0; i < targets[0].runs.length; i++) {
        const results = targets.map(() => []);
        // Interleaved: each repeat audits every server once, in turn.
        for (let k = 0; k < RUNS; k++) {
          for (const [j, t] of targets.entries()) {
            const run = t.runs[i];
            if (!run) continue;
            // Every audit in a Chrome of its own, as Lighthouse's own command line runs it: in a browser that had
            // audited before, the tab's renderer still held the last page's heap, and Lighthouse's coverage, started
            // before each navigation, walks that heap (V8's "heap object iterator"): a task of 160-240 ms on the
            // page's main thread across first paint, four times that as modelled, in the page's TBT. A member's
            // audit logs in first, in a tab of its own.
            await freshChrome();
            if (run.loggedIn) await logIn(t.base, chrome.port);
            results[j].push(
              await audit(`${t.base}${run.route}`, chrome.port, preset, run.loggedIn).catch((error) => ({
                error: error.message,
              })),
            );
          }
        }
        for (const [j, t] of targets.entries()) {
          const run = t.runs[i];
          if (!run) continue;
          const r = fold(results[j]);
          const row = [
            preset,
            decodeURIComponent(run.route),
            run.loggedIn ? 'in' : 'out',
            ...(baseline ? [t.name] : []),
          ];
          if (!r || !r.scores)
            row.push(
              '-',
              '-',
              '-',
              '-',
              '-',
              '-',
              '-',
              ...(RUNS > 1 ? ['-'] : []),
              '-',
              `error: ${r?.error ?? 'no result'}`,
            );
          else
            row.push(
              ...r.scores,
              fmt(r.lcp),
              fmt(r.cls, 3),
              fmt(r.tbt),
              ...(RUNS > 1 ? [r.tbts.map((x) => fmt(x)).join(' ')] : []),
              fmt(r.cpuTbt),
              [r.error, ...r.failed].filter(Boolean).join(' ') || '',
            );
          rows.push(row);
          process.stderr.write(
            `${row.join(' ')} (load ${loadavg()}; host benchmark index ${fmt(r?.benchmarkIndex)})\n`,
          );
          if (r?.benchmarkIndex) benchmarkIndexes.push(r.benchmarkIndex);
        }
      }
    }
    console.log(`\n| ${header.join(' | ')} |\n|${header.map(() => ' --- ').join('|')}|`);
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
    const a11yAt = header.indexOf('a11y');
    const a11y = rows
      .filter((r) => !baseline || r[3] === 'now')
      .map((r) => Number(r[a11yAt]))
      .filter((x) => !Number.isNaN(x));
    console.log(
      `\naccessibility: ${a11y.filter((x) => x === 100).length} of ${a11y.length} runs at 100, lowest ${Math.min(...a11y)}`,
    );
    console.log(`load average ${loadavg()} at the end`);
    // Lighthouse's own measure of the host's CPU: its mobile preset's 4x is meant for a desktop of 1,500-2,000; on a
    // slower host every modelled task is longer than on the phone the preset means.
    const idx = median(benchmarkIndexes);
    if (idx !== undefined)
      console.log(
        `host benchmark index ${fmt(idx)} (median of ${benchmarkIndexes.length} audits, from ${fmt(Math.min(...benchmarkIndexes))} to ${fmt(Math.max(...benchmarkIndexes))})`,
      );
  } finally {
    await chrome?.kill();
    await server.close();
    await baseline?.close();
  }
}

main().catch((error) => {
  console.error(`bench/lighthouse: ${error instanceof Error ? error.stack : error}`);
  process.exitCode = 0;
});
