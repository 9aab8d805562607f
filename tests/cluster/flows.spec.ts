/**
 * The site's everyday flows through nginx's shared cache and HAProxy, with two app servers behind it: pages, media from
 * the object store, a login that holds on both servers, and writes made through one server seen through the other (a
 * comment on a page, a private message on a live event stream). What must reach a given app server goes to HAProxy
 * itself (`cluster().balancer`): through nginx a shared page comes from its copy, whoever rendered it.
 */
import type { APIRequestContext, Page, Response } from '@playwright/test';
import { cluster, expect, test, newAccount, servedBy, signIn, type Session } from './support.ts';

test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let videoId: string;

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const feed = await (await api.get('/api/aweme/v1/web/tab/feed/?count=5')).json();
  videoId = feed.aweme_list[0].aweme_id;
});

test.afterAll(async () => {
  await api.dispose();
});

/** Loads `path` from HAProxy in `page` until an app server other than `not` answers the document (HAProxy alternates). */
async function gotoServedByOther(page: Page, path: string, not: string): Promise<Response> {
  for (let i = 0; i < 8; i++) {
    const res = (await page.goto(`${cluster().balancer}${path}`))!;
    expect(res.status()).toBe(200);
    if (servedBy(res.headers()) !== not) return res;
  }
  throw new Error(`every load of ${path} was answered by ${not}`);
}

test('pages load through nginx and HAProxy, and consecutive requests alternate between the two app servers', async ({
  page,
}) => {
  const answered: (string | null)[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await api.get(`${cluster().balancer}/discover`);
    expect(res.status()).toBe(200);
    answered.push(servedBy(res.headers()));
  }
  expect(new Set(answered)).toEqual(new Set(['web1', 'web2']));
  // Round robin over every request HAProxy takes, nginx's background refreshes of stale pages among them: nearly every
  // consecutive pair of these differs.
  const turns = answered.slice(1).filter((name, i) => name !== answered[i]).length;
  expect(turns, answered.join(' ')).toBeGreaterThanOrEqual(answered.length - 2);

  await page.goto('/');
  await expect(page.locator('a[href^="/video/"]').first()).toBeVisible();
  await page.goto('/discover');
  await expect(page.locator('a[href^="/video/"]').first()).toBeVisible();
});

test('a video plays with its bytes from the object store, not from an app server', async ({ page }) => {
  const media: { url: string; status: number; servedBy: string | null; headers: Record<string, string> }[] = [];
  page.on('response', (res) => {
    if (new URL(res.url()).pathname.startsWith('/media/') && res.url().endsWith('.mp4')) {
      media.push({ url: res.url(), status: res.status(), servedBy: servedBy(res.headers()), headers: res.headers() });
    }
  });
  await page.goto(`/video/${videoId}`);
  const video = page.locator('video').first();
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.3);
  expect(media.length).toBeGreaterThan(0);
  for (const m of media) {
    expect([200, 206], m.url).toContain(m.status);
    // App servers sign every answer with X-Served-By; the store does not, and HAProxy adds the media cache policy.
    expect(m.servedBy, m.url).toBeNull();
    expect(m.headers['cache-control']).toContain('immutable');
  }
  // The same object straight from the store's own address, as the app wrote it there: byte for byte what played.
  const { s3 } = cluster();
  const key = new URL(media[0]!.url).pathname.replace(/^\/media\//, '');
  const bucket = s3.MEDIA_STORE!.replace(/^s3:\/\//, '');
  const direct = await fetch(`${s3.S3_ENDPOINT}/${bucket}/${key}`);
  expect(direct.status).toBe(200);
  const viaLb = await api.get(`/media/${key}`);
  expect(Buffer.from(await direct.arrayBuffer()).equals(await viaLb.body())).toBe(true);
});

test('a login holds on both app servers: pages and API calls alternate and all see the same session', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/discover');
  await page.waitForFunction(
    () => document.querySelectorAll('astro-island[ssr][client="load"], astro-island[ssr][client="idle"]').length === 0,
  );
  await page.getByRole('banner').getByRole('button', { name: '登录', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: '登录后免费畅享高清视频' });
  const form = dialog.getByRole('tabpanel', { name: '密码登录' });
  // The demo account's credentials are filled in.
  await expect(form.getByLabel('邮箱')).not.toHaveValue('');
  const login = page.waitForResponse((res) => res.url().includes('/api/passport/login/password'));
  await form.getByRole('button', { name: '登录', exact: true }).click();
  expect((await login).status()).toBe(200);
  const menu = page.getByRole('banner').getByRole('button', { name: /的账号菜单$/ });
  await expect(menu).toBeVisible();

  const pages = new Set<string | null>();
  for (let i = 0; i < 4; i++) {
    const res = (await page.goto('/user/self'))!;
    expect(res.status()).toBe(200);
    pages.add(servedBy(res.headers()));
    // Rendered for the user by whichever server answered: their own profile, not the login prompt.
    await expect(menu).toBeVisible();
    await expect(page.getByRole('heading', { name: '登录后免费畅享高清视频' })).toHaveCount(0);
  }
  const calls = new Set<string | null>();
  for (let i = 0; i < 4; i++) {
    const res = await page.request.get('/api/aweme/v1/web/user/profile/self/');
    const body = await res.json();
    expect(body.status_code).toBe(0);
    calls.add(servedBy(res.headers()));
  }
  expect(new Set([...pages, ...calls])).toEqual(new Set(['web1', 'web2']));
  await context.close();
});

