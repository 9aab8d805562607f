/**
 * Islands hydrate on the first interaction (client:interact): that interaction itself must still act, on a fresh
 * page, with no error in the console.
 */
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { expect, test, newAccount, signIn, type Session } from './support.ts';

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

/** Everything the page reports as an error: uncaught exceptions and console.error lines. */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

/** A video the fan has not touched yet: each test, and each repetition of it, takes its own. */
async function videoId(index: number): Promise<number> {
  const feed = await (await api.post('/api/video/getVideosByCursor', { form: { cursor: 0, size: 40 } })).json();
  return feed.data[index + 4 * test.info().repeatEachIndex].id;
}

async function fanPage(browser: import('@playwright/test').Browser): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext();
  await signIn(context, fan);
  const page = await context.newPage();
  return { context, page, errors: errorsOf(page) };
}

const detail = async (id: number) => (await (await api.get(`/api/aweme/v1/web/aweme/detail/?aweme_id=${id}`, { headers: { token: fan.token } })).json()).aweme_detail;

for (const [name, index, mark] of [
  ['点赞', 20, 'user_digged'],
  ['收藏', 21, 'collect_stat'],
] as const) {
  test(`the first click on the ${name} icon itself counts, before the island has woken`, async ({ browser }) => {
    const id = await videoId(index);
    const { context, page, errors } = await fanPage(browser);
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
  await page.goto(`/video/${await videoId(23)}`);
  const player = page.locator('[data-player]');
  await expect(page.getByRole('switch', { name: '弹幕' })).toHaveAttribute('aria-checked', 'false');
  // A slow phone: hydration takes long enough that the key lands after the island woke but before React bound its keys.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
  await player.hover();
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr] [data-player]'), null, { polling: 'raf' });
  await page.keyboard.press('b');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await expect(page.getByRole('switch', { name: '弹幕' })).toHaveAttribute('aria-checked', 'true');
  expect(errors).toEqual([]);
});
