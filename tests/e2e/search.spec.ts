import type { BrowserContext, Locator, Page } from '@playwright/test';
import { expect, test } from './support.ts';

const W = '/api/aweme/v1/web';
const box = (page: Page) => page.getByRole('combobox', { name: '搜索你感兴趣的内容' });
const panel = (page: Page) => page.getByRole('dialog', { name: '搜索推荐' });
const hotButtons = (page: Page) => panel(page).locator('button[data-rank]');

/** Opens the recommendation panel of the header box on /discover. */
async function openPanel(page: Page): Promise<Locator> {
  await page.goto('/discover');
  await box(page).click();
  await expect(panel(page)).toBeVisible();
  return box(page);
}

/** Runs `act` and returns the window it opens. */
async function newWindow(context: BrowserContext, act: () => Promise<void>): Promise<Page> {
  const [opened] = await Promise.all([context.waitForEvent('page'), act()]);
  await opened.waitForLoadState('domcontentloaded');
  return opened;
}

test('focused and empty, the box shows 猜你想搜 and 热搜; a click outside closes it', async ({ page }) => {
  await openPanel(page);
  await expect(box(page)).toHaveAttribute('aria-expanded', 'true');
  await expect(panel(page).getByRole('heading', { name: '猜你想搜' })).toBeVisible();
  await expect(panel(page).getByRole('heading', { name: '热搜' })).toBeVisible();
  // No history yet in a fresh browser.
  await expect(panel(page).getByRole('heading', { name: '历史记录' })).toHaveCount(0);
  await page.mouse.click(1300, 600);
  await expect(panel(page)).toBeHidden();
  await expect(box(page)).toHaveAttribute('aria-expanded', 'false');
});

test('typing shows 8 suggestions (hashtags, users, titles of what it finds); ↑/↓ move, Esc closes, the clear button empties', async ({
  page,
}) => {
  const input = await openPanel(page);
  await input.fill('美');
  const list = page.getByRole('listbox', { name: '搜索建议' });
  await expect(list).toBeVisible();
  const options = list.getByRole('option');
  // '美' offered only 美食 and 美食分享; the user 美食探店小王 and the titles tagged #美食 come too.
  await expect(options).toHaveCount(8);
  const texts = await options.allTextContents();
  expect(texts).toEqual(expect.arrayContaining(['美食', '美食探店小王']));
  await expect(panel(page)).toBeHidden();

  await input.press('ArrowDown');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await expect(input).toHaveAttribute('aria-activedescendant', (await options.first().getAttribute('id'))!);
  await input.press('ArrowUp');
  await expect(options.last()).toHaveAttribute('aria-selected', 'true');
  await input.press('Escape');
  await expect(list).toBeHidden();

  await page.getByRole('button', { name: '清除' }).click();
  await expect(input).toHaveValue('');
  await expect(input).toBeFocused();
  await expect(panel(page)).toBeVisible();
});

test('Enter and 搜索 open /search/{keyword} in a new window; blank text opens nothing', async ({ page, context }) => {
  const input = await openPanel(page);
  await input.fill('  美食  ');
  const results = await newWindow(context, () => input.press('Enter'));
  await expect(results).toHaveURL(/\/search\/%E7%BE%8E%E9%A3%9F$/);
  await expect(results).toHaveTitle(/^美食 - 搜索结果/);
  await expect(page).toHaveURL(/\/discover$/);
  await results.close();

  await input.fill('旅行');
  const second = await newWindow(context, () => page.getByRole('button', { name: '搜索', exact: true }).click());
  await expect(second).toHaveURL(/\/search\/%E6%97%85%E8%A1%8C$/);
  await second.close();

  let opened = 0;
  context.on('page', () => opened++);
  await input.fill('   ');
  await input.press('Enter');
  await page.getByRole('button', { name: '搜索', exact: true }).click();
  await page.waitForTimeout(500);
  expect(opened).toBe(0);
  await expect(page).toHaveURL(/\/discover$/);
});

test('a suggestion chosen with the keyboard is searched', async ({ page, context }) => {
  const input = await openPanel(page);
  await input.fill('美');
  const first = page.getByRole('listbox').getByRole('option').first();
  await expect(first).toBeVisible();
  const word = (await first.textContent())!;
  await input.press('ArrowDown');
  const results = await newWindow(context, () => input.press('Enter'));
  await expect(results).toHaveURL(new RegExp(`/search/${encodeURIComponent(word)}$`));
  await results.close();
});

