/**
 * `npm run bench:first-frame`: how soon a video shows its first frame (targets: ≤ 100 ms when preloaded,
 * ≤ 400 ms cold, on loopback), and how soon the first swipe and the first like are answered (target: p50 ≤ 100 ms,
 * like the swipes and likes after them). A benchmark: it prints figures and ratios, never fails.
 *
 * - swipe (preloaded): on the feed, from the ↓ key press to the next video's first frame (requestVideoFrameCallback),
 *   over at least 20 swipes in one visit, each after the next video has preloaded (what the feed does while the
 *   current one plays);
 * - cold: from navigation start to the first frame of a fresh browser context (no cache), for / and /video/{id};
 * - first swipe: a fresh context on /, the first ↓ key press (keydown) to the next video's first frame; then, in the
 *   same visit, the later (second) swipe the same way. Each press comes once the next video has preloaded and at least
 *   REACTION_MS (default 1000) after the first frame: a viewer sees the video before reaching for the next one;
 * - first like: a logged-in fresh context on / and on /video/{id}, from the pointer reaching ♥ (pointerover or
 *   pointerdown, whichever comes first) to the frame after the button turns to 已赞 (aria-pressed="true": the
 *   MutationObserver, then requestAnimationFrame); then the later click, which takes the like back, the same way.
 *   The first click also comes REACTION_MS after the first frame at the soonest.
 *   Each of these visits also notes whether the island had hydrated by the first input, the longest main-thread task
 *   between the first frame and that input (longtask entries, ≥ 50 ms; 0 when none), and the layout shift of the visit.
 *
 * - member marks shown: a logged-in fresh context on a video page the member liked, from the first paint to the frame
 *   in which ♥ shows 已赞 (aria-pressed="true") and the header shows the member's avatar: a page every viewer shares
 *   gets them from the marks call after first paint (target p50 ≤ 150 ms); a page rendered for the member has them
 *   at first paint (0). The cold rows are measured for a member too (a saved login and the session cookie).
 *
 * BENCH_BASELINE=<another built checkout> runs its server beside this one and interleaves every cold visit with it
 * (one visit to each in turn), adding its p50 and p95 ("before") and this checkout's ratio to it. COLD_RUNS (default 20),
 * FIRST_RUNS (fresh visits per first-input row, default 10) and SWIPES (default 24) set the counts.
 *
 * It starts the built server the way bench/first-load.mjs does (a temporary DATA_DIR, the embedded database, a free
 * port) and drives headless Chromium.
 */
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { ensureBuild, startServer } from './lib.mjs';

const SWIPES = Number(process.env.SWIPES ?? 24);
const COLD_RUNS = Number(process.env.COLD_RUNS ?? 20);
const FIRST_RUNS = Number(process.env.FIRST_RUNS ?? 10);
const REACTION_MS = Number(process.env.REACTION_MS ?? 1000);
const BASELINE = process.env.BENCH_BASELINE;
const TARGET_PRELOADED_P50 = 100;
const TARGET_COLD_P95 = 400;
const TARGET_FIRST_P50 = 100;
const TARGET_MARKS_P50 = 150;
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const CONTEXT = { locale: 'zh-CN', viewport: { width: 1440, height: 900 } };
/** The like button's label and its list's (src/i18n/zh-CN.ts: video.likes, video.actions). */
const LIKE = '点赞';
const ACTIONS = '视频操作';

const sleep = (n) => new Promise((resolve) => setTimeout(resolve, n));

/** The q-quantile (0..1) of `xs`, nearest rank. */
function quantile(xs, q) {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] : undefined;
}

const ms = (x) => (x === undefined || !Number.isFinite(x) ? '-' : `${x.toFixed(1)}`);

