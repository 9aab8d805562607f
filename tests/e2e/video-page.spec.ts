/**
 * The video page keeps its HTML small (html-budget.spec.ts): it renders the comment column's count and the first
 * screen's related cards, and the islands load the rest once the player has woken, or the viewer scrolls. What the
 * viewer then sees is what the API answers: the first page of comments and the twelve related videos, in order, with no
 * error (a hydration mismatch is one) in the console.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { errorsOf, expect, test } from './support.ts';

test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
/** The video with the most comments among the popular ones. */
let id: string;

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  const feed = await (await api.post('/api/video/getVideosByCursor', { form: { cursor: 0, size: 50 } })).json();
  const details: { aweme_id: string; statistics: { comment_count: number } }[] = await Promise.all(
    feed.data.map(
      async (v: { id: number }) =>
        (await (await api.get(`/api/aweme/v1/web/aweme/detail/?aweme_id=${v.id}`)).json()).aweme_detail,
    ),
  );
  const most = details.sort((a, b) => b.statistics.comment_count - a.statistics.comment_count)[0]!;
  expect(most.statistics.comment_count).toBeGreaterThanOrEqual(20);
  id = most.aweme_id;
});

test.afterAll(async () => {
  await api.dispose();
});

/** What the API answers for the first page of comments and for 相关推荐. */
async function expected(): Promise<{ cids: string[]; more: boolean; related: string[] }> {
  const comments = await (await api.get(`/api/aweme/v1/web/comment/list/?aweme_id=${id}&cursor=0&count=20`)).json();
  const related = await (await api.get(`/api/aweme/v1/web/aweme/related/?aweme_id=${id}&count=12`)).json();
  return {
    cids: comments.comments.map((c: { cid: string }) => c.cid),
    more: comments.has_more === 1,
    related: related.aweme_list.map((a: { aweme_id: string }) => `/video/${a.aweme_id}`),
  };
}

const shownCids = (page: Page) =>
  page
    .locator('#comments ul[aria-label="评论列表"] > li > article')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-cid')));
const shownRelated = (page: Page) =>
  page
    .locator('[data-related] > li article > a.card-title')
    .evaluateAll((els) => els.map((e) => e.getAttribute('href')));

test('the server sends the comment count and six related cards, their data once, in a JSON block', async ({
  request,
}) => {
  const html = await (await request.get(`/video/${id}`)).text();
  const want = await expected();
  const related = html.slice(html.indexOf('data-related'));
  const hrefs = [...related.matchAll(/<a href="(\/video\/\d+)" class="card-title"/g)].map((m) => m[1]);
  expect(hrefs).toEqual(want.related.slice(0, 6));
  expect(html).not.toContain('data-cid=');
  const block = html.match(/<script type="application\/json" id="related-data">([^<]*)<\/script>/)?.[1];
  expect(JSON.parse(block!).map((v: { id: string }) => `/video/${v.id}`)).toEqual(want.related.slice(0, 6));
  // The island's props name the block; the cards are not in them.
  const props = html.match(/<astro-island[^>]*component-export="Related"[^>]*props="([^"]*)"/)?.[1] ?? '';
  expect(props).toContain('related-data');
  expect(props).not.toContain('/video/');
});

test('untouched, the page shows the first page of comments and twelve related videos once the player has woken', async ({
  page,
}) => {
  const errors = errorsOf(page);
  const want = await expected();
  await page.goto(`/video/${id}`);
  await expect(page.locator('[data-comment-total]')).not.toHaveText('（0）');
  await expect.poll(() => shownRelated(page), { timeout: 15_000 }).toEqual(want.related);
  await expect.poll(() => shownCids(page), { timeout: 15_000 }).toEqual(want.cids);
  // The next page still comes as the list's end nears.
  await page.locator('#comments [data-comments-end]').scrollIntoViewIfNeeded();
  if (want.more)
    await expect
      .poll(async () => (await shownCids(page)).length, { timeout: 15_000 })
      .toBeGreaterThan(want.cids.length);
  else await expect(page.locator('#comments [data-comments-end]')).toHaveAttribute('data-comments-end', 'done');
  expect(errors).toEqual([]);
});

test('the related posters wait for the player’s first frame, then every card gets its own', async ({ page }) => {
  // When the player's video first has a frame to show, by the page's clock (captured before any page script runs).
  await page.addInitScript(() => {
    addEventListener(
      'loadeddata',
      (e) => ((window as Window & { videoReadyAt?: number }).videoReadyAt ??= e.timeStamp),
      { capture: true },
    );
  });
  const want = await expected();
  await page.goto(`/video/${id}`);
  const posters = page.locator('[data-related] img.card-img');
  await expect.poll(() => shownRelated(page), { timeout: 15_000 }).toEqual(want.related);
  // Every card shows a poster (the twelve, the server's six and the six loaded after) once scrolled to, none left blank.
  await posters.last().scrollIntoViewIfNeeded();
  await expect
    .poll(
      () =>
        posters.evaluateAll(
          (imgs) =>
            imgs.filter((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0).length,
        ),
      { timeout: 15_000 },
    )
    .toBe(12);
  const { readyAt, firstPoster } = await page.evaluate(() => {
    const starts = performance
      .getEntriesByType('resource')
      .filter((r) =>
        [...document.querySelectorAll<HTMLImageElement>('[data-related] img.card-img')].some((i) => i.src === r.name),
      )
      .map((r) => r.startTime);
    return { readyAt: (window as Window & { videoReadyAt?: number }).videoReadyAt, firstPoster: Math.min(...starts) };
  });
  expect(readyAt).toBeGreaterThan(0);
  expect(firstPoster).toBeGreaterThanOrEqual(readyAt!);
});

test('with Data Saver on, nothing wakes until the viewer scrolls, and then the comments come', async ({ page }) => {
  const errors = errorsOf(page);
  await page.addInitScript(() => {
    const connection = (navigator as Navigator & { connection?: object }).connection;
    if (connection)
      Object.defineProperty(Object.getPrototypeOf(connection), 'saveData', { get: () => true, configurable: true });
  });
  const want = await expected();
  await page.goto(`/video/${id}`);
  await page.waitForLoadState('load');
  // Past the seconds of watching after which the player wakes (for history): the comments and cards still wait.
  await expect
    .poll(() => page.locator('[data-player] video').evaluate((v: HTMLVideoElement) => v.currentTime), {
      timeout: 15_000,
    })
    .toBeGreaterThan(3.5);
  await page.waitForTimeout(1000);
  expect(await shownCids(page)).toEqual([]);
  expect(await shownRelated(page)).toEqual(want.related.slice(0, 6));
  await page.mouse.wheel(0, 600);
  await expect.poll(() => shownCids(page), { timeout: 15_000 }).toEqual(want.cids);
  await expect.poll(() => shownRelated(page), { timeout: 15_000 }).toEqual(want.related);
  expect(errors).toEqual([]);
});
