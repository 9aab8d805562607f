/**
 * Members on the shared page: a page of public content is one HTML for every viewer, and a member's own marks arrive
 * after first paint. Two members and a visitor, each in a browser context of their own.
 */
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { pageRoutes } from './routes.ts';
import { expect, loginDemo, newAccount, signIn, test, type Session } from './support.ts';

const W = '/api/aweme/v1/web';

/** A public video of the seed that `token`'s account has not liked, with its like count. */
async function unlikedVideo(api: APIRequestContext, skip: number): Promise<{ id: string; digg: number }> {
  const feed = await (await api.get(`${W}/tab/feed/?count=20`)).json();
  const aweme = feed.aweme_list[skip];
  return { id: aweme.aweme_id, digg: aweme.statistics.digg_count };
}

async function likeCount(api: APIRequestContext, id: string): Promise<number> {
  const detail = await (await api.get(`${W}/aweme/detail/?aweme_id=${id}`)).json();
  return detail.aweme_detail.statistics.digg_count;
}

async function like(api: APIRequestContext, who: Session, id: string): Promise<void> {
  const res = await api.post(`${W}/commit/item/digg/`, {
    form: { aweme_id: id, type: 1 },
    headers: { Token: who.token },
  });
  expect(res.status()).toBe(200);
}

function likeButton(page: Page) {
  return page.getByRole('list', { name: '视频操作' }).getByRole('button', { name: /^点赞/ });
}

/** Opens `path` in `context`, waiting for the marks call when the context holds a login. */
async function open(context: BrowserContext, path: string, member: boolean): Promise<{ page: Page; html: string }> {
  const page = await context.newPage();
  const marks = member ? page.waitForResponse((r) => r.url().includes('/api/user/marks')) : null;
  const res = await page.goto(path);
  await marks;
  return { page, html: (await res!.text()) ?? '' };
}

test('a member sees their like on the shared page, after a reload too; another member and a visitor, served the same copy, do not', async ({
  browser,
  playwright,
}, info) => {
  // Three browser contexts, two accounts and five page loads.
  test.setTimeout(90_000);
  const api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const liker = await newAccount(api, 'shared-a');
  const other = await newAccount(api, 'shared-b');
  const video = await unlikedVideo(api, 3);
  await like(api, liker, video.id);

  const likerContext = await browser.newContext();
  await signIn(likerContext, liker);
  const otherContext = await browser.newContext();
  await signIn(otherContext, other);
  const visitorContext = await browser.newContext();

  const mine = await open(likerContext, `/video/${video.id}`, true);
  await expect(likeButton(mine.page)).toHaveAttribute('aria-pressed', 'true');
  await mine.page.reload();
  await expect(likeButton(mine.page)).toHaveAttribute('aria-pressed', 'true');
  // The header shows the member, from the saved login.
  await expect(mine.page.getByRole('button', { name: `${liker.user.nickname}的账号菜单` })).toBeVisible();

  const theirs = await open(otherContext, `/video/${video.id}`, true);
  const visitor = await open(visitorContext, `/video/${video.id}`, false);
  // Marks arrived for the other member (their avatar is up): the like is still not theirs.
  await expect(theirs.page.getByRole('button', { name: `${other.user.nickname}的账号菜单` })).toBeVisible();
  await expect(likeButton(theirs.page)).toHaveAttribute('aria-pressed', 'false');
  await expect(likeButton(visitor.page)).toHaveAttribute('aria-pressed', 'false');
  await expect(visitor.page.getByRole('button', { name: '登录', exact: true })).toBeVisible();

  // The one copy: whoever's visit rendered it, it names no one and marks nothing.
  for (const { html } of [mine, theirs, visitor]) {
    for (const who of [liker, other]) {
      expect(html).not.toContain(who.user.nickname);
      expect(html).not.toContain(who.token);
      expect(html).not.toContain(who.user.sec_uid);
    }
    // No mark pressed: ♥, 收藏 and 稍后再看 carry data-mark (other toggles, the player's own, may start pressed).
    expect(html).not.toMatch(/<button[^>]*aria-pressed="true"[^>]*data-mark=/);
    expect(html).not.toContain('data-viewer');
  }
  const etags = async () =>
    Promise.all(
      [likerContext, otherContext, visitorContext].map(async (c) => {
        const res = await c.request.get(`/video/${video.id}`);
        expect(res.headers()['cache-control']).toMatch(/^public, /);
        expect(res.headers().vary).toBe('Accept-Encoding');
        return res.headers().etag;
      }),
    );
  await expect.poll(async () => new Set(await etags()).size, { message: 'one copy for all three' }).toBe(1);

  for (const c of [likerContext, otherContext, visitorContext]) await c.close();
  await api.dispose();
});