// Runs in the page before its scripts: the first <video> to appear reports its first presented frame, in ms since
// navigation start (the clock requestVideoFrameCallback's `now` uses), through a binding. A binding, not polling with
// page.waitForFunction: that makes Playwright evaluate its ~330 KB injected script on the page's main thread while
// the page is still loading (35 ms and more in a trace), which delayed the very frame being measured.
function hookFirstFrame() {
  const observer = new MutationObserver(() => {
    const v = document.querySelector('[data-active="true"] video, [data-player] video');
    if (!v || typeof v.requestVideoFrameCallback !== 'function') return;
    observer.disconnect();
    v.requestVideoFrameCallback((now) => {
      window.__firstFrame = now;
      window.__reportFirstFrame(now);
    });
  });
  observer.observe(document, { childList: true, subtree: true });
}

// Runs in the page before its scripts: the longest main-thread task after the first frame, and the layout shift.
function watchMainThread() {
  const seen = { longest: 0, shift: 0 };
  window.__seen = seen;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        if (window.__firstFrame !== undefined && e.startTime + e.duration > window.__firstFrame)
          seen.longest = Math.max(seen.longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) seen.shift += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  } catch {
    // An engine without these entry types: the columns stay 0.
  }
}

/** `promise`, or undefined after `timeout` ms. */
async function within(promise, timeout) {
  let timer;
  const out = await Promise.race([
    promise,
    new Promise((resolve) => (timer = setTimeout(resolve, timeout, undefined))),
  ]);
  clearTimeout(timer);
  return out;
}

/**
 * Until `fn(arg)` is truthy in the page (false after `timeout`). Polls with page.evaluate rather than
 * page.waitForFunction, which would evaluate Playwright's large injected script on the main thread of a page being
 * measured.
 */
async function until(page, fn, arg, timeout = 8000) {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    if (await page.evaluate(fn, arg).catch(() => false)) return true;
    await sleep(40);
  }
  return false;
}

/**
 * A fresh context (logged in as `session`, if given) at `url`; resolves once the first frame has shown (`frame`: ms
 * since navigation start, undefined if none within 15 s). `watch`: note long tasks and layout shifts (watchMainThread).
 */
async function visit(browser, url, session, watch = true) {
  const context = await browser.newContext(CONTEXT);
  if (session) {
    await context.addCookies([{ name: 'sy_session', value: session.token, url }]);
    await context.addInitScript(
      ([token, user]) => localStorage.setItem('sy.user', JSON.stringify({ token, userInfo: user })),
      [session.token, session.user],
    );
  }
  const page = await context.newPage();
  let report;
  const reported = new Promise((resolve) => (report = resolve));
  await page.exposeFunction('__reportFirstFrame', (now) => report(now));
  await page.addInitScript(hookFirstFrame);
  if (watch) await page.addInitScript(watchMainThread);
  await page.goto(url, { waitUntil: 'commit' });
  const frame = await within(reported, 15_000);
  return { context, page, frame };
}

/** Navigation → first frame in a fresh context (logged in as `session`, if given). */
async function cold(browser, url, session) {
  const { context, frame } = await visit(browser, url, session, false);
  await context.close();
  return frame;
}

// Runs in the page before its scripts: the first paint, and the first frame in which ♥ (the video page's) is pressed
// and the header shows the member's avatar, both in ms since navigation start.
function watchMarks([actions, like]) {
  const state = { paint: undefined, marks: undefined };
  window.__marks = state;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-paint') state.paint ??= entry.startTime;
  }).observe({ type: 'paint', buffered: true });
  const shown = () => {
    const button = [...(document.querySelector(`ul[aria-label="${actions}"]`)?.querySelectorAll('button') ?? [])].find(
      (b) => b.querySelector('.sr-only')?.textContent === like,
    );
    const avatar = [...document.querySelectorAll('header button[aria-label$="的账号菜单"] img')].find(
      (img) => img.getAttribute('src') && img.offsetParent !== null,
    );
    return button?.getAttribute('aria-pressed') === 'true' && !!avatar;
  };
  const observer = new MutationObserver(() => {
    if (state.marks !== undefined || !shown()) return;
    observer.disconnect();
    requestAnimationFrame(() => (state.marks = performance.now()));
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
}

/** A fresh logged-in visit to `url`, whose video the member liked: first paint → marks shown (ms, 0 when at first paint). */
async function marksShown(browser, url, session) {
  const context = await browser.newContext(CONTEXT);
  await context.addCookies([{ name: 'sy_session', value: session.token, url }]);
  await context.addInitScript(
    ([token, user]) => localStorage.setItem('sy.user', JSON.stringify({ token, userInfo: user })),
    [session.token, session.user],
  );
  const page = await context.newPage();
  await page.addInitScript(watchMarks, [ACTIONS, LIKE]);
  try {
    await page.goto(url, { waitUntil: 'commit' });
    const done = await until(
      page,
      () => window.__marks.marks !== undefined && window.__marks.paint !== undefined,
      undefined,
      10_000,
    );
    if (!done) return undefined;
    const { paint, marks } = await page.evaluate(() => window.__marks);
    return Math.max(0, marks - paint);
  } finally {
    await context.close();
  }
}

/** Waits until REACTION_MS after the first frame (`frame`). */
async function reachFor(page, frame) {
  const now = await page.evaluate(() => performance.now());
  if (now < frame + REACTION_MS) await sleep(frame + REACTION_MS - now);
}

const seen = (page) => page.evaluate(() => ({ ...window.__seen }));

/** Whether React has hydrated the node `selector` finds (React marks the nodes it owns). */
const hydrated = (page, selector) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    return !!el && Object.keys(el).some((k) => k.startsWith('__reactProps$'));
  }, selector);

