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
 * failed accessibility audit names.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import { ensureBuild, ROOT, startServer } from './lib.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const PRESETS = (process.env.PRESETS ?? 'mobile,desktop').split(',');
const ONLY = process.env.ROUTES?.split(',');
/** Whether ROUTES asks for `route` (an entry ending in * takes every route it begins, e.g. /video/*). */
const asked = (route) =>
  !ONLY || ONLY.some((o) => (o.endsWith('*') ? route.startsWith(o.slice(0, -1)) : o === decodeURIComponent(route)));
const DETAILS = Boolean(process.env.DETAILS);
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

/** Logs the browser on `port` in as the demo account: the session cookie, and the token where the login dialog keeps it. */
async function logIn(base, port) {
  const demo = await (await fetch(`${base}/api/passport/demo`)).json();
  const login = await fetch(`${base}/api/passport/login/password`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ email: demo.email, password: demo.password }),
  });
  if (!login.ok) throw new Error(`demo login answered ${login.status}`);
  const session = await login.json();
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
  const flags = { port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, disableStorageReset: loggedIn };
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
  if (DETAILS) {
    for (const id of failed) {
      const nodes = (lhr.audits[id].details?.items ?? []).map((item) =>
        `${item.node?.selector ?? ''} ${item.node?.explanation?.split('\n')[1] ?? ''}`.trim(),
      );
      console.log(`${preset} ${url} ${id}:\n  ${nodes.slice(0, 12).join('\n  ')}`);
    }
  }
  return {
    scores: CATEGORIES.map(score),
    lcp: value('largest-contentful-paint'),
    cls: value('cumulative-layout-shift'),
    tbt: value('total-blocking-time'),
    failed,
    error: lhr.runtimeError?.code,
  };
}

const fmt = (x, digits = 0) => (x === undefined ? '-' : x.toFixed(digits));

async function main() {
  ensureBuild();
  const server = await startServer();
  const base = server.base;
  let chrome;
  try {
    console.log(`server ready in ${server.seconds.toFixed(1)} s on ${base}`);
    chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      chromeFlags: CHROME_FLAGS,
    });
    const routes = (await pageRoutes(base)).filter(asked);
    // A member's visit to a shared page (the feed, a video page) is measured too: its marks come after first paint.
    const sharedLoggedIn = routes.filter((r) => r.startsWith('/video/')).slice(0, 1);
    const personal = [...PERSONAL, ...sharedLoggedIn].filter(asked);
    // Logged-out runs first: each starts from cleared storage; logging in then keeps the session for the rest.
    const runs = [
      ...routes.map((route) => ({ route, loggedIn: false })),
      ...personal.map((route) => ({ route, loggedIn: true })),
    ];
    const header = [
      'preset',
      'route',
      'viewer',
      'perf',
      'a11y',
      'best-pr.',
      'SEO',
      'LCP ms',
      'CLS',
      'TBT ms',
      'a11y audits failed',
    ];
    const rows = [];
    for (const preset of PRESETS) {
      let loggedIn = false;
      for (const run of runs) {
        if (run.loggedIn && !loggedIn) {
          await logIn(base, chrome.port);
          loggedIn = true;
        }
        const r = await audit(`${base}${run.route}`, chrome.port, preset, run.loggedIn).catch((error) => ({
          error: error.message,
        }));
        const row = [preset, decodeURIComponent(run.route), run.loggedIn ? 'in' : 'out'];
        if (!r || !r.scores) row.push('-', '-', '-', '-', '-', '-', '-', `error: ${r?.error ?? 'no result'}`);
        else
          row.push(
            ...r.scores,
            fmt(r.lcp),
            fmt(r.cls, 3),
            fmt(r.tbt),
            [r.error, ...r.failed].filter(Boolean).join(' ') || '',
          );
        rows.push(row);
        process.stderr.write(`${row.slice(0, 8).join(' ')}\n`);
      }
      // The next preset starts logged out again.
      if (loggedIn) {
        await chrome.kill();
        chrome = await chromeLauncher.launch({
          chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          chromeFlags: CHROME_FLAGS,
        });
      }
    }
    console.log(`\n| ${header.join(' | ')} |\n|${header.map(() => ' --- ').join('|')}|`);
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
    const a11y = rows.map((r) => Number(r[4])).filter((x) => !Number.isNaN(x));
    console.log(
      `\naccessibility: ${a11y.filter((x) => x === 100).length} of ${a11y.length} runs at 100, lowest ${Math.min(...a11y)}`,
    );
  } finally {
    await chrome?.kill();
    await server.close();
  }
}

main().catch((error) => {
  console.error(`bench/lighthouse: ${error instanceof Error ? error.stack : error}`);
  process.exitCode = 0;
});
