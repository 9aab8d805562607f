/**
 * Defects a new user hit going through every route, in both themes, on a desktop and a phone: each test is one of
 * them, as the user saw it. (Blank lines, suggestions, the 私信 hint, /post's refused file and 热点 are held by
 * tests/api/blank-lines.test.ts, services/suggest.test.ts, messages.spec.ts, studio.spec.ts and pages.spec.ts.)
 */
import type { APIRequestContext } from '@playwright/test';
import pg from 'pg';
import { e2eDatabaseUrl, expect, loginDemo, newAccount, signIn, test, type Session } from './support.ts';

let api: APIRequestContext;
let demo: Session;
let db: pg.Client;

const PHONE = { width: 390, height: 844 };

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  demo = await loginDemo(api);
  db = new pg.Client({ connectionString: e2eDatabaseUrl()! });
  await db.connect();
});

test.afterAll(async () => {
  await db?.end();
  await api?.dispose();
});

/** One of the demo account's own public works. */
async function ownWork(): Promise<string> {
  const body = await (await api.get(`/api/aweme/v1/web/aweme/post/?sec_user_id=${demo.user.sec_uid}&count=1`)).json();
  return body.aweme_list[0].aweme_id;
}

test('关注 is never shown beside my own name: on my work’s page and on my profile', async ({ browser }) => {
  const context = await browser.newContext();
  await signIn(context, demo);
  const page = await context.newPage();
  await page.goto(`/video/${await ownWork()}`);
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: demo.user.nickname }).first()).toBeVisible();
  await expect(main.getByRole('button', { name: '关注', exact: true })).toBeHidden();
  await page.goto(`/user/${demo.user.sec_uid}`);
  await expect(main.getByRole('heading', { name: demo.user.nickname })).toBeVisible();
  await expect(main.getByRole('button', { name: '关注', exact: true })).toBeHidden();
  // Someone else's work still offers it.
  const other = await (await api.get('/api/aweme/v1/web/tab/feed/?count=6&refresh_index=1')).json();
  const theirs = other.aweme_list.find((a: { author: { sec_uid: string } }) => a.author.sec_uid !== demo.user.sec_uid);
  await db.query('delete from follows where follower_id = $1 and followee_id = $2', [
    Number(demo.user.uid),
    Number(theirs.author.uid),
  ]);
  await page.goto(`/video/${theirs.aweme_id}`);
  await expect(main.getByRole('button', { name: '关注', exact: true }).first()).toBeVisible();
  await context.close();
});

test('发布时间 is the site’s day (Asia/Shanghai), not UTC’s: published 01:15 Beijing time shows that day', async ({
  browser,
}) => {
  const id = await ownWork();
  const { rows } = await db.query<{ created_at: Date }>('select created_at from videos where id = $1', [id]);
  // Logged in: the date is written behind the server's back, and a visitor may be served the page another spec's
  // visit left in the shared page cache; a member's page is rendered for them.
  const context = await browser.newContext();
  await signIn(context, demo);
  try {
    // 2024-04-01 01:15 in Beijing is 2024-03-31 17:15 UTC.
    await db.query(`update videos set created_at = '2024-03-31T17:15:00Z' where id = $1`, [id]);
    const page = await context.newPage();
    await page.goto(`/video/${id}`);
    await expect(page.getByText(/^发布时间：/)).toHaveText('发布时间：2024-04-01');
  } finally {
    await context.close();
    await db.query('update videos set created_at = $2 where id = $1', [id, rows[0]!.created_at]);
  }
});

test('/settings at 390 px, logged out: 登录 stays on one line, and 默认页面 shows no raw paths', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/settings');
  const login = page.getByRole('main').getByRole('button', { name: '登录', exact: true });
  await expect(login).toBeVisible();
  expect(
    await login.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    }),
  ).toBe(1);
  const choices = page.locator('#default-page');
  await expect(choices).toContainText('推荐');
  await expect(choices).not.toContainText('/discover');
});

test('the phone’s section strip fades at its ends and shows the current entry whole', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/channel/300209');
  const strip = page.getByRole('navigation', { name: '频道' });
  const mask = await strip.evaluate((el) => getComputedStyle(el).maskImage || getComputedStyle(el).webkitMaskImage);
  expect(mask).toContain('linear-gradient');
  const current = strip.locator('[aria-current="page"]');
  const [box, item] = [await strip.boundingBox(), await current.boundingBox()];
  // Whole and clear of the 20 px fades.
  expect(item!.x).toBeGreaterThanOrEqual(box!.x + 20 - 1);
  expect(item!.x + item!.width).toBeLessThanOrEqual(box!.x + box!.width - 20 + 1);
});