/** Whether the video of slide `i` can play on (HAVE_FUTURE_DATA). */
const preloaded = (page, i) =>
  until(page, (n) => (document.querySelector(`article[data-index="${n}"] video`)?.readyState ?? 0) >= 3, i);

/** ↓ → first frame of the video of slide `index`; null if there is no such slide or no frame within 10 s. */
async function swipe(page, index) {
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
  if (!(await until(page, () => window.__swipe.frame !== undefined, undefined, 10_000))) return null;
  return { ms: await page.evaluate(() => window.__swipe.frame - window.__swipe.t0), readyState: armed };
}

/** Many swipes in one visit, each after the next video has preloaded. */
async function swipes(browser, base, count) {
  const context = await browser.newContext(CONTEXT);
  const page = await context.newPage();
  await page.goto(`${base}/`, { waitUntil: 'load' });
  const times = [];
  let notPreloaded = 0;
  await preloaded(page, 1);
  await swipe(page, 1);
  for (let i = 2; times.length < count && i < count + 40; i++) {
    await sleep(700);
    await preloaded(page, i);
    const r = await swipe(page, i);
    if (!r) {
      // The next page of the feed has not arrived yet.
      await sleep(500);
      continue;
    }
    if (r.readyState < 3) notPreloaded += 1;
    times.push(r.ms);
  }
  await context.close();
  return { times, notPreloaded };
}

/** A fresh visit to /: the first swipe and the one after it. */
async function firstSwipe(browser, base) {
  const { context, page, frame } = await visit(browser, `${base}/`);
  try {
    if (frame === undefined) return null;
    await reachFor(page, frame);
    await preloaded(page, 1);
    const before = {
      ...(await seen(page)),
      hydrated: await hydrated(page, 'section[aria-roledescription="carousel"]'),
    };
    const first = await swipe(page, 1);
    await sleep(700);
    await preloaded(page, 2);
    const later = await swipe(page, 2);
    return { first: first?.ms, later: later?.ms, ...before, shift: (await seen(page)).shift };
  } finally {
    await context.close();
  }
}

/**
 * Clicks ♥ in the list `list` and measures, in the page, from the pointer reaching it to the frame after its
 * aria-pressed turns `to`; waits for the server's answer too, so the next visit starts from a settled like. 'already'
 * (and no click) when it shows `to` already.
 */