test('换一换 spins its icon for 200 ms and shows another set of guesses', async ({ page }) => {
  await openPanel(page);
  const guesses = panel(page)
    .locator('section', { has: page.getByRole('heading', { name: '猜你想搜' }) })
    .getByRole('listitem');
  await expect(guesses).toHaveCount(6);
  const before = await guesses.allTextContents();
  const refresh = panel(page).getByRole('button', { name: '换一换' });
  // Too short to poll: record every change of data-spinning with its time.
  await refresh.evaluate((button) => {
    const log: [string | null, number][] = [];
    (window as unknown as { spins: typeof log }).spins = log;
    new MutationObserver(() => log.push([button.getAttribute('data-spinning'), performance.now()])).observe(button, {
      attributes: true,
      attributeFilter: ['data-spinning'],
    });
  });
  await refresh.click();
  await expect(refresh).toHaveAttribute('data-spinning', 'false');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { spins: [string, number][] }).spins.map(([v]) => v)))
    .toEqual(['true', 'false']);
  const [on, off] = await page.evaluate(() =>
    (window as unknown as { spins: [string, number][] }).spins.map(([, at]) => at),
  );
  if (on === undefined || off === undefined) throw new Error('no spin recorded');
  // The observer's callbacks run late on a busy machine, so the measured span is only roughly the 200 ms timer.
  expect(off - on).toBeGreaterThan(120);
  expect(off - on).toBeLessThan(1000);
  expect(await refresh.locator('svg').evaluate((icon) => getComputedStyle(icon).transitionDuration)).toBe('0.2s');
  await expect.poll(() => guesses.allTextContents()).not.toEqual(before);
  await expect(guesses).toHaveCount(6);
});

test('history: searches are added newest first, the arrow shows at 5, one or all can be removed', async ({
  page,
  context,
}) => {
  const input = await openPanel(page);
  const words = ['历史一', '历史二', '历史三', '历史四'];
  for (const w of words) {
    await input.fill(w);
    const opened = await newWindow(context, () => input.press('Enter'));
    await opened.close();
  }
  await input.fill('');
  await expect(panel(page)).toBeVisible();
  const history = panel(page).locator('section', { has: page.getByRole('heading', { name: '历史记录' }) });
  const entry = (text: string) => history.getByRole('button', { name: text, exact: true });
  await expect(history.getByRole('listitem').first()).toHaveText('历史四');
  const expand = history.getByRole('button', { name: '展开全部历史记录' });
  await expect(expand).toHaveCount(0);

  // A repeated search moves up instead of appearing twice; a fifth entry brings the arrow.
  for (const w of ['历史二', '历史五']) {
    await input.fill(w);
    const opened = await newWindow(context, () => input.press('Enter'));
    await opened.close();
  }
  await input.fill('');
  await expect(expand).toBeVisible();
  // Folded: the four newest; the arrow unfolds the fifth.
  const removers = history.getByRole('button', { name: /^删除 / });
  await expect(removers).toHaveCount(4);
  await expect(entry('历史一')).toHaveCount(0);
  await expand.click();
  await expect(removers).toHaveCount(5);
  expect(await history.locator('li > button:not([aria-label])').allTextContents()).toEqual([
    '历史五',
    '历史二',
    '历史四',
    '历史三',
    '历史一',
  ]);

  await history.getByRole('button', { name: '删除 历史三' }).click();
  await expect(entry('历史三')).toHaveCount(0);
  await expect(history.getByRole('button', { name: /展开全部历史记录|收起历史记录/ })).toHaveCount(0);
  // Local only: the list survives a reload.
  await page.reload();
  await box(page).click();
  await expect(entry('历史五')).toBeVisible();
  await history.getByRole('button', { name: '全部删除' }).click();
  await expect(panel(page).getByRole('heading', { name: '历史记录' })).toHaveCount(0);
  expect(['[]', null]).toContain(await page.evaluate(() => localStorage.getItem('sy.search-history')));
});

test('热搜 shows 6 words, ranks 1-3 highlighted with icons, and a hot word searches in a new window', async ({
  page,
  context,
}) => {
  await openPanel(page);
  await expect(hotButtons(page)).toHaveCount(6);
  const accent = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--c-accent').trim(),
  );
  expect(accent).not.toBe('');
  for (let rank = 1; rank <= 6; rank++) {
    const button = hotButtons(page).nth(rank - 1);
    await expect(button).toHaveAttribute('data-rank', String(rank));
    await expect(button).toHaveAttribute('data-top', String(rank <= 3));
    await expect(button.locator('svg')).toHaveCount(rank <= 3 ? 1 : 0);
  }
  const color = (rank: number) =>
    hotButtons(page)
      .nth(rank - 1)
      .locator('span')
      .first()
      .evaluate((el) => getComputedStyle(el).color);
  expect(await color(1)).toBe(await color(3));
  expect(await color(1)).not.toBe(await color(4));

  const word = (await hotButtons(page).first().locator('span').nth(3).textContent())!;
  const results = await newWindow(context, () => hotButtons(page).first().click());
  await expect(results).toHaveURL(new RegExp(`/search/${encodeURIComponent(word)}$`));
  await results.close();
});

