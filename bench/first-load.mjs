/**
 * `npm run bench:first-load`: the HTML of each route (raw, and brotli as the server sends it) and the JavaScript and
 * CSS a first visit loads, raw and gzip, against the 80 KB gzip JavaScript budget and the HTML budgets (60 KB raw a
 * page, 30 KB for the logged-out /user/self). A benchmark: it prints, never fails.
 *
 * A first visit's load is what the page asks for before its load event: the JavaScript an island or the player asks
 * for later, once the browser is idle (src/components/inline/player-wake.js), does not count against the budget; it is
 * shown apart ("after load") for 1.5 s after the event. A file counts as before load when the browser's resource
 * timing entry for it started before the navigation's loadEventStart.
 *
 * It starts the built server (like the Playwright webServer: a temporary DATA_DIR, the embedded
 * database, a free port) and loads every route in a fresh headless Chromium context.
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { HTML_BUDGET, htmlBudget } from '../tests/e2e/html-budget.ts';
import { ensureBuild, startServer } from './lib.mjs';

const BUDGET = 80 * 1024;
const CHANNELS = ['300201', '300203', '300204', '300205', '300206', '300207', '300208', '300209'];

const kb = (n) => (n / 1024).toFixed(1);

/** GET `url` with `accept-encoding: <encoding>` and count the bytes on the wire (the server compresses above 1 KB). */
function transferBytes(url, encoding = 'gzip') {
  return new Promise((resolve) => {
    const req = http.get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () => resolve(bytes));
      res.on('error', () => resolve(0));
    });
    req.on('error', () => resolve(0));
  });
}

/** Inline <script> and <style> contents of an HTML document (JSON data blocks are not code). */
function inlineAssets(html) {
  const js = [];
  const css = [];
  for (const [, attrs, body] of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(attrs) || /type\s*=\s*["']?application\/(ld\+)?json/i.test(attrs) || !body.trim()) continue;
    js.push(body);
  }
  for (const [, body] of html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)) if (body.trim()) css.push(body);
  return { js: js.join('\n'), css: css.join('\n') };
}

const gzipCache = new Map();