async function clickLike(page, list, to) {
  const box = await page.evaluate(
    ([sel, label, want]) => {
      const button = [...(document.querySelector(sel)?.querySelectorAll('button[aria-pressed]') ?? [])].find(
        (b) => b.querySelector('.sr-only')?.textContent === label,
      );
      if (!button) return null;
      const state = { t0: undefined, t1: undefined };
      window.__like = state;
      const start = (e) => {
        if (state.t0 === undefined && button.contains(e.target)) state.t0 = e.timeStamp;
      };
      for (const type of ['pointerover', 'pointerdown']) addEventListener(type, start, { capture: true });
      new MutationObserver((_, observer) => {
        if (button.getAttribute('aria-pressed') !== want) return;
        observer.disconnect();
        requestAnimationFrame(() => (state.t1 = performance.now()));
      }).observe(button, { attributes: true, attributeFilter: ['aria-pressed'] });
      const r = button.getBoundingClientRect();
      return { x: r.x + r.width / 2, y: r.y + r.height / 2, pressed: button.getAttribute('aria-pressed') };
    },
    [list, LIKE, String(to)],
  );
  if (!box) return null;
  if (box.pressed === String(to)) return 'already';
  const answered = page
    .waitForResponse((r) => r.url().includes('/commit/item/digg/'), { timeout: 10_000 })
    .catch(() => null);
  await page.mouse.click(box.x, box.y);
  const done = await until(page, () => window.__like.t1 !== undefined, undefined, 10_000);
  const out = done ? await page.evaluate(() => window.__like.t1 - window.__like.t0) : null;
  await answered;
  return out;
}

/** A fresh logged-in visit to `url`: the first click on ♥ (a like) and the one after it (taking it back). */
async function firstLike(browser, url, list, session) {
  const { context, page, frame } = await visit(browser, url, session);
  try {
    if (frame === undefined) return null;
    await reachFor(page, frame);
    const before = { ...(await seen(page)), hydrated: await hydrated(page, `${list} button[aria-pressed]`) };
    const first = await clickLike(page, list, true);
    // Liked before this visit (the seed's likes): taken back, for the next visit to measure.
    if (first === 'already') return (await clickLike(page, list, false), null);
    await sleep(300);
    const later = await clickLike(page, list, false);
    return { first: first ?? undefined, later: later ?? undefined, ...before, shift: (await seen(page)).shift };
  } finally {
    await context.close();
  }
}

/** Logs the seeded demo account in (one password login per server: the login limit is per IP). */
async function demoSession(base) {
  const demo = await (await fetch(`${base}/api/passport/demo`)).json();
  if (!demo.email) throw new Error('the server has no demo account to like with');
  const login = await fetch(`${base}/api/passport/login/password`, {
    method: 'POST',
    body: new URLSearchParams({ email: demo.email, password: demo.password }),
  });
  if (!login.ok) throw new Error(`demo login: ${login.status}`);
  return login.json();
}

/** Everything one server is measured on, gathered visit by visit. */
function collector() {
  return {
    coldFeed: [],
    coldVideo: [],
    coldMemberFeed: [],
    coldMemberVideo: [],
    marks: [],
    first: { swipe: [], likeFeed: [], likeVideo: [] },
    later: { swipe: [], likeFeed: [], likeVideo: [] },
    visits: { swipe: [], likeFeed: [], likeVideo: [] },
  };
}

async function prepare(base) {
  const feed = await (await fetch(`${base}/api/aweme/v1/web/tab/feed/?count=2`)).json();
  const session = await demoSession(base);
  // Another video than the one the like rows toggle: the member likes it once, for the marks row.
  const marked = feed.aweme_list[1].aweme_id;
  const liked = await fetch(`${base}/api/aweme/v1/web/commit/item/digg/`, {
    method: 'POST',
    headers: { token: session.token },
    body: new URLSearchParams({ aweme_id: marked, type: '1' }),
  });
  if (!liked.ok) throw new Error(`like for the marks row: ${liked.status}`);
  return {
    base,
    videoRoute: `/video/${feed.aweme_list[0].aweme_id}`,
    marksRoute: `/video/${marked}`,
    session,
    out: collector(),
  };
}

const push = (xs, x) => x !== undefined && x !== null && xs.push(x);

