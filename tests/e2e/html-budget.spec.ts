/** Every page's HTML within its budget (html-budget.ts), logged out and logged in as the demo account. */
import { htmlBudget } from './html-budget.ts';
import { pageRoutes } from './routes.ts';
import { expect, loginDemo, test } from './support.ts';

test('every page route stays within its HTML budget, logged out and logged in', async ({ playwright, baseURL }) => {
  const anonymous = await playwright.request.newContext({ baseURL });
  const member = await playwright.request.newContext({ baseURL });
  await loginDemo(member);
  const routes = await pageRoutes(anonymous);
  const sizes: string[] = [];
  const over: string[] = [];
  for (const [loggedIn, api] of [
    [false, anonymous],
    [true, member],
  ] as const) {
    for (const route of routes) {
      // A route that redirects (/search without a keyword) is measured where it leads.
      const response = await api.get(route);
      const html = await response.body();
      expect(response.headers()['content-type'] ?? '', `${route} is a page`).toContain('text/html');
      const line = `${loggedIn ? 'logged in' : 'logged out'} ${route}: ${html.length} bytes (budget ${htmlBudget(route, loggedIn)})`;
      sizes.push(line);
      if (html.length > htmlBudget(route, loggedIn)) over.push(line);
    }
  }
  await test.info().attach('html-bytes', { body: sizes.join('\n'), contentType: 'text/plain' });
  expect(over, 'pages over their HTML budget').toEqual([]);
  await anonymous.dispose();
  await member.dispose();
});

test('the video pages with the most comments and the longest titles stay within the budget too, logged in', async ({
  playwright,
  baseURL,
}) => {
  const member = await playwright.request.newContext({ baseURL });
  await loginDemo(member);
  const ids: number[] = [];
  for (const cursor of [0, 50]) {
    const feed = await (await member.post('/api/video/getVideosByCursor', { form: { cursor, size: 50 } })).json();
    ids.push(...feed.data.map((v: { id: number }) => v.id));
  }
  const details: { aweme_id: string; desc: string; statistics: { comment_count: number } }[] = await Promise.all(
    ids.map(
      async (id) => (await (await member.get(`/api/aweme/v1/web/aweme/detail/?aweme_id=${id}`)).json()).aweme_detail,
    ),
  );
  const byComments = [...details].sort((a, b) => b.statistics.comment_count - a.statistics.comment_count).slice(0, 5);
  const byTitle = [...details].sort((a, b) => Buffer.byteLength(b.desc) - Buffer.byteLength(a.desc)).slice(0, 5);
  expect(byComments[0]!.statistics.comment_count, 'the seed has videos with many comments').toBeGreaterThanOrEqual(20);
  const over: string[] = [];
  for (const { aweme_id: id } of [...byComments, ...byTitle]) {
    const html = await (await member.get(`/video/${id}`)).body();
    if (html.length > htmlBudget('/video/[id]', true)) over.push(`/video/${id}: ${html.length} bytes`);
  }
  expect(over, 'video pages over their HTML budget').toEqual([]);
  await member.dispose();
});

test('作品数据 over 30 days, five charts of 30 days each, stays within the budget, logged in', async ({
  playwright,
  baseURL,
}) => {
  const member = await playwright.request.newContext({ baseURL });
  await loginDemo(member);
  const bytes = await (await member.get('/post/data?days=30')).body();
  const html = bytes.toString('utf8');
  expect(html, 'the 30-day view').toContain('近30天');
  expect([...html.matchAll(/<tr><th scope="row">/g)], 'a row a day in each of the five charts').toHaveLength(150);
  expect(bytes.length, `/post/data?days=30: ${bytes.length} bytes`).toBeLessThanOrEqual(htmlBudget('/post/data', true));
  await member.dispose();
});

test('what the pages leave out comes from files the browser keeps: the icon sprite and the chrome parts', async ({
  request,
}) => {
  const html = await (await request.get('/discover')).text();
  const icons = [...html.matchAll(/<use href="([^"#]+)#([\w-]+)"/g)];
  expect(icons.length).toBeGreaterThan(10);
  expect(new Set(icons.map((m) => m[1])).size, 'one sprite').toBe(1);
  const sprite = await request.get(icons[0]![1]!);
  expect(sprite.status()).toBe(200);
  expect(sprite.headers()['content-type']).toContain('image/svg+xml');
  expect(sprite.headers()['cache-control']).toContain('immutable');
  const symbols = await sprite.text();
  for (const [, , name] of icons) expect(symbols, name).toContain(`<symbol id="${name}"`);

  const parts = html.match(/data-parts="([^"]+)"/)?.[1]?.replaceAll('&amp;', '&');
  expect(parts).toBeTruthy();
  const boxes = [...html.matchAll(/<(?:div|dialog) id="([\w-]+)"[^>]*\bdata-part\b/g)].map((m) => m[1]);
  expect(boxes.length).toBeGreaterThanOrEqual(7);
  const answer = await request.get(parts!);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  const body = await answer.text();
  for (const id of boxes) expect(body, id).toContain(`<template data-part="${id}">`);
  // An address of an earlier build or other settings still gets the contents, but nothing keeps them.
  const stale = await request.get('/chrome/parts?v=old');
  expect(stale.status()).toBe(200);
  expect(stale.headers()['cache-control']).toBe('no-cache');
});

test('the chrome script every page runs first is one file: the browser needs no second request before it runs', async ({
  request,
}) => {
  const html = await (await request.get('/video/2')).text();
  const scripts = [...html.matchAll(/<script type="module"(?: async)? src="(\/_astro\/[\w.-]+\.js)"><\/script>/g)].map(
    (m) => m[1]!,
  );
  const chrome = scripts.find((src) => src.includes('ChromeRuntime'));
  expect(chrome, `the chrome script among ${scripts.join(', ')}`).toBeTruthy();
  const code = await (await request.get(chrome!)).text();
  // A static import would be fetched only once the script is parsed, after first paint, and a member's marks with it.
  expect(code.match(/(?:^|[;\s}])import\s*(?:[\w${},*\s]+from\s*)?["'][^"']+["']/g) ?? []).toEqual([]);
  expect(code, 'the marks call is in it').toContain('/api/user/marks');
});
