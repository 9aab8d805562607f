/**
 * `node bench/long-tasks.mjs`: the main-thread tasks of 50 ms and more (the main thread's own CPU time) while a page loads and settles, under the
 * mobile CPU throttle (CDP Emulation.setCPUThrottlingRate, 4x), each with what it spent its time on (from a Chrome
 * trace: scripts by URL, style, layout, paint, parsing, garbage collection). A tool for finding what blocks a phone's
 * main thread; it prints, never fails.
 *
 * ROUTES=/,/discover (default /) picks the pages; LOGGED_IN=1 visits them as the demo account; RUNS=n (default 1)
 * visits each n times; SETTLE_MS (default 6000) is how long after the load event the trace goes on; THROTTLE (default
 * 4); SCALE=4 with THROTTLE=1 reports, as Lighthouse's mobile preset models them, the tasks of an unthrottled run
 * (their times multiplied by 4). BENCH_BASELINE=<another built checkout> traces its server too, each visit interleaved with this one's.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { ensureBuild, startServer } from './lib.mjs';
import { hotFunctions, jsSamples, longTasks, pageNavigation } from './trace-tasks.mjs';

const ROUTES = (process.env.ROUTES ?? '/').split(',');
const LOGGED_IN = Boolean(process.env.LOGGED_IN);
const RUNS = Number(process.env.RUNS ?? 1);
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 6000);
const THROTTLE = Number(process.env.THROTTLE ?? 4);
const BASELINE = process.env.BENCH_BASELINE;
const LONG = Number(process.env.LONG ?? 50);
// Lighthouse's mobile preset multiplies the tasks of an unthrottled run by 4: with THROTTLE=1, SCALE=4 reports the tasks
// that model holds long (12.5 ms of CPU and more), scaled by 4.
const SCALE = Number(process.env.SCALE ?? 1);
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'v8',
  'blink.user_timing',
  'loading',
  'toplevel',
  'disabled-by-default-v8.cpu_profiler',
].join(',');

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

/** Logs in as the demo account; the session to add to a context. */
async function demoSession(base) {
  const demo = await (await fetch(`${base}/api/passport/demo`)).json();
  const login = await fetch(`${base}/api/passport/login/password`, {
    method: 'POST',
    body: new URLSearchParams({ email: demo.email, password: demo.password }),
  });
  if (!login.ok) throw new Error(`demo login: ${login.status}`);
  return login.json();
}

let traced = 0;

async function trace(browser, url, session) {
  const context = await browser.newContext({
    locale: 'zh-CN',
    viewport: { width: 412, height: 823 },
    isMobile: true,
    hasTouch: true,
  });
  if (session) {
    const origin = new URL(url).origin;
    await context.addCookies([{ name: 'sy_session', value: session.token, url: origin }]);
    await context.addInitScript(
      ([token, user]) => localStorage.setItem('sy.user', JSON.stringify({ token, userInfo: user })),
      [session.token, session.user],
    );
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  const chunks = [];
  cdp.on('Tracing.dataCollected', (m) => chunks.push(...m.value));
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(SETTLE_MS);
  const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null);
  await cdp.send('Tracing.end');
  await done;
  await context.close();
  if (process.env.TRACE_OUT)
    writeFileSync(`${process.env.TRACE_OUT}.${(traced += 1)}.json`, JSON.stringify({ traceEvents: chunks }));
  const nav = pageNavigation(chunks);
  const tasks = nav ? longTasks(chunks, nav, { long: LONG, scale: SCALE }) : [];
  // The JavaScript each long task ran, from the sampling profiler: the outermost script frames (what started it) and
  // the innermost (where the time went).
  const samples = nav ? jsSamples(chunks, nav) : [];
  for (const t of tasks) t.js = hotFunctions(samples, t.ts, t.end);
  // Total blocking time after first paint, as measured (the part of each task beyond 50 ms).
  const tbt = tasks.filter((t) => fcp !== null && t.start >= fcp).reduce((s, t) => s + t.ms - LONG, 0);
  return { fcp, tasks, tbt };
}

async function main() {
  ensureBuild();
  const server = await startServer();
  const baseline = BASELINE ? await startServer({}, path.resolve(BASELINE)) : null;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    console.log(`load average ${loadavg()}; throttle ${THROTTLE}x`);
    const targets = [['now', server], ...(baseline ? [['before', baseline]] : [])];
    const sessions = new Map();
    if (LOGGED_IN) for (const [name, s] of targets) sessions.set(name, await demoSession(s.base));
    const summary = [];
    for (const route of ROUTES)
      for (let i = 0; i < RUNS; i++)
        for (const [name, s] of i % 2 ? [...targets].reverse() : targets) {
          const r = await trace(browser, `${s.base}${route}`, sessions.get(name));
          summary.push({ route, name, tbt: r.tbt, n: r.tasks.length });
          console.log(
            `\n${name} ${route}${LOGGED_IN ? ' (member)' : ''} run ${i + 1}: FCP ${r.fcp?.toFixed(0)} ms; ${r.tasks.length} tasks ≥ ${LONG} ms; blocking after FCP ${r.tbt.toFixed(0)} ms (load ${loadavg()})`,
          );
          for (const t of r.tasks)
            console.log(
              `  at ${t.start.toFixed(0)} ms, ${t.ms.toFixed(0)} ms CPU (${t.wall.toFixed(0)} ms wall) [${t.first}]\n      ${t.top.join('\n      ')}` +
                (t.js.n
                  ? `\n    JS samples ${t.js.n}; started by:\n      ${t.js.outer.join('\n      ')}\n    self:\n      ${t.js.self.join('\n      ')}\n    in own modules:\n      ${t.js.own.join('\n      ')}`
                  : ''),
            );
        }
    console.log('\nroute build: blocking after FCP per run (ms)');
    for (const route of ROUTES)
      for (const [name] of targets)
        console.log(
          `  ${route} ${name}: ${summary
            .filter((x) => x.route === route && x.name === name)
            .map((x) => x.tbt.toFixed(0))
            .join(' ')}`,
        );
  } finally {
    await browser.close();
    await server.close();
    await baseline?.close();
  }
}

main().catch((error) => {
  console.error(`bench/long-tasks: ${error instanceof Error ? error.stack : error}`);
  process.exitCode = 0;
});
