/**
 * Islands hydrate on the first interaction (client:interact): that interaction itself must still act, on a fresh
 * page, with no error in the console. The player islands (the feed, a video page's player and its actions) also
 * hydrate when the browser is idle after the video's first frame and the page's load, except with Data Saver on: the
 * tests of an island still asleep turn Data Saver on to meet it that way.
 */
import type { APIRequestContext, BrowserContext, BrowserContextOptions, Page } from '@playwright/test';
import { errorsOf, expect, test, newAccount, signIn, type Session } from './support.ts';

test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let fan: Session;

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  fan = await newAccount(api, 'first-touch');
});

test.afterAll(async () => {
  await api.dispose();
});

/** A video the fan has not touched yet: each test, and each repetition of it, takes its own. */
async function videoId(index: number): Promise<number> {
  const feed = await (await api.post('/api/video/getVideosByCursor', { form: { cursor: 0, size: 40 } })).json();
  return feed.data[index + 4 * test.info().repeatEachIndex].id;
}

/** Data Saver on for `target`'s pages (navigator.connection.saveData): the player then waits for the viewer. */
async function saveData(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript(() => {
    const connection = (navigator as Navigator & { connection?: object }).connection;
    if (connection)
      Object.defineProperty(Object.getPrototypeOf(connection), 'saveData', { get: () => true, configurable: true });
  });
}

/**
 * Holds the player's video at its first frame (paused there), so that nothing but idleness can wake the player: it
 * also wakes after a few seconds of playback. Notes that frame's time in `window.__firstFrame` (performance.now()).
 */
async function stopAtFirstFrame(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      const v = document.querySelector<HTMLVideoElement>('[data-active="true"] video, [data-player] video');
      if (!v) return;
      observer.disconnect();
      // How far it played while its island was still the server's markup: hydrated, the player may play it again.
      v.addEventListener('timeupdate', () => {
        if (v.closest('astro-island')?.hasAttribute('ssr'))
          (window as unknown as { __playedUnhydrated: number }).__playedUnhydrated = v.currentTime;
      });
      v.requestVideoFrameCallback(() => {
        (window as unknown as { __firstFrame: number }).__firstFrame = performance.now();
        v.pause();
      });
    });
    observer.observe(document, { childList: true, subtree: true });
  });
}

/** Whether React has hydrated the node `selector` finds (it marks the nodes it owns). */
const reactOwns = (page: Page, selector: string) =>
  page.evaluate((sel) => {
    const el = document.querySelector(sel);
    return !!el && Object.keys(el).some((k) => k.startsWith('__reactProps$'));
  }, selector);

async function fanPage(
  browser: import('@playwright/test').Browser,
  dataSaver = false,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext(options);
  if (dataSaver) await saveData(context);
  await signIn(context, fan);
  const page = await context.newPage();
  return { context, page, errors: errorsOf(page) };
}

const detail = async (id: number) =>
  (await (await api.get(`/api/aweme/v1/web/aweme/detail/?aweme_id=${id}`, { headers: { token: fan.token } })).json())
    .aweme_detail;

for (const [name, index, mark] of [
  ['点赞', 20, 'user_digged'],
  ['收藏', 21, 'collect_stat'],
] as const) {
  test(`the first click on the ${name} icon itself counts, before the island has woken`, async ({ browser }) => {
    const id = await videoId(index);
    const { context, page, errors } = await fanPage(browser, true);
    await page.goto(`/video/${id}`);
    const button = page.getByRole('list', { name: '视频操作' }).getByRole('button', { name: new RegExp(`^${name}`) });
    await expect(button).toHaveAttribute('aria-pressed', 'false');
    const count = Number((await button.innerText()).replace(/\D/g, ''));
    // On the icon, not the count: the click lands on the <svg>.
    await button.locator('svg').click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await expect(button).toContainText(String(count + 1));
    await expect.poll(async () => (await detail(id))[mark]).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
}

test('the first click on the 换一换 icon shows new related videos', async ({ page }) => {
  const errors = errorsOf(page);
  await page.goto(`/video/${await videoId(22)}`);
  const list = page.locator('[data-related]');
  const first = list.locator('li a[href^="/video/"]').first();
  const before = await first.getAttribute('href');
  await page.getByRole('button', { name: '换一换' }).locator('svg').click();
  // The click loads React and the island's modules in a chain, then asks the API: allow for a busy machine.
  await expect(first).not.toHaveAttribute('href', before!, { timeout: 15_000 });
  expect(errors).toEqual([]);
});

test('the logged-out popover opens on the first hover over 登录', async ({ page }) => {
  const errors = errorsOf(page);
  await page.goto('/discover');
  const login = page.getByRole('banner').getByRole('button', { name: '登录', exact: true });
  await login.hover();
  const pop = page.getByRole('dialog', { name: '未登录' });
  await expect(pop).toBeVisible();
  await expect(pop).toContainText('登录后即可观看喜欢、收藏的作品');
  expect(errors).toEqual([]);
});

test('a shortcut pressed while the player is still hydrating acts once it can', async ({ page }) => {
  const errors = errorsOf(page);
  await saveData(page);
  await page.goto(`/video/${await videoId(23)}`);
  const player = page.locator('[data-player]');
  await expect(page.getByRole('switch', { name: '弹幕' })).toHaveAttribute('aria-checked', 'false');
  // A slow phone: hydration takes long enough that the key lands after the island woke but before React bound its keys.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
  await player.hover();
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr] [data-player]'), null, {
    polling: 'raf',
  });
  await page.keyboard.press('b');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await expect(page.getByRole('switch', { name: '弹幕' })).toHaveAttribute('aria-checked', 'true');
  expect(errors).toEqual([]);
});