/** One visit of each kind to `t`'s server, added to its figures. */
async function round(browser, t, i) {
  if (i < COLD_RUNS) {
    push(t.out.coldFeed, await cold(browser, `${t.base}/`));
    push(t.out.coldVideo, await cold(browser, `${t.base}${t.videoRoute}`));
    push(t.out.coldMemberFeed, await cold(browser, `${t.base}/`, t.session));
    push(t.out.coldMemberVideo, await cold(browser, `${t.base}${t.videoRoute}`, t.session));
    push(t.out.marks, await marksShown(browser, `${t.base}${t.marksRoute}`, t.session));
  }
  if (i >= FIRST_RUNS) return;
  const kinds = [
    ['swipe', () => firstSwipe(browser, t.base)],
    ['likeFeed', () => firstLike(browser, `${t.base}/`, `[data-active="true"] ul[aria-label="${ACTIONS}"]`, t.session)],
    ['likeVideo', () => firstLike(browser, `${t.base}${t.videoRoute}`, `ul[aria-label="${ACTIONS}"]`, t.session)],
  ];
  for (const [kind, run] of kinds) {
    const r = await run();
    if (!r) continue;
    push(t.out.first[kind], r.first);
    push(t.out.later[kind], r.later);
    t.out.visits[kind].push(r);
  }
}

function table(rows, withBefore) {
  const header = [
    'measure',
    'n',
    'p50 ms',
    'p95 ms',
    'min ms',
    'max ms',
    'target',
    'met',
    ...(withBefore ? ['before p50', 'before p95', 'p50 vs before'] : []),
  ];
  console.log(`\n| ${header.join(' | ')} |\n|${header.map(() => ' --- ').join('|')}|`);
  for (const [name, xs, target, met, was] of rows) {
    const cells = [
      name,
      xs.length,
      ms(quantile(xs, 0.5)),
      ms(quantile(xs, 0.95)),
      ms(Math.min(...xs)),
      ms(Math.max(...xs)),
      target,
      target === '' ? '' : met ? 'yes' : 'NO',
    ];
    if (withBefore)
      cells.push(
        ...(was
          ? [ms(quantile(was, 0.5)), ms(quantile(was, 0.95)), `${(quantile(xs, 0.5) / quantile(was, 0.5)).toFixed(2)}x`]
          : ['', '', '']),
      );
    console.log(`| ${cells.join(' | ')} |`);
  }
}

/** Per kind of first visit: in how many the island had hydrated by the first input, the longest task, the shift. */
function visitsNote(label, visits) {
  if (!visits.length) return `${label}: no visits`;
  const longest = visits.map((v) => v.longest);
  const shift = Math.max(...visits.map((v) => v.shift));
  return `${label}: hydrated by the first input in ${visits.filter((v) => v.hydrated).length} of ${visits.length}; longest task after the first frame p50 ${ms(quantile(longest, 0.5))} ms, max ${ms(Math.max(...longest))} ms; largest layout shift ${shift.toFixed(4)}`;
}

