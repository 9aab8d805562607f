/**
 * nginx's shared cache in front of HAProxy, where a CDN would sit: it keeps the one copy of a page of public content
 * for visitors and members alike, for as long as the page's Cache-Control says, while each member's own marks come
 * through it uncached; and a write through either app server shows on that copy within the page's stated freshness.
 */
import type { APIRequestContext } from '@playwright/test';
import { cluster, expect, newAccount, servedBy, signIn, test } from './support.ts';

test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let videoId: string;

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const feed = await (await api.get('/api/aweme/v1/web/tab/feed/?count=8')).json();
  videoId = feed.aweme_list[6].aweme_id;
});

test.afterAll(async () => {
  await api.dispose();
});

/** The page's freshness as its Cache-Control states it: s-maxage plus one revalidation, in ms. */
function statedFreshnessMs(cacheControl: string): number {
  const sMaxAge = Number(/s-maxage=(\d+)/.exec(cacheControl)?.[1]);
  expect(sMaxAge, cacheControl).toBeGreaterThan(0);
  return sMaxAge * 1000;
}

/** nginx answered from its copy: fresh (HIT), or stale while one request refreshes it. */
const FROM_CACHE = /^(HIT|STALE|UPDATING|REVALIDATED)$/;

test("a member's video page comes from nginx's copy, with the member's own marks right", async ({ browser }) => {
  // Several page loads in a browser on a machine that runs the whole cluster.
  test.setTimeout(120_000);
  const member = await newAccount(api, 'edge-member');
  const liked = await api.post('/api/aweme/v1/web/commit/item/digg/', {
    headers: { token: member.token },
    form: { aweme_id: videoId, type: '1' },
  });
  expect(liked.status()).toBe(200);
  const context = await browser.newContext();
  await signIn(context, member);
  const page = await context.newPage();
  const like = page.getByRole('list', { name: '视频操作' }).getByRole('button', { name: /^点赞/ });

  // Until nginx answers from its copy: the first visit after the like may be the one that fills it.
  let status = '';
  for (let i = 0; i < 10 && !FROM_CACHE.test(status); i++) {
    const marks = page.waitForResponse((r) => r.url().includes('/api/user/marks'));
    const res = (await page.goto(`/video/${videoId}`))!;
    expect(res.status()).toBe(200);
    expect(res.headers()['cache-control']).toMatch(/^public, /);
    expect(res.headers().vary).toBe('Accept-Encoding');
    status = res.headers()['x-cache-status'] ?? '';
    // The marks are the member's own: never from nginx's cache.
    const answer = await marks;
    expect(answer.headers()['x-cache-status'] ?? 'none').not.toBe('HIT');
    await expect(like).toHaveAttribute('aria-pressed', 'true');
  }
  expect(status).toBe('HIT');
  await expect(
    page.getByRole('banner').getByRole('button', { name: `${member.user.nickname}的账号菜单` }),
  ).toBeVisible();

  // A visitor gets the very same copy, unmarked.
  const visitor = await browser.newContext();
  const theirs = await visitor.newPage();
  const res = (await theirs.goto(`/video/${videoId}`))!;
  expect(res.headers()['x-cache-status']).toMatch(FROM_CACHE);
  await expect(theirs.getByRole('list', { name: '视频操作' }).getByRole('button', { name: /^点赞/ })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  expect(await res.text()).not.toContain(member.user.nickname);
  await context.close();
  await visitor.close();
});

test('a page about the viewer is never kept by nginx for a member', async () => {
  const member = await newAccount(api, 'edge-self');
  for (let i = 0; i < 3; i++) {
    const res = await api.get('/user/self', { headers: { cookie: `sy_session=${member.token}` } });
    expect(res.headers()['cache-control']).toBe('private, no-store');
    expect(res.headers()['x-cache-status']).not.toBe('HIT');
    expect(await res.text()).toContain(member.user.nickname);
  }
});

for (const through of ['web1', 'web2']) {
  test(`a comment through ${through} shows on nginx's copy of the video page within the page's stated freshness`, async () => {
    const writer = await newAccount(api, `edge-comment-${through}`);
    const total = (html: string) => Number(/data-comment-total="">（(?:<!-- -->)?(\d+)/.exec(html)?.[1] ?? NaN);
    const page = `/video/${videoId}`;
    // nginx holds a copy now.
    let first = await api.get(page);
    for (let i = 0; i < 5 && first.headers()['x-cache-status'] !== 'HIT'; i++) first = await api.get(page);
    expect(first.headers()['x-cache-status']).toBe('HIT');
    const freshness = statedFreshnessMs(first.headers()['cache-control']!);
    const before = total(await first.text());

    const web = cluster().webs.find((w) => w.name === through)!;
    const text = `缓存之外的评论 ${through} ${Date.now()}`;
    const posted = await fetch(`${web.url}/api/aweme/v1/web/comment/publish`, {
      method: 'POST',
      headers: { token: writer.token, 'content-type': 'application/x-www-form-urlencoded', origin: web.url },
      body: new URLSearchParams({ aweme_id: videoId, text }),
    });
    expect(posted.status).toBe(200);
    expect(servedBy(posted.headers)).toBe(through);
    const postedAt = Date.now();

    // Within s-maxage the copy may still be served; once it is stale, one request refreshes it in the background
    // (stale-while-revalidate) and the next has the comment. A second of slack for that refresh.
    let seen = before;
    while (seen !== before + 1 && Date.now() - postedAt < freshness + 2_000) {
      seen = total(await (await api.get(page)).text());
      if (seen !== before + 1) await new Promise((r) => setTimeout(r, 200));
    }
    expect(seen, `nginx's copy within ${freshness} ms (+ one refresh) of the comment`).toBe(before + 1);
  });
}