test('the feed hydrates while the browser is idle after the first frame and the load, with no interaction', async ({
  page,
}) => {
  const errors = errorsOf(page);
  await stopAtFirstFrame(page);
  await page.goto('/');
  const island = page.locator('astro-island').filter({ has: page.locator('section[aria-roledescription="carousel"]') });
  const component = new URL((await island.getAttribute('component-url'))!, page.url()).href;
  const renderer = new URL((await island.getAttribute('renderer-url'))!, page.url()).href;
  // Paused at its first frame, the video never reaches the few seconds of playback that would wake the feed too.
  await expect.poll(() => reactOwns(page, 'section[aria-roledescription="carousel"]'), { timeout: 10_000 }).toBe(true);
  expect(
    await page.evaluate(() => (window as unknown as { __playedUnhydrated?: number }).__playedUnhydrated ?? 0),
  ).toBeLessThan(1);
  // The island and React were asked for after the load event and after the first frame, never in the first load.
  const order = await page.evaluate(
    (urls) => ({
      load: performance.getEntriesByType('navigation')[0]
        ? (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd
        : NaN,
      frame: (window as unknown as { __firstFrame?: number }).__firstFrame ?? NaN,
      starts: urls.map((url) => performance.getEntriesByName(url)[0]?.startTime ?? NaN),
    }),
    [component, renderer],
  );
  for (const start of order.starts) {
    expect(start).toBeGreaterThanOrEqual(order.load);
    expect(start).toBeGreaterThanOrEqual(order.frame);
  }
  // Hydrated on idle, it pages at the first ↓ like at any later one.
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('article[data-active="true"]')).toHaveAttribute('data-index', '1');
  expect(errors).toEqual([]);
});

test('with Data Saver on, the feed waits for the viewer instead of loading React when idle', async ({ page }) => {
  const errors = errorsOf(page);
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  await saveData(page);
  await stopAtFirstFrame(page);
  await page.goto('/');
  const island = page.locator('astro-island').filter({ has: page.locator('section[aria-roledescription="carousel"]') });
  const component = new URL((await island.getAttribute('component-url'))!, page.url()).href;
  await page.waitForFunction(() => (window as unknown as { __firstFrame?: number }).__firstFrame !== undefined);
  // Longer than the idle callback's own time limit (2 s) and the wake of a video without a frame (3 s after load).
  await page.waitForTimeout(3500);
  await expect(island).toHaveAttribute('ssr', '');
  expect(scripts).not.toContain(component);
  // The viewer reaching for it still wakes it.
  await page.locator('section[aria-roledescription="carousel"]').hover();
  await expect.poll(() => reactOwns(page, 'section[aria-roledescription="carousel"]')).toBe(true);
  expect(errors).toEqual([]);
});

test('the first like on a video page is answered by an island already hydrated while idle, with nothing left to load', async ({
  browser,
}) => {
  const id = await videoId(24);
  const { context, page, errors } = await fanPage(browser);
  await page.goto(`/video/${id}`);
  const list = page.getByRole('list', { name: '视频操作' });
  const button = list.getByRole('button', { name: /^点赞/ });
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  const count = Number((await button.innerText()).replace(/\D/g, ''));
  // No interaction: the actions hydrate on their own once the page is idle.
  await expect
    .poll(() => reactOwns(page, 'ul[aria-label="视频操作"] button[aria-pressed]'), { timeout: 10_000 })
    .toBe(true);
  const island = page.locator('astro-island').filter({ has: list });
  const component = new URL((await island.getAttribute('component-url'))!, page.url()).href;
  const loaded: string[] = [];
  page.on('request', (r) => loaded.push(r.url()));
  // A real click; what the button shows when the click's task is over (a timer set during it): it has turned before
  // any module or any answer from the server could have come.
  await button.locator('svg').evaluate((svg) => {
    (window as unknown as { __pressed: Promise<string | null> }).__pressed = new Promise((resolve) => {
      const b = svg.closest('button')!;
      b.addEventListener('click', () => setTimeout(() => resolve(null)), { once: true });
      new MutationObserver(() => resolve(b.getAttribute('aria-pressed'))).observe(b, {
        attributes: true,
        attributeFilter: ['aria-pressed'],
      });
    });
  });
  await button.locator('svg').click();
  expect(await page.evaluate(() => (window as unknown as { __pressed: Promise<string | null> }).__pressed)).toBe(
    'true',
  );
  await expect(button).toContainText(String(count + 1));
  expect(loaded).not.toContain(component);
  await expect.poll(async () => (await detail(id)).user_digged).toBe(1);
  expect(errors).toEqual([]);
  await context.close();
});

