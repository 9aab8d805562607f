import type { Page } from '@playwright/test';
import { expect, test } from './support.ts';

const NAV = [
  '首页',
  '推荐',
  '关注',
  '朋友',
  '我的',
  '直播',
  '放映厅',
  '知识',
  '热点',
  '游戏',
  '娱乐',
  '二次元',
  '音乐',
  '美食',
  '体育',
  '时尚',
];
const CHANNELS = ['300201', '300203', '300204', '300205', '300206', '300207', '300208', '300209'];

/** First link on /discover whose href starts with the prefix (real ids from the seed, never hard-coded). */
async function firstHref(page: Page, prefix: string): Promise<string> {
  await page.goto('/discover');
  const href = await page.locator(`main a[href^="${prefix}"]`).first().getAttribute('href');
  expect(href).toBeTruthy();
  return href!;
}

test('every route renders on the server with 200, unknown ones with 404', async ({ page, request }) => {
  const video = await firstHref(page, '/video/');
  const user = await firstHref(page, '/user/');
  const ok = [
    '/',
    '/discover',
    video,
    ...CHANNELS.map((c) => `/channel/${c}`),
    '/hot',
    '/live',
    '/vs',
    '/follow',
    '/friend',
    user,
    '/user/self',
    '/user/self?showTab=like',
    `/search/${encodeURIComponent('美食')}`,
    '/business',
    '/faq',
    '/post',
  ];
  for (const path of ok) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(200);
    expect(res.headers()['content-type'], path).toContain('text/html');
  }
  for (const path of [
    '/nope',
    '/channel/300202',
    '/channel/abc',
    '/video/0',
    '/video/abc',
    '/video/99999999',
    '/video/1%27%20or%201=1',
    '/user/no-such-user',
    '/a/b/c',
  ]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
    expect(await res.text(), path).toContain('页面不存在');
  }
});

test('the 404 page links back home', async ({ page }) => {
  const res = await page.goto('/definitely-not-here');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '页面不存在' })).toBeVisible();
  await page.getByRole('link', { name: '返回首页' }).click();
  await expect(page).toHaveURL(/\/discover$/);
});

test('the sidebar has the 16 entries in order and the active one follows the path', async ({ page }) => {
  await page.goto('/channel/300204');
  const nav = page.getByRole('navigation', { name: '主导航' });
  await expect(nav.getByRole('link')).toHaveText(NAV);
  await expect(nav.getByRole('link', { name: '美食' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
  await nav.getByRole('link', { name: '热点' }).click();
  await expect(page).toHaveURL(/\/hot$/);
  await expect(nav.getByRole('link', { name: '热点' })).toHaveAttribute('aria-current', 'page');
  await page.goto('/');
  await expect(nav.getByRole('link', { name: '推荐' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('separator')).toHaveCount(1);
});

test('the header is plain at scroll 0, scrolled beyond 60 px, and absent on search paths', async ({ page }) => {
  await page.goto('/discover');
  const header = page.locator('#site-header');
  await expect(header).toHaveAttribute('data-scrolled', 'false');
  const plain = await header.evaluate((el) => getComputedStyle(el).backgroundColor);
  await page.evaluate(() => window.scrollTo(0, 200));
  await expect(header).toHaveAttribute('data-scrolled', 'true');
  const scrolled = await header.evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(scrolled).not.toBe(plain);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(header).toHaveAttribute('data-scrolled', 'false');
  await page.goto(`/search/${encodeURIComponent('美食')}`);
  await expect(page.locator('#site-header')).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: '搜索你感兴趣的内容' })).toHaveValue('美食');
});

test('the theme switch survives a reload as dark="true" on <html>', async ({ page }) => {
  await page.goto('/discover');
  await expect(page.locator('html')).not.toHaveAttribute('dark', 'true');
  await page.getByRole('button', { name: '设置' }).click();
  await page.getByRole('radio', { name: '深色' }).click();
  await expect(page.locator('html')).toHaveAttribute('dark', 'true');
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('dark', 'true');
  await page.getByRole('button', { name: '设置' }).click();
  await page.getByRole('radio', { name: '浅色' }).click();
  await expect(page.locator('html')).not.toHaveAttribute('dark');
  await page.reload();
  await expect(page.locator('html')).not.toHaveAttribute('dark');
});

test('the first recommended video plays from its real source', async ({ page }) => {
  await page.goto('/');
  const video = page.locator('main video').first();
  await expect(video).toHaveAttribute('poster', /\/media\/seed\/posters\/\d+\.svg$/);
  await video.evaluate((v: HTMLVideoElement) => {
    v.muted = true;
    return v.play();
  });
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.3);
  expect(await video.evaluate((v: HTMLVideoElement) => v.videoWidth)).toBe(540);
});

test('a video page shows title, author, counts, related videos and comments', async ({ page }) => {
  const href = await firstHref(page, '/video/');
  await page.goto(href);
  await expect(page.getByRole('heading', { level: 1 })).not.toBeEmpty();
  await expect(page.getByRole('heading', { name: '相关推荐' })).toBeVisible();
  await expect(page.locator('aside a[href^="/video/"]').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: /全部评论/ })).toBeVisible();
  await expect(page.locator('#comments article').first()).toBeVisible();
});

test('lazy images get their source when scrolled into view', async ({ page }) => {
  await page.goto('/discover');
  // The images lazy at first, marked: scrolling to the end also appends the next page's cards, lazy in their turn.
  const before = await page
    .locator('main img[data-src]')
    .evaluateAll((images) => images.map((img) => img.setAttribute('data-lazy-probe', '')).length);
  expect(before).toBeGreaterThan(0);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await expect.poll(() => page.locator('main img[data-lazy-probe][data-src]').count()).toBeLessThan(before);
});

test('anonymous visitors get a login prompt on follow, friend and self', async ({ page }) => {
  for (const path of ['/follow', '/friend', '/user/self']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: '登录后免费畅享高清视频' })).toBeVisible();
  }
});

test('the header stays on top of a video page scrolled under it, player controls included', async ({ page }) => {
  const href = await firstHref(page, '/video/');
  await page.goto(href);
  // The player's own layers (progress bar, 弹幕 switch, 取消静音) pass under the header between these offsets.
  for (let y = 200; y <= 480; y += 20) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    const covered = await page.evaluate(() => {
      const header = document.getElementById('site-header')!;
      const targets = [...header.querySelectorAll<HTMLElement>('input, button, .header-entry, a')].filter(
        (el) => el.getClientRects().length > 0,
      );
      return targets
        .map((el) => {
          const box = el.getBoundingClientRect();
          const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
          return hit && !header.contains(hit)
            ? `${el.outerHTML.slice(0, 60)} under ${hit.outerHTML.slice(0, 80)}`
            : null;
        })
        .filter(Boolean);
    });
    expect(covered, `scrolled ${y} px`).toEqual([]);
  }
});
