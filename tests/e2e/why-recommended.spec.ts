import type { APIRequestContext, Page, Response } from '@playwright/test';
import { expect, holdEachVideo, newAccount, signIn, test, type Session } from './support.ts';

/** The channel a member is given a taste for (美食), so that their feed has affinity items. */
const FOOD = 300204;

interface Reason {
  code: string;
  text: string;
  channel_id: number;
  channel_name: string;
}
interface FeedAnswer {
  aweme_list: { aweme_id: string; recommend_reason: Reason }[];
  cursor: string;
}

const active = (page: Page) => page.locator('article[data-active="true"]');

/** A fresh member who liked a few 美食 works: their own feed, shared with no other spec. */
async function taster(api: APIRequestContext): Promise<Session> {
  const session = await newAccount(api, 'why');
  const food = await (await api.get('/api/aweme/v1/web/channel/feed/', { params: { tag_id: FOOD, count: 6 } })).json();
  for (const a of food.aweme_list as { aweme_id: string }[]) {
    const r = await api.post('/api/aweme/v1/web/commit/item/digg/', {
      headers: { Token: session.token },
      form: { aweme_id: a.aweme_id, type: 1 },
    });
    expect(r.status()).toBe(200);
  }
  return session;
}

/** The member's recommend page from the top, as the feed asks for it (the same API, their session). */
async function topPage(page: Page): Promise<FeedAnswer> {
  const r = await page.request.get('/api/aweme/v1/web/tab/feed/', { params: { count: 10 } });
  expect(r.status()).toBe(200);
  return (await r.json()) as FeedAnswer;
}

const share = (answer: FeedAnswer, channel: number) =>
  answer.aweme_list.filter((a) => a.recommend_reason.channel_id === channel).length;

/** Every reason the feed's own page requests answered, by video id. */
function collectReasons(page: Page): Map<string, Reason> {
  const reasons = new Map<string, Reason>();
  page.on('response', async (res: Response) => {
    if (!res.url().includes('/tab/feed/') || res.request().method() !== 'GET') return;
    const body = (await res.json().catch(() => null)) as FeedAnswer | null;
    for (const a of body?.aweme_list ?? []) reasons.set(a.aweme_id, a.recommend_reason);
  });
  return reasons;
}

/** Opens the feed woken up, as a member. */
async function openFeed(page: Page): Promise<void> {
  await holdEachVideo(page);
  await page.goto('/');
  await page.locator('section[aria-roledescription="carousel"]').hover();
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr] [data-active]'));
  await page.locator('html[data-marks]').waitFor({ state: 'attached' });
}

/** Pages down until the video in front is one `want` accepts; answers its id. */
async function pageTo(page: Page, want: (id: string) => boolean, steps = 20): Promise<string> {
  for (let i = 0; i < steps; i++) {
    const id = (await active(page).getAttribute('data-video-id'))!;
    if (want(id)) return id;
    const index = Number(await active(page).getAttribute('data-index'));
    // The next video is there once its page has arrived (a slow answer on a busy machine).
    await page.locator(`article[data-index="${index + 1}"]`).waitFor({ state: 'attached', timeout: 15_000 });
    await page.keyboard.press('ArrowDown');
    await expect(active(page)).toHaveAttribute('data-index', String(index + 1));
  }
  throw new Error('no such video within reach');
}

/** 更多 → 为什么推荐这个视频 on the video in front: answers the panel. */
async function openWhy(page: Page) {
  const slide = active(page);
  // By focus, as the keyboard opens it: a hover can land while the slide still glides into place.
  await slide.getByRole('list', { name: '视频操作' }).getByRole('button', { name: '更多' }).focus();
  const entry = slide.getByRole('button', { name: '为什么推荐这个视频' });
  await expect(entry).toBeVisible();
  await entry.press('Enter');
  const panel = slide.getByRole('dialog', { name: '为什么推荐这个视频' });
  await expect(panel).toBeVisible();
  return panel;
}