test('a word searched often enough enters 热搜', async ({ page, request }) => {
  const word = `冲榜词${Date.now() % 100_000}`;
  // Each search adds about 1.1 to a word's heat now (1 for the day, 0.1 for the week): enough of them to pass today's
  // top word, whatever earlier tests (or an earlier try of this one) searched.
  const hot = await (await request.get(`${W}/hot/search/list/`, { params: { count: 1 } })).json();
  const top: number = hot.data.word_list[0]?.hot_value ?? 0;
  const searches = Math.max(40, Math.ceil(top / 11_000) + 10);
  for (let i = 0; i < searches; i++) {
    const res = await request.get(`${W}/general/search/single/`, { params: { keyword: word, count: 1 } });
    expect(res.status()).toBe(200);
  }
  await expect(async () => {
    await openPanel(page);
    await expect(hotButtons(page).first()).toContainText(word, { timeout: 2000 });
  }).toPass({ timeout: 30_000 });
});

test('a seeded hashtag finds its videos, with the keyword highlighted', async ({ page, request }) => {
  await page.goto('/discover');
  const href = await page.locator('main a[href^="/video/"]').first().getAttribute('href');
  const id = href!.split('/').pop();
  const detail = await (await request.get(`${W}/aweme/detail/`, { params: { aweme_id: id! } })).json();
  const tag: string = detail.aweme_detail.text_extra[0].hashtag_name;

  await page.goto(`/search/${encodeURIComponent(tag)}?type=video`);
  await expect(page).toHaveTitle(new RegExp(`^${tag} - 搜索结果`));
  const cards = page.locator('#search-video-grid > li');
  expect(await cards.count()).toBeGreaterThan(0);
  // Every result holds each character pair of the tag in one field (title, hashtags or author); the best ones in the title.
  const pairs = Array.from({ length: Math.max([...tag].length - 1, 1) }, (_, i) => [...tag].slice(i, i + 2).join(''));
  for (const text of await cards.locator('article').allTextContents())
    for (const pair of pairs) expect(text).toContain(pair);
  await expect(cards.first().locator('article > a:nth-of-type(2)')).toContainText(tag);
  await expect(cards.first().locator('mark').first()).toBeVisible();
  // The tagged video itself is among the results (they are ranked, so page through them).
  await expect(async () => {
    await page.mouse.wheel(0, 4000);
    await expect(page.locator(`#search-video-grid a[href="/video/${id}"]`).first()).toBeAttached({ timeout: 500 });
  }).toPass({ timeout: 15_000 });
});

test('the results page: tabs in the URL, users with follow buttons, its own box searching in place, 暂无内容', async ({
  page,
}) => {
  await page.goto(`/search/${encodeURIComponent('美食')}`);
  await expect(page.locator('#site-header')).toHaveCount(0);
  const own = box(page);
  await expect(own).toHaveValue('美食');
  const tabs = page.getByRole('navigation', { name: '搜索结果分类' });
  await expect(tabs.getByRole('link')).toHaveText(['综合', '视频', '用户']);
  await expect(tabs.getByRole('link', { name: '综合' })).toHaveAttribute('aria-current', 'page');

  // A nickname suffix the seed uses, so the user tab has rows.
  await own.fill('小王');
  await own.press('Enter');
  await expect(page).toHaveURL(/\/search\/%E5%B0%8F%E7%8E%8B$/);
  await tabs.getByRole('link', { name: '用户' }).click();
  await expect(page).toHaveURL(/\?type=user$/);
  await expect(tabs.getByRole('link', { name: '用户' })).toHaveAttribute('aria-current', 'page');
  const users = page.getByRole('list', { name: '用户' }).getByRole('listitem');
  expect(await users.count()).toBeGreaterThan(0);
  await expect(users.first().locator('mark')).toHaveText('小王');
  await expect(users.first().getByRole('button', { name: '关注' })).toBeVisible();

  await page.goto(`/search/${encodeURIComponent('完全不存在的词语组合')}`);
  await expect(page.getByText('暂无内容')).toBeVisible();
  await expect(page).toHaveTitle(/^完全不存在的词语组合 - 搜索结果/);
});

test('the results scroll on: later pages append without repeats', async ({ page }) => {
  await page.goto(`/search/${encodeURIComponent('的')}?type=video`);
  const cards = page.locator('#search-video-grid > li');
  await expect(cards).toHaveCount(24);
  await expect(async () => {
    await page.mouse.wheel(0, 6000);
    expect(await cards.count()).toBeGreaterThan(24);
  }).toPass({ timeout: 10_000 });
  const hrefs = await cards
    .locator('article > a:first-child')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(new Set(hrefs).size).toBe(hrefs.length);
});