/** No service worker: it would answer the script requests that a test holds back with page.route. */
const NO_WORKER: BrowserContextOptions = { serviceWorkers: 'block' };

/**
 * A video page whose comment column cannot hydrate until `release()`: its island's module is held back, as on a slow
 * network, so that what the viewer does in the server-rendered box lands before React has it. `asked` settles once the
 * page has asked for that module (the island woke); `published` gathers the text of each publish the page sends.
 * The page's context must block service workers (NO_WORKER).
 */
async function heldComments(page: Page, id: number) {
  await page.goto(`/video/${id}`);
  const column = page.locator(`[data-comments="${id}"]`);
  const island = page.locator('astro-island', { has: column });
  const component = new URL((await island.getAttribute('component-url'))!, page.url()).href;
  let release!: () => void;
  let wake!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const asked = new Promise<void>((resolve) => (wake = resolve));
  await page.route(component, async (route) => {
    wake();
    await held;
    await route.continue();
  });
  const published: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/comment/publish')) published.push(new URLSearchParams(r.postData() ?? '').get('text') ?? '');
  });
  const box = column.getByRole('textbox', { name: '留下你的精彩评论吧' });
  return { column, island, box, release, asked, published };
}

const commentTexts = async (id: number): Promise<string[]> =>
  (
    (await (await api.get(`/api/aweme/v1/web/comment/list/?aweme_id=${id}&cursor=0&count=50`)).json()).comments as {
      text: string;
    }[]
  ).map((c) => c.text);

test('an Enter pressed in the comment box while its island loads sends the comment once the island is up', async ({
  browser,
}) => {
  const id = await videoId(25);
  const before = (await detail(id)).statistics.comment_count;
  const { context, page, errors } = await fanPage(browser, true, NO_WORKER);
  const { column, island, box, release, asked, published } = await heldComments(page, id);
  const text = `水合前回车 ${Date.now()}`;
  // Typing wakes the island (focus); its module is on hold.
  await box.fill(text);
  await asked;
  await box.press('Enter');
  // The Enter sent nothing yet, and did not become a new line.
  await expect(island).toHaveAttribute('ssr', '');
  await expect(box).toHaveValue(text);
  release();
  await expect(column.locator('article', { hasText: text })).toHaveCount(1, { timeout: 15_000 });
  await expect(box).toHaveValue('');
  await expect(column.locator('[data-comment-total]')).toHaveText(`（${before + 1}）`);
  expect(published).toEqual([text]);
  expect((await commentTexts(id)).filter((t) => t === text)).toHaveLength(1);
  expect((await detail(id)).statistics.comment_count).toBe(before + 1);
  expect(errors).toEqual([]);
  await context.close();
});

test('an Enter pressed in the empty comment box while its island loads sends nothing', async ({ browser }) => {
  const id = await videoId(26);
  const { context, page, errors } = await fanPage(browser, true, NO_WORKER);
  const { column, island, box, release, asked, published } = await heldComments(page, id);
  await box.focus();
  await asked;
  await box.press('Enter');
  await box.press('Enter');
  release();
  await expect.poll(() => reactOwns(page, `[data-comments="${id}"] textarea`), { timeout: 15_000 }).toBe(true);
  await expect(island).not.toHaveAttribute('ssr', '');
  await expect(box).toHaveValue('');
  // The next comment is the only one sent, without the new lines those Enters would have typed.
  const text = `空框回车之后 ${Date.now()}`;
  await box.fill(text);
  const answer = page.waitForResponse((r) => r.url().includes('/comment/publish'));
  await box.press('Enter');
  expect((await answer).status()).toBe(200);
  await expect(column.locator('article', { hasText: text })).toHaveCount(1);
  expect(published).toEqual([text]);
  expect(errors).toEqual([]);
  await context.close();
});

test('an Enter on 登录后参与评论 while the comment island loads opens the login dialog, and sends nothing', async ({
  browser,
}) => {
  const id = await videoId(27);
  const context = await browser.newContext(NO_WORKER);
  await saveData(context);
  const page = await context.newPage();
  const errors = errorsOf(page);
  const { column, release, asked, published } = await heldComments(page, id);
  // A visitor who is not logged in has a button where the box would be.
  const login = column.getByRole('button', { name: '登录后参与评论' });
  await login.focus();
  await asked;
  await login.press('Enter');
  release();
  await expect(page.getByRole('dialog', { name: '登录后免费畅享高清视频' })).toBeVisible({ timeout: 15_000 });
  expect(published).toEqual([]);
  expect(errors).toEqual([]);
  await context.close();
});