test('a comment posted through one app server is on the page the other app server renders', async ({ browser }) => {
  const writer = await newAccount(api, 'lb-writer');
  const reader = await newAccount(api, 'lb-reader');
  const writing = await browser.newContext();
  await signIn(writing, writer);
  const page = await writing.newPage();
  const opened = (await page.goto(`/video/${videoId}`))!;
  const column = page.locator(`[data-comments="${videoId}"]`);
  // The page carries the comment count; the comments themselves it loads once the player wakes.
  const total = (html: string) => Number(/data-comment-total="">（(?:<!-- -->)?(\d+)/.exec(html)?.[1] ?? NaN);
  const before = total(await opened.text());
  expect(before).toBeGreaterThanOrEqual(0);
  await column.scrollIntoViewIfNeeded();
  await column.getByRole('heading').hover();
  const box = column.getByRole('textbox', { name: '留下你的精彩评论吧' });
  await expect(box).toBeVisible();
  const text = `集群评论 ${Date.now()}`;
  await box.fill(text);
  const posted = page.waitForResponse((res) => res.url().includes('/comment/publish'));
  await box.press('Enter');
  const answer = await posted;
  expect(answer.status()).toBe(200);
  const through = servedBy(answer.headers())!;
  expect(['web1', 'web2']).toContain(through);

  const reading = await browser.newContext();
  await signIn(reading, reader);
  const other = await reading.newPage();
  const res = await gotoServedByOther(other, `/video/${videoId}`, through);
  // The count in the HTML the other server rendered, the comment in the list the other server answers, and on screen.
  expect(total(await res.text())).toBe(before + 1);
  const otherWeb = cluster().webs.find((web) => web.name !== through)!;
  const list = await api.get(`${otherWeb.url}/api/aweme/v1/web/comment/list/?aweme_id=${videoId}&cursor=0&count=20`);
  expect(servedBy(list.headers())).toBe(otherWeb.name);
  expect(await list.text()).toContain(text);
  // The column loads its comments once its island wakes (the player's wake, or the reader reaching for it).
  const otherColumn = other.locator(`[data-comments="${videoId}"]`);
  await otherColumn.scrollIntoViewIfNeeded();
  await otherColumn.getByRole('heading').hover();
  await expect(otherColumn.getByText(text)).toBeVisible();
  await writing.close();
  await reading.close();
});