test('J clears the screen on /video/{id} and brings it back', async ({ page }) => {
  await page.goto(`/video/${await ownWork()}`);
  const player = page.locator('[data-player]');
  await player.hover();
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr] [data-player]'));
  const bar = player.locator('.player-bar');
  await page.keyboard.press('j');
  await expect(bar).toHaveAttribute('data-cleared', 'true');
  await page.mouse.move(0, 0);
  await expect(bar).toHaveCSS('opacity', '0');
  await page.keyboard.press('j');
  await expect(bar).not.toHaveAttribute('data-cleared', 'true');
});

test('Esc leaves the search box after Shift+F, so the keys work again', async ({ page }) => {
  await page.goto('/');
  await page.locator('section[aria-roledescription="carousel"]').hover();
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr] [data-active]'));
  await page.keyboard.press('Shift+F');
  await expect(page.locator('#header-search-input')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.locator('#header-search-input')).not.toBeFocused();
});

test('on a phone the video page keeps no floating mini player over the comments', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto(`/video/${await ownWork()}`);
  const player = page.locator('[data-player]');
  // Woken without a click (a click would pause it, and a paused video gets no mini player anyway).
  await player.hover();
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr] [data-player]'));
  await expect.poll(() => player.locator('video').evaluate((v: HTMLVideoElement) => !v.paused)).toBe(true);
  await page.locator('#comments').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await expect(player).not.toBeInViewport();
  await expect(page.locator('#comments')).toBeInViewport();
  await expect(page.locator('.mini-player')).toHaveCount(0);
  await expect(player).toHaveAttribute('data-mini', 'false');
});

test('the login dialog keeps its height from tab to tab', async ({ page }) => {
  await page.goto('/discover');
  await page.getByRole('button', { name: '登录', exact: true }).first().click();
  // By name: the pointer left on the header may open its 未登录 card, a dialog too.
  const dialog = page.getByRole('dialog', { name: '登录后免费畅享高清视频' });
  await expect(dialog.getByRole('tab', { name: '密码登录' })).toBeVisible();
  const heights: number[] = [];
  for (const tab of ['密码登录', '验证码登录', '扫码登录', '密码登录']) {
    await dialog.getByRole('tab', { name: tab }).click();
    await expect(dialog.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
    if (tab === '扫码登录') await expect(dialog.getByRole('img', { name: /二维码/ })).toBeVisible();
    heights.push(Math.round((await dialog.boundingBox())!.height));
  }
  expect(new Set(heights).size, heights.join(', ')).toBe(1);
});

test('the feedback confirmation promises a reply only when a contact was left', async ({ page }) => {
  // Every spec sends from one address, and the feedback spec fills its window on purpose: this visitor starts anew.
  await db.query(`delete from rate_limits where key like 'feedback:ip:%'`);
  await page.goto('/discover');
  await page.getByRole('button', { name: '设置' }).first().click();
  await page.getByRole('button', { name: '意见反馈' }).click();
  const dialog = page.getByRole('dialog', { name: '意见反馈' });
  await dialog.getByRole('textbox').first().fill('希望搜索结果可以按时间排序，谢谢');
  await dialog.getByRole('button', { name: '提交' }).click();
  await expect(dialog.getByText('感谢你的反馈！')).toBeVisible();
  await expect(dialog.getByText('我们会认真阅读每一条意见，用于改进闪映。')).toBeVisible();
  await expect(dialog.getByText(/通过你留下的联系方式/)).toBeHidden();
});

test('/post on a phone asks to tap, not to drag, and never wraps a lone character', async ({ browser }) => {
  const context = await browser.newContext({ viewport: PHONE });
  await signIn(context, demo);
  const page = await context.newPage();
  await page.goto('/post');
  const zone = page.locator('[data-studio-zone]');
  await expect(zone).toBeVisible();
  await expect(zone.getByText(/拖入此区域/)).toBeHidden();
  await expect(zone.getByText('点击选择视频上传')).toBeVisible();
  await context.close();
});

test('the 私信 popover on a phone is as tall as what it holds', async ({ browser }) => {
  // A new member: no conversation yet, so the panel holds a line saying so.
  const member = await newAccount(api, 'dm-phone');
  const context = await browser.newContext({ viewport: PHONE });
  await signIn(context, member);
  const page = await context.newPage();
  await page.goto('/discover');
  await page.getByRole('navigation', { name: '底部导航' }).getByRole('button', { name: '消息' }).click();
  const panel = page.locator('[data-dm-panel]');
  await expect(panel).toBeVisible();
  await expect(panel.locator('[aria-busy="true"]')).toHaveCount(0);
  // Its 460 px left a mostly empty box on a phone (the panel learns it is on a phone once awake).
  await expect.poll(async () => (await panel.boundingBox())!.height).toBeLessThan(300);
  await context.close();
});

test('the FAQ answers about fifteen real questions', async ({ page }) => {
  await page.goto('/faq');
  expect(await page.locator('main details summary').count()).toBeGreaterThanOrEqual(15);
});
