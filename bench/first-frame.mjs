/**
 * `npm run bench:first-frame`: how soon a video shows its first frame (targets: ≤ 100 ms when preloaded,
 * ≤ 400 ms cold, on loopback). A benchmark: it prints figures and ratios, never fails.
 *
 * - swipe: on the feed, from the ↓ key press to the next video's first frame (requestVideoFrameCallback), over at least
 *   20 swipes, each after the next video has preloaded (what the feed does while the current one plays);
 * - cold: from navigation start to the first frame of a fresh browser context (no cache), for / and /video/{id}.
 *
 * It starts the built server the way bench/first-load.mjs does (a temporary DATA_DIR, the embedded database, a free
 * port) and drives headless Chromium.
 */
import { chromium } from '@playwright/test';
import { ensureBuild, startServer } from './lib.mjs';

const SWIPES = Number(process.env.SWIPES ?? 24);
const COLD_RUNS = Number(process.env.COLD_RUNS ?? 20);
const TARGET_PRELOADED_P50 = 100;
const TARGET_COLD_P95 = 400;
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** The q-quantile (0..1) of `xs`, nearest rank. */
function quantile(xs, q) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

const ms = (x) => (x === undefined ? '-' : `${x.toFixed(1)}`);

// Runs in the page before its scripts: the first <video> to appear reports its first presented frame, in ms since
// navigation start (the clock requestVideoFrameCallback's `now` uses), through a binding. A binding, not polling with
// page.waitForFunction: that makes Playwright evaluate its ~330 KB injected script on the page's main thread while
// the page is still loading (35 ms and more in a trace), which delayed the very frame being measured.
function hookFirstFrame() {
  const observer = new MutationObserver(() => {
    const v = document.querySelector('[data-active="true"] video, [data-player] video');
    if (!v || typeof v.requestVideoFrameCallback !== 'function') return;
    observer.disconnect();
    v.requestVideoFrameCallback((now) => window.__reportFirstFrame(now));
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** Navigation → first frame in a fresh context, `runs` times. */
async function cold(browser, url, runs) {
  const out = [];
  for (let i = 0; i < runs; i++) {
    const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    let report;
    const reported = new Promise((resolve) => (report = resolve));
    await page.exposeFunction('__reportFirstFrame', (now) => report(now));
    await page.addInitScript(hookFirstFrame);
    await page.goto(url, { waitUntil: 'commit' });
    let timer;
    const frame = await Promise.race([reported, new Promise((resolve) => (timer = setTimeout(resolve, 15_000, undefined)))]);
    clearTimeout(timer);
    if (frame !== undefined) out.push(frame);
    await context.close();
  }
  return out;
}

/** ↓ → first frame of the next video, after it has preloaded; also the first swipe, which wakes the island. */
async function swipes(browser, base, count) {
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/`, { waitUntil: 'load' });
  const measure = async (index) => {
    // Armed before the key: the press time comes from the event, the frame from the next video's callback.
    const armed = await page.evaluate((i) => {
      const v = document.querySelector(`article[data-index="${i}"] video`);
      if (!v) return null;
      const state = { ready: v.readyState, t0: undefined, frame: undefined };
      window.__swipe = state;
      addEventListener('keydown', (e) => (state.t0 = e.timeStamp), { capture: true, once: true });
      const arm = () =>
        v.requestVideoFrameCallback((now) => {
          if (state.t0 === undefined) return arm();
          state.frame = now;
        });
      arm();
      return state.ready;
    }, index);
    if (armed === null) return null;
    await page.keyboard.press('ArrowDown');
    const done = await page
      .waitForFunction(() => window.__swipe.frame !== undefined && window.__swipe.frame - window.__swipe.t0, null, { timeout: 10_000 })
      .then((h) => h.jsonValue(), () => undefined);
    return done === undefined ? null : { ms: done, readyState: armed };
  };
  const waitPreloaded = (i) =>
    page
      .waitForFunction((n) => (document.querySelector(`article[data-index="${n}"] video`)?.readyState ?? 0) >= 3, i, { timeout: 8000 })
      .catch(() => {});

  // The first swipe happens before the island has loaded: the inline script wakes it and replays the key.
  await waitPreloaded(1);
  const first = await measure(1);
  const times = [];
  let notPreloaded = 0;
  for (let i = 2; times.length < count && i < count + 40; i++) {
    await page.waitForTimeout(700);
    await waitPreloaded(i);
    const r = await measure(i);
    if (!r) {
      // The next page of the feed has not arrived yet.
      await page.waitForTimeout(500);
      continue;
    }
    if (r.readyState < 3) notPreloaded += 1;
    times.push(r.ms);
  }
  await context.close();
  return { first: first?.ms, times, notPreloaded };
}

async function main() {
  ensureBuild();
  const server = await startServer();
  const base = server.base;
  let browser;
  try {
    console.log(`server ready in ${server.seconds.toFixed(1)} s on ${base}`);
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', headless: true, args: ARGS });

    const feed = await (await fetch(`${base}/api/aweme/v1/web/tab/feed/?count=1`)).json();
    const videoRoute = `/video/${feed.aweme_list[0].aweme_id}`;
    // One throwaway load so the server's first-request costs (JIT, pool) do not count as "cold".
    await cold(browser, `${base}/`, 1);

    const swipe = await swipes(browser, base, SWIPES);
    const coldFeed = await cold(browser, `${base}/`, COLD_RUNS);
    const coldVideo = await cold(browser, `${base}${videoRoute}`, COLD_RUNS);

    const rows = [
      ['swipe ↓ → first frame (preloaded)', swipe.times, `p50 ≤ ${TARGET_PRELOADED_P50} ms`, quantile(swipe.times, 0.5) <= TARGET_PRELOADED_P50],
      ['navigation → first frame, cold: /', coldFeed, `p95 ≤ ${TARGET_COLD_P95} ms`, quantile(coldFeed, 0.95) <= TARGET_COLD_P95],
      [`navigation → first frame, cold: ${videoRoute}`, coldVideo, `p95 ≤ ${TARGET_COLD_P95} ms`, quantile(coldVideo, 0.95) <= TARGET_COLD_P95],
    ];
    const header = ['measure', 'n', 'p50 ms', 'p95 ms', 'min ms', 'max ms', 'target', 'met'];
    console.log(`\n| ${header.join(' | ')} |\n|${header.map(() => ' --- ').join('|')}|`);
    for (const [name, xs, target, met] of rows) {
      console.log(`| ${[name, xs.length, ms(quantile(xs, 0.5)), ms(quantile(xs, 0.95)), ms(Math.min(...xs)), ms(Math.max(...xs)), target, met ? 'yes' : 'NO'].join(' | ')} |`);
    }
    console.log(
      `\npreloaded p50 ${ms(quantile(swipe.times, 0.5))} ms = ${(quantile(swipe.times, 0.5) / TARGET_PRELOADED_P50).toFixed(2)}x its target;` +
        ` cold p95 on / ${ms(quantile(coldFeed, 0.95))} ms = ${(quantile(coldFeed, 0.95) / TARGET_COLD_P95).toFixed(2)}x its target`,
    );
    console.log(
      `first swipe, which also loads and hydrates the feed island: ${ms(swipe.first)} ms;` +
        ` swipes whose next video had not reached HAVE_FUTURE_DATA: ${swipe.notPreloaded} of ${swipe.times.length}`,
    );
  } finally {
    await browser?.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(`bench/first-frame: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 0;
});