async function main() {
  ensureBuild();
  const server = await startServer();
  const baseline = BASELINE
    ? await startServer({}, path.resolve(BASELINE)).catch((error) => (server.close(), Promise.reject(error)))
    : null;
  let browser;
  try {
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')} (${os.cpus().length} CPUs)`,
    );
    console.log(
      `server ready in ${server.seconds.toFixed(1)} s on ${server.base}${baseline ? `; baseline (${BASELINE}) on ${baseline.base}` : ''}`,
    );
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: ARGS,
    });

    const targets = [await prepare(server.base), ...(baseline ? [await prepare(baseline.base)] : [])];
    // One throwaway load each, so the server's first-request costs (JIT, pool) do not count as "cold".
    for (const t of targets) await cold(browser, `${t.base}/`);

    const preloadedSwipes = [];
    for (const t of targets) preloadedSwipes.push(await swipes(browser, t.base, SWIPES));
    // Interleaved: each round visits each server once, in turn, first one then the other, so a shared machine's
    // changing load falls on both alike.
    for (let i = 0; i < Math.max(COLD_RUNS, FIRST_RUNS); i++) {
      for (const t of i % 2 ? [...targets].reverse() : targets) await round(browser, t, i);
    }

    const [now, was] = targets.map((t) => t.out);
    const [swipe, swipeWas] = preloadedSwipes;
    const { videoRoute } = targets[0];
    const firstRow = (name, xs, before) => [
      name,
      xs,
      `p50 ≤ ${TARGET_FIRST_P50} ms`,
      quantile(xs, 0.5) <= TARGET_FIRST_P50,
      before,
    ];
    const laterRow = (name, xs, before) => [name, xs, '', true, before];
    table(
      [
        [
          'swipe ↓ → first frame (preloaded)',
          swipe.times,
          `p50 ≤ ${TARGET_PRELOADED_P50} ms`,
          quantile(swipe.times, 0.5) <= TARGET_PRELOADED_P50,
          swipeWas?.times,
        ],
        firstRow("first swipe ↓ → next video's first frame: /", now.first.swipe, was?.first.swipe),
        laterRow("later swipe ↓ → next video's first frame: /", now.later.swipe, was?.later.swipe),
        firstRow('first like click → UI updated: /', now.first.likeFeed, was?.first.likeFeed),
        laterRow('later like click → UI updated: /', now.later.likeFeed, was?.later.likeFeed),
        firstRow(`first like click → UI updated: ${videoRoute}`, now.first.likeVideo, was?.first.likeVideo),
        laterRow(`later like click → UI updated: ${videoRoute}`, now.later.likeVideo, was?.later.likeVideo),
        [
          'navigation → first frame, cold: /',
          now.coldFeed,
          `p95 ≤ ${TARGET_COLD_P95} ms`,
          quantile(now.coldFeed, 0.95) <= TARGET_COLD_P95,
          was?.coldFeed,
        ],
        [
          `navigation → first frame, cold: ${videoRoute}`,
          now.coldVideo,
          `p95 ≤ ${TARGET_COLD_P95} ms`,
          quantile(now.coldVideo, 0.95) <= TARGET_COLD_P95,
          was?.coldVideo,
        ],
        [
          'navigation → first frame, cold, member: /',
          now.coldMemberFeed,
          `p95 ≤ ${TARGET_COLD_P95} ms`,
          quantile(now.coldMemberFeed, 0.95) <= TARGET_COLD_P95,
          was?.coldMemberFeed,
        ],
        [
          `navigation → first frame, cold, member: ${videoRoute}`,
          now.coldMemberVideo,
          `p95 ≤ ${TARGET_COLD_P95} ms`,
          quantile(now.coldMemberVideo, 0.95) <= TARGET_COLD_P95,
          was?.coldMemberVideo,
        ],
        [
          'member marks shown (first paint → ♥ pressed and avatar)',
          now.marks,
          `p50 ≤ ${TARGET_MARKS_P50} ms`,
          quantile(now.marks, 0.5) <= TARGET_MARKS_P50,
          was?.marks,
        ],
      ],
      !!was,
    );
    console.log(
      `\npreloaded p50 ${ms(quantile(swipe.times, 0.5))} ms = ${(quantile(swipe.times, 0.5) / TARGET_PRELOADED_P50).toFixed(2)}x its target;` +
        ` cold p95 on / ${ms(quantile(now.coldFeed, 0.95))} ms = ${(quantile(now.coldFeed, 0.95) / TARGET_COLD_P95).toFixed(2)}x its target;` +
        ` first swipe p50 ${ms(quantile(now.first.swipe, 0.5))} ms = ${(quantile(now.first.swipe, 0.5) / TARGET_FIRST_P50).toFixed(2)}x its target`,
    );
    console.log(
      `swipes whose next video had not reached HAVE_FUTURE_DATA: ${swipe.notPreloaded} of ${swipe.times.length}; first inputs at least ${REACTION_MS} ms after the first frame`,
    );
    for (const [label, t] of [
      ['this checkout', now],
      ['before', was],
    ]) {
      if (!t) continue;
      console.log(`${label}:`);
      for (const [kind, name] of [
        ['swipe', 'first swipe on /'],
        ['likeFeed', 'first like on /'],
        ['likeVideo', `first like on ${videoRoute}`],
      ])
        console.log(`  ${visitsNote(name, t.visits[kind])}`);
    }
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(', ')} at the end`,
    );
  } finally {
    await browser?.close();
    await server.close();
    await baseline?.close();
  }
}

main().catch((error) => {
  console.error(`bench/first-frame: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 0;
});