test("a comment through one app server makes the other's cached anonymous copy of the video page stale at once", async () => {
  const writer = await newAccount(api, 'lb-shared-write');
  const [taking, caching] = cluster().webs;
  const url = `${caching!.url}/video/${videoId}`;
  const total = (html: string) => Number(/data-comment-total="">（(?:<!-- -->)?(\d+)/.exec(html)?.[1] ?? NaN);
  // An anonymous copy stored just now on one server: fresh there for PAGE_FRESH_MS (5 s) unless a write reaches it. The
  // page may hold a copy an earlier test stored (the same video): the one taken is under a second old.
  let stored: Awaited<ReturnType<typeof fetch>> | undefined;
  await expect
    .poll(
      async () => {
        stored = await fetch(url);
        return Number(stored.headers.get('age'));
      },
      { timeout: 10_000 },
    )
    .toBeLessThan(1);
  expect(stored!.headers.get('cache-control')).toMatch(/\bpublic\b/);
  const before = total(await stored!.text());
  const posted = await fetch(`${taking!.url}/api/aweme/v1/web/comment/publish`, {
    method: 'POST',
    headers: { token: writer.token, 'content-type': 'application/x-www-form-urlencoded', origin: taking!.url },
    body: new URLSearchParams({ aweme_id: videoId, text: `另一台服务器的评论 ${Date.now()}` }),
  });
  expect(posted.status).toBe(200);
  expect(servedBy(posted.headers)).toBe(taking!.name);
  // Well inside the 5 s the copy would otherwise stay fresh.
  const started = Date.now();
  let seen = before;
  while (seen !== before + 1 && Date.now() - started < 2_000) {
    const res = await fetch(url);
    expect(servedBy(res.headers)).toBe(caching!.name);
    seen = total(await res.text());
    if (seen !== before + 1) await new Promise((r) => setTimeout(r, 100));
  }
  expect(seen, `the other server's copy within 2 s of the comment`).toBe(before + 1);
});

test('a message sent through one app server arrives live on a page whose event stream the other app server holds', async ({
  browser,
  playwright,
}) => {
  const sender = await newAccount(api, 'lb-dm-a');
  const receiver: Session = await newAccount(api, 'lb-dm-b');
  // The receiver follows the sender, so the sender may write more than one message before an answer.
  const follow = await api.post('/api/aweme/v1/web/commit/follow/user/', {
    headers: { token: receiver.token },
    form: { sec_user_id: sender.user.sec_uid, type: '1' },
  });
  expect(follow.status()).toBe(200);

  const context = await browser.newContext();
  await signIn(context, receiver);
  const page = await context.newPage();
  const stream = page.waitForResponse((res) => new URL(res.url()).pathname === '/api/events');
  await page.goto('/discover');
  const events = servedBy((await stream).headers())!;
  expect(['web1', 'web2']).toContain(events);
  const entry = page.getByRole('navigation', { name: '快捷入口' }).getByRole('button', { name: /^私信/ });
  await entry.click();
  const panel = page.locator('#pop-message');
  await expect(panel).toBeVisible();

  // Sent to the app server that does not hold the stream, directly: through HAProxy, the page's own requests between
  // two sends can keep the round-robin landing on the stream's server every time.
  const other = cluster().webs.find((web) => web.name !== events)!;
  const direct = await playwright.request.newContext({ baseURL: other.url });
  for (let i = 1; i <= 2; i++) {
    const text = `集群私信 ${i} ${Date.now()}`;
    const sent = await direct.post('/api/aweme/v1/web/im/message/send/', {
      headers: { token: sender.token },
      form: { sec_user_id: receiver.user.sec_uid, text },
    });
    expect(sent.status()).toBe(200);
    expect(servedBy(sent.headers())).toBe(other.name);
    // Live: no reload, within two seconds.
    await expect(panel.getByText(text)).toBeVisible({ timeout: 2_000 });
  }
  await direct.dispose();
  await context.close();
});