/** Loads `route` in a fresh context and sums the JS and CSS it fetched, plus what the HTML inlines. */
async function measure(browser, base, route) {
  const context = await browser.newContext({ locale: 'zh-CN', viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  const assets = new Map();
  const pending = [];
  page.on('response', (response) => {
    const type = response.headers()['content-type'] ?? '';
    const kind = /javascript|ecmascript/.test(type) ? 'js' : /text\/css/.test(type) ? 'css' : null;
    if (!kind || !response.url().startsWith(base)) return;
    pending.push(
      response.body().then(
        (body) => assets.set(response.url(), { kind, raw: body.length }),
        () => {},
      ),
    );
  });
  const response = await page.goto(base + route, { waitUntil: 'load' });
  // What loads on idle or on visibility comes after load: waited for, to be shown apart.
  await page.waitForTimeout(1500);
  await Promise.all(pending);
  // Each file's request start against the load event, on the page's own clock.
  const timing = await page.evaluate(() => ({
    load: performance.getEntriesByType('navigation')[0]?.loadEventStart ?? Infinity,
    starts: performance.getEntriesByType('resource').map((e) => [e.name, e.startTime]),
  }));
  const started = new Map(timing.starts);
  const html = (await response?.text().catch(() => '')) ?? '';
  await context.close();

  const row = {
    route,
    status: response?.status() ?? 0,
    htmlRaw: Buffer.byteLength(html),
    htmlBr: await transferBytes(base + route, 'br'),
    files: 0,
    jsRaw: 0,
    jsGzip: 0,
    cssRaw: 0,
    cssGzip: 0,
    laterFiles: 0,
    laterJsGzip: 0,
  };
  for (const [url, asset] of assets) {
    if (!gzipCache.has(url)) gzipCache.set(url, await transferBytes(url));
    const gz = gzipCache.get(url) || asset.raw;
    // A file without a timing entry counts as first-load: the budget errs on the strict side.
    if (asset.kind === 'js' && (started.get(url) ?? -1) >= timing.load) {
      row.laterFiles += 1;
      row.laterJsGzip += gz;
    } else if (asset.kind === 'js') {
      row.files += 1;
      row.jsRaw += asset.raw;
      row.jsGzip += gz;
    } else {
      row.cssRaw += asset.raw;
      row.cssGzip += gz;
    }
  }
  const inline = inlineAssets(html);
  if (inline.js) {
    row.jsRaw += Buffer.byteLength(inline.js);
    row.jsGzip += gzipSync(inline.js).length;
  }
  if (inline.css) {
    row.cssRaw += Buffer.byteLength(inline.css);
    row.cssGzip += gzipSync(inline.css).length;
  }
  return row;
}

/** The first link on `url` to `<prefix><id>` (no query, not `self`: the sidebar links to /user/self). */
async function firstHref(browser, url, prefix) {
  const page = await browser.newPage();
  try {
    await page.goto(url, { waitUntil: 'domcontentloaded' });
    const hrefs = await page.$$eval(`a[href^="${prefix}"]`, (links) => links.map((a) => a.getAttribute('href') ?? ''));
    return (
      hrefs.find((href) => /^[^?#]+$/.test(href) && !href.endsWith('/self') && href.length > prefix.length) ?? null
    );
  } finally {
    await page.close();
  }
}

async function main() {
  ensureBuild();
  const server = await startServer();
  const base = server.base;
  let browser;
  try {
    console.log(`server ready in ${server.seconds.toFixed(1)} s on ${base}`);

    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });

    const video = (await firstHref(browser, `${base}/discover`, '/video/')) ?? '/video/1';
    const user = (await firstHref(browser, `${base}/discover`, '/user/')) ?? '/user/1';
    console.log(`video route ${video}, user route ${user} (first links on /discover)`);
    const routes = [
      '/',
      '/discover',
      video,
      ...CHANNELS.map((id) => `/channel/${id}`),
      '/hot',
      '/live',
      '/vs',
      '/follow',
      '/friend',
      '/user/self',
      user,
      `/search/${encodeURIComponent('美食')}`,
      '/no-such-page-404',
    ];

    const rows = [];
    for (const route of routes) rows.push(await measure(browser, base, route));

    const header = [
      'route',
      'status',
      'HTML raw KB',
      'HTML br KB',
      'JS files',
      'JS raw KB',
      'JS gzip KB',
      'CSS raw KB',
      'CSS gzip KB',
      'JS ≤ 80 KB gzip',
      'HTML in budget',
      'after load: JS files',
      'after load: JS gzip KB',
    ];
    const lines = rows.map((r) => [
      decodeURIComponent(r.route),
      String(r.status),
      kb(r.htmlRaw),
      kb(r.htmlBr),
      String(r.files),
      kb(r.jsRaw),
      kb(r.jsGzip),
      kb(r.cssRaw),
      kb(r.cssGzip),
      r.jsGzip <= BUDGET ? 'yes' : 'NO',
      r.htmlRaw <= htmlBudget(r.route, false) ? 'yes' : `NO (${kb(htmlBudget(r.route, false))})`,
      String(r.laterFiles),
      kb(r.laterJsGzip),
    ]);
    console.log(`\n| ${header.join(' | ')} |\n|${header.map(() => ' --- ').join('|')}|`);
    for (const line of lines) console.log(`| ${line.join(' | ')} |`);

    const worst = rows.reduce((a, b) => (b.jsGzip > a.jsGzip ? b : a));
    const ratio = worst.jsGzip / BUDGET;
    console.log(
      `\nmax JS gzip: ${kb(worst.jsGzip)} KB on ${decodeURIComponent(worst.route)} = ${ratio.toFixed(2)}x the 80 KB budget` +
        ` (${rows.filter((r) => r.jsGzip > BUDGET).length} of ${rows.length} routes over)`,
    );
    const heaviest = rows.reduce((a, b) => (b.htmlRaw > a.htmlRaw ? b : a));
    console.log(
      `max HTML: ${kb(heaviest.htmlRaw)} KB raw (${kb(heaviest.htmlBr)} KB br) on ${decodeURIComponent(heaviest.route)} = ${(heaviest.htmlRaw / HTML_BUDGET).toFixed(2)}x the 60 KB budget;` +
        ` /user/self logged out ${kb(rows.find((r) => r.route === '/user/self')?.htmlRaw ?? 0)} KB raw against ${kb(htmlBudget('/user/self', false))} KB`,
    );
  } finally {
    await browser?.close();
    await server.close();
  }
}

main().catch((error) => {
  console.error(`bench/first-load: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 0;
});