for (const already of [false, true]) {
  test(`a member's click on 点赞 before the marks arrive counts once${already ? ', and never takes back a like they had' : ''}`, async ({
    browser,
    playwright,
  }, info) => {
    const api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
    const member = await newAccount(api, already ? 'early-liked' : 'early');
    const video = await unlikedVideo(api, already ? 5 : 4);
    if (already) await like(api, member, video.id);
    const before = await likeCount(api, video.id);

    const context = await browser.newContext();
    await signIn(context, member);
    const page = await context.newPage();
    // The marks are held back until the click has been made: it comes before them, whatever the machine's speed.
    let release!: () => void;
    const clicked = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/user/marks*', async (route) => {
      await clicked;
      await route.continue();
    });
    const marks = page.waitForResponse((r) => r.url().includes('/api/user/marks'));
    await page.goto(`/video/${video.id}`, { waitUntil: 'commit' });
    const button = likeButton(page);
    await button.click();
    release();
    await marks;
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => likeCount(api, video.id)).toBe(already ? before : before + 1);
    await page.reload();
    // The marks of the reloaded page come after its paint: on a busy machine that can take more than a few seconds.
    await expect(likeButton(page)).toHaveAttribute('aria-pressed', 'true', { timeout: 15_000 });
    expect(await likeCount(api, video.id)).toBe(already ? before : before + 1);
    await context.close();
    await api.dispose();
  });
}

test('a shared page names its marks call on its root, and a member’s visit makes that one call, which covers the page', async ({
  browser,
  playwright,
}, info) => {
  test.setTimeout(180_000);
  const api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const session = await loginDemo(api);
  const named = new Map<string, string>();
  for (const route of await pageRoutes(api)) {
    const html = await (await api.get(route, { headers: { cookie: '' } })).text();
    const query = html.match(/^<!DOCTYPE html><html data-marks-q="([^"]*)"/i)?.[1]?.replaceAll('&amp;', '&');
    if (query !== undefined) named.set(route, query);
  }
  const video = [...named.keys()].find((r) => r.startsWith('/video/'));
  const profile = [...named.keys()].find((r) => r.startsWith('/user/') && r !== '/user/self');
  const series = [...named.keys()].find((r) => r.startsWith('/vs/'));
  for (const route of ['/', video, profile, series]) expect(route && named.has(route), `${route} names it`).toBe(true);
  expect(named.get(series!), 'a series page names its series').toMatch(/(^|&)series=\d+/);
  expect(named.get(profile!), 'a profile names whose it is').toMatch(/(^|&)visit=/);

  const context = await browser.newContext();
  await signIn(context, session);
  for (const [route, query] of named) {
    const page = await context.newPage();
    const calls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/user/marks')) calls.push(new URL(r.url()).search.slice(1));
    });
    await page.goto(route);
    await expect(page.locator('html[data-marks]'), route).toBeAttached();
    // One call, the one the page named: the browser found nothing on the page that the name left out.
    expect(calls, route).toEqual([query]);
    await page.close();
  }
  await context.close();
  await api.dispose();
});
