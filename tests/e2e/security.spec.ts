/**
 * The security headers on every page route, on the API and on media, and 退出所有设备 in 通用设置. The server under
 * test is served over plain http without TRUST_PROXY: no HSTS, whatever X-Forwarded-Proto a client sends (the HTTPS
 * cases are unit-tested in src/server/http/).
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, newAccount, signIn, test } from './support.ts';

/** A path the page at `from` links to, matching `pattern`. */
async function linked(api: APIRequestContext, from: string, pattern: RegExp): Promise<string> {
  const html = await (await api.get(from)).text();
  const found = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!).find((href) => pattern.test(href));
  expect(found, `${from} links to ${pattern}`).toBeTruthy();
  return found!;
}

async function pageRoutes(api: APIRequestContext): Promise<string[]> {
  const feed = await (await api.get('/api/aweme/v1/web/tab/feed/', { params: { count: 1 } })).json();
  const aweme = feed.aweme_list[0];
  return [
    '/',
    '/discover',
    '/hot',
    '/follow',
    '/friend',
    '/live',
    await linked(api, '/live', /^\/live\/\d+$/),
    '/vs',
    await linked(api, '/vs', /^\/vs\/\d+$/),
    await linked(api, '/', /^\/channel\/\d+$/),
    `/video/${aweme.aweme_id}`,
    `/user/${aweme.author.sec_uid}`,
    '/user/self',
    '/search',
    `/search/${encodeURIComponent('猫')}`,
    '/settings',
    '/post',
    '/post/data',
    '/post/learn',
    '/post/live-data',
    '/post/manage',
    '/post/service',
    '/passport/qr',
    '/about',
    '/business',
    '/faq',
    '/offline',
    '/no-such-page',
  ];
}

function expectCommonHeaders(headers: Record<string, string>, where: string): void {
  expect(headers['x-frame-options'], where).toBe('DENY');
  expect(headers['x-content-type-options'], where).toBe('nosniff');
  // A page whose address carries a secret (/passport/qr?ticket=…) sends none at all.
  expect(headers['referrer-policy'], where).toBe(
    where.startsWith('/passport/qr') ? 'no-referrer' : 'strict-origin-when-cross-origin',
  );
  expect(headers['cross-origin-opener-policy'], where).toBe('same-origin');
  expect(headers['permissions-policy'], where).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\)/);
  expect(headers['content-security-policy'], where).toContain("frame-ancestors 'none'");
  expect(headers['strict-transport-security'], where).toBeUndefined();
}

test('every page route sends a CSP with scripts from self and hashes only, and the other security headers', async ({
  request,
}) => {
  for (const path of await pageRoutes(request)) {
    const res = await request.get(path, { headers: { 'x-forwarded-proto': 'https' }, maxRedirects: 0 });
    expect([200, 302, 404], path).toContain(res.status());
    const headers = res.headers();
    expectCommonHeaders(headers, path);
    // A redirect (/search without a word) renders nothing: the server's default policy is enough.
    if (res.status() === 302) continue;
    const csp = headers['content-security-policy']!;
    const script = csp
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('script-src'));
    expect(script, path).toMatch(/^script-src 'self'( 'sha256-[\w+/]+=*')+$/);
    expect(csp, path).not.toContain("'unsafe-eval'");
    expect(csp, path).toMatch(/default-src 'self'/);
    expect(csp, path).toMatch(/object-src 'none'/);
  }
});

test('the API, media and health answers send a CSP that allows nothing, and the other security headers', async ({
  request,
}) => {
  const feed = await (await request.get('/api/aweme/v1/web/tab/feed/', { params: { count: 1 } })).json();
  const cover: string = new URL(feed.aweme_list[0].video.cover.url_list[0], 'http://x').pathname;
  const answers = {
    '/api/aweme/v1/web/tab/feed/?count=1': await request.get('/api/aweme/v1/web/tab/feed/?count=1'),
    '/api/video/feed': await request.post('/api/video/feed', { form: {} }),
    '/api/passport/logout (401)': await request.post('/api/passport/logout'),
    [cover]: await request.get(cover),
    '/media/nope.webp (404)': await request.get('/media/nope.webp'),
    '/healthz': await request.get('/healthz'),
  };
  for (const [where, res] of Object.entries(answers)) {
    expectCommonHeaders(res.headers(), where);
    expect(res.headers()['content-security-policy'], where).toMatch(/^default-src 'none'/);
  }
});

test('退出所有设备 in 通用设置 ends every session of the account, this browser’s too', async ({ browser, request }) => {
  const me = await newAccount(request, 'everywhere');
  const other = await newAccount(request, 'everywhere-other');

  const context = await browser.newContext();
  await signIn(context, me);
  const page = await context.newPage();
  await page.goto('/settings');
  const button = page.getByRole('button', { name: '退出所有设备' });
  await expect(button).toBeVisible();
  page.once('dialog', (dialog) => void dialog.accept());
  await button.click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('banner').getByRole('button', { name: '登录', exact: true })).toBeVisible();
  const self = await request.get('/api/aweme/v1/web/user/profile/self/', { headers: { token: me.token } });
  expect((await self.json()).status_code).not.toBe(0);
  const bystander = await request.get('/api/aweme/v1/web/user/profile/self/', { headers: { token: other.token } });
  expect((await bystander.json()).status_code).toBe(0);
  await context.close();
});