test('为什么推荐这个视频 names the pool the member’s recommend answer gave the item', async ({
  page,
  context,
  request,
}) => {
  await signIn(context, await taster(request));
  const reasons = collectReasons(page);
  await openFeed(page);
  // The server's first videos are the visitors' (one shared page): the member's own come with the next page asked for.
  const id = await pageTo(page, (v) => reasons.has(v) && reasons.get(v)!.code !== 'popular');
  const panel = await openWhy(page);
  const reason = reasons.get(id)!;
  await expect(panel.getByTestId('why-reason')).toHaveText(reason.text);
  await expect(panel.getByTestId('why-reason')).toHaveAttribute('data-code', reason.code);
  await expect(panel.getByRole('button', { name: `减少此类：${reason.channel_name}` })).toBeVisible();
  await expect(panel.getByRole('button', { name: '不感兴趣' })).toBeVisible();
  // Esc closes it and gives focus back to 更多.
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(
    active(page).getByRole('list', { name: '视频操作' }).getByRole('button', { name: '更多' }),
  ).toBeFocused();

  // The pictures of the panel a reviewer looks at (WHY_SHOTS=1): both themes, a desktop and a phone.
  if (process.env.WHY_SHOTS) {
    test.setTimeout(120_000);
    for (const [w, h] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      for (const theme of ['light', 'dark']) {
        await page.setViewportSize({ width: w, height: h });
        await page.evaluate((t) => localStorage.setItem('theme', t), theme);
        reasons.clear();
        await openFeed(page);
        await pageTo(page, (v) => reasons.has(v) && reasons.get(v)!.code !== 'popular');
        await openWhy(page);
        await page.screenshot({ path: `test-results/why/why-${w}x${h}-${theme}.png` });
      }
    }
  }
});

test('减少此类 on a channel lowers its share of the next feed page at once', async ({ page, context, request }) => {
  await signIn(context, await taster(request));
  const reasons = collectReasons(page);
  await openFeed(page);
  const before = await topPage(page);
  // The channel with the largest share of the member's page (8 channels on 10 items: 2 or more).
  const counts = new Map<number, number>();
  for (const a of before.aweme_list)
    counts.set(a.recommend_reason.channel_id, (counts.get(a.recommend_reason.channel_id) ?? 0) + 1);
  const [channel, was] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  expect(was).toBeGreaterThanOrEqual(2);
  await pageTo(page, (v) => reasons.get(v)?.channel_id === channel);
  const panel = await openWhy(page);
  const name = reasons.get((await active(page).getAttribute('data-video-id'))!)!.channel_name;
  const told = page.waitForResponse((r) => r.url().includes('/commit/dislike/less/') && r.status() === 200);
  await panel.getByRole('button', { name: `减少此类：${name}` }).click();
  await told;
  await expect(page.getByText(`将减少${name}类视频的推荐`)).toBeVisible();
  // The same page asked for again, and the next page the feed itself fetches.
  const after = await topPage(page);
  expect(share(after, channel)).toBeLessThanOrEqual(1);
  expect(share(after, channel)).toBeLessThan(was);
  // Down the feed until it asks for its next page itself.
  let fetched: FeedAnswer | undefined;
  const next = page
    .waitForResponse((r) => r.url().includes('/tab/feed/') && r.request().method() === 'GET')
    .then(async (r) => (fetched = (await r.json()) as FeedAnswer));
  for (let i = 0; i < 20 && !fetched; i++) {
    const index = Number(await active(page).getAttribute('data-index'));
    await page.keyboard.press('ArrowDown');
    await expect(active(page)).toHaveAttribute('data-index', String(index + 1));
  }
  await next;
  if (!fetched) throw new Error('the feed asked for no next page');
  expect(fetched.aweme_list.length).toBeGreaterThan(0);
  expect(share(fetched, channel)).toBeLessThanOrEqual(1);
});
