import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { pageRoutes } from './routes.ts';
import { expect, test, holdEachVideo, loginDemo, newAccount, signIn, type Session } from './support.ts';

// The phone layout: below 768 px a bottom tab bar replaces the sidebar and the feed fills the screen.
// No service worker: it would answer the script requests that a test holds back with page.route.
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, serviceWorkers: 'block' });
let api: APIRequestContext;
let demo: Session;

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  demo = await loginDemo(api);
});

test.afterAll(async () => {
  await api.dispose();
});

const active = (page: Page) => page.locator('article[data-active="true"]');
const tabBar = (page: Page) => page.getByRole('navigation', { name: '底部导航' });

/** A one-finger vertical swipe over the middle of the screen, as real touch input (it also makes pointer events). */
async function swipe(page: Page, dy: number, ms = 200): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const x = 150;
  const y = 420;
  const steps = 8;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
  for (let i = 1; i <= steps; i++) {
    await page.waitForTimeout(ms / steps);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y: y + (dy * i) / steps }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

async function box(el: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await el.boundingBox();
  expect(b, 'the element is laid out').not.toBeNull();
  return b!;
}

test('the feed fills the screen between header and tab bar, and pages by swipe: up is next, down goes back', async ({
  page,
}) => {
  // Hold the feed's island back, so the first swipe lands on the server's markup before it hydrates.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/_astro\/Feed\.[^/]*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await holdEachVideo(page);
  await page.goto('/');
  const feed = page.locator('section[aria-roledescription="carousel"]');
  const f = await box(feed);
  const bar = await box(tabBar(page));
  expect(f).toMatchObject({ x: 0, y: 0, width: 390 });
  expect(f.height + bar.height).toBeCloseTo(844, 0);
  expect(bar.y + bar.height).toBeCloseTo(844, 0);
  // The author's name stays on one line over the video.
  const name = active(page).locator('a[href^="/user/"]').filter({ hasText: '@' });
  expect((await box(name)).height).toBeLessThan(40);
  // No buttons beside the video: a phone swipes.
  await expect(page.getByRole('button', { name: '下一个视频' })).toBeHidden();

  await swipe(page, -250);
  await expect(feed.locator('xpath=ancestor::astro-island')).toHaveAttribute('ssr', '');
  release();
  await expect(active(page)).toHaveAttribute('data-index', '1');
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr] [data-active]'));

  await swipe(page, -250);
  await expect(active(page)).toHaveAttribute('data-index', '2');
  await swipe(page, 250);
  await expect(active(page)).toHaveAttribute('data-index', '1');
  // A short, slow drag is not a swipe.
  await swipe(page, -40, 600);
  await page.waitForTimeout(400);
  await expect(active(page)).toHaveAttribute('data-index', '1');
});

test('the tab bar leads to each tab and marks the current one; 消息 opens the messages', async ({ page, context }) => {
  await signIn(context, demo);
  await page.goto('/discover');
  const tabs = tabBar(page);
  await expect(tabs).toBeVisible();
  await expect(page.getByRole('navigation', { name: '主导航' })).toBeHidden();
  // 首页 holds every section of the header's strip; the strip marks the section.
  await expect(tabs.getByRole('link', { name: '首页' })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('navigation', { name: '频道' }).getByRole('link', { name: '精选' })).toHaveAttribute(
    'aria-current',
    'page',
  );

  for (const [name, url] of [
    ['朋友', '/friend'],
    ['投稿', '/post'],
    ['我', '/user/self'],
    ['首页', '/'],
  ] as const) {
    await tabs.getByRole('link', { name, exact: true }).tap();
    await expect(page).toHaveURL(url);
    await expect(tabBar(page).getByRole('link', { name, exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(tabBar(page).locator('[aria-current]')).toHaveCount(1);
  }

  await tabBar(page).getByRole('button', { name: '消息' }).tap();
  await expect(page.locator('#pop-message')).toBeVisible();
  await expect(page.locator('#pop-message').getByRole('heading', { name: '私信' })).toBeVisible();
});

test('the messages fill their panel on a phone: the list alone, then its avatar rail beside the chat, with thumb-sized buttons', async ({
  page,
  context,
}) => {
  await signIn(context, demo);
  await page.goto('/discover');
  await tabBar(page).getByRole('button', { name: '消息' }).tap();
  const panel = page.locator('#pop-message [data-dm-panel]');
  const list = panel.getByRole('region', { name: '私信' });
  const first = list.locator('[data-conversation]').first();
  await expect(first).toBeVisible();
  // No chat open: the list is the whole panel, and there is nothing to fold it for.
  const whole = await box(panel);
  expect((await box(list)).width).toBeGreaterThanOrEqual(whole.width - 1);
  await expect(list.getByRole('button', { name: '收起会话列表' })).toHaveCount(0);

  await first.tap();
  const chat = panel.locator('[data-chat]');
  await expect(chat.getByRole('textbox')).toBeVisible();
  const rail = await box(list);
  const pane = await box(chat);
  expect(rail.width).toBeLessThanOrEqual(80);
  // The chat takes everything the rail leaves, up to the panel's edge.
  expect(pane.x + pane.width).toBeGreaterThanOrEqual(whole.x + whole.width - 1);
  // The pane's own controls. A message's actions, shown when it is tapped, sit beside its bubble at their own size.
  for (const name of ['退出会话', '更多', '表情', '发送']) {
    const b = await box(chat.getByRole('button', { name, exact: true }));
    expect(Math.min(b.width, b.height), name).toBeGreaterThanOrEqual(44);
  }
});

test('logged out, 我 opens the login dialog', async ({ page }) => {
  await page.goto('/discover');
  await tabBar(page).getByRole('link', { name: '我', exact: true }).tap();
  await expect(page.getByRole('dialog', { name: '登录后免费畅享高清视频' })).toBeVisible();
  await expect(page).toHaveURL('/discover');
});

test('设置 opens from the 我 page, without the sidebar, and switches the theme', async ({ page }) => {
  await page.goto('/user/self');
  await page.getByRole('button', { name: '设置', exact: true }).tap();
  const menu = page.getByRole('dialog', { name: '设置菜单' });
  await expect(menu).toBeVisible();
  expect((await box(menu)).y + (await box(menu)).height).toBeLessThanOrEqual((await box(tabBar(page))).y);
  await menu.getByRole('radio', { name: '深色' }).tap();
  await expect(page.locator('html')).toHaveAttribute('dark', 'true');
});

test('the header turns compact: logo, sections, a search icon that opens the search box', async ({ page, context }) => {
  await page.goto('/discover');
  const header = page.locator('#site-header');
  expect((await box(header)).height).toBe(56);
  await expect(page.locator('#header-search-input')).toBeHidden();
  await header.getByRole('button', { name: '搜索' }).tap();
  const input = page.locator('#header-search-input');
  await expect(input).toBeFocused();
  // The focus wakes the search island, which opens its panel (history, 热搜) under the box.
  await expect(page.getByRole('dialog', { name: '搜索推荐' })).toBeVisible();
  await input.fill('美食');
  // Results open in a new window, as from the wide header.
  const [results] = await Promise.all([context.waitForEvent('page'), input.press('Enter')]);
  await expect(results).toHaveURL(/\/search\/%E7%BE%8E%E9%A3%9F/);
  // 取消 closes the box and gives the header back.
  await header.getByRole('button', { name: '取消' }).tap();
  await expect(input).toBeHidden();
  await expect(header.getByRole('button', { name: '搜索' })).toBeFocused();
});

test('the section strip opens with the current section whole and in its middle, and still scrolls', async ({
  page,
}) => {
  const strip = page.getByRole('navigation', { name: '频道' });
  await page.goto('/channel/300204');
  const food = strip.getByRole('link', { name: '美食' });
  await expect(food).toHaveAttribute('aria-current', 'page');
  const [area, item] = [await box(strip), await box(food)];
  expect(Math.abs(item.x + item.width / 2 - (area.x + area.width / 2))).toBeLessThanOrEqual(2);
  // A finger drags the strip back to its start.
  const cdp = await page.context().newCDPSession(page);
  const y = area.y + area.height / 2;
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: area.x + 20, y }] });
  for (let i = 1; i <= 8; i++)
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: area.x + 20 + i * 20, y }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect.poll(() => strip.evaluate((el) => el.scrollLeft)).toBeLessThan(400);

  // The first section has no room to its left: the strip stays at its start, the section whole.
  await page.goto('/');
  const recommend = strip.getByRole('link', { name: '推荐' });
  await expect(recommend).toHaveAttribute('aria-current', 'page');
  expect(await strip.evaluate((el) => el.scrollLeft)).toBe(0);
  expect((await box(recommend)).x).toBeGreaterThanOrEqual((await box(strip)).x);
});

test('at 768 px and wider the sidebar is back and the tab bar gone', async ({ page }) => {
  await page.setViewportSize({ width: 768, height: 900 });
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: '主导航' })).toBeVisible();
  await expect(tabBar(page)).toBeHidden();
  await expect(page.getByRole('navigation', { name: '频道' })).toBeHidden();
  await page.setViewportSize({ width: 767, height: 900 });
  await expect(tabBar(page)).toBeVisible();
  await expect(page.getByRole('navigation', { name: '主导航' })).toBeHidden();
});

/** Each target of `lists` measures at least 44 px both ways (soft: every small one is reported). */
async function expectThumbSized(lists: Locator[]): Promise<void> {
  for (const list of lists) {
    // One read per list: the targets are measured together, as laid out at that moment.
    const targets = await list.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return {
          width: r.width,
          height: r.height,
          label: el.getAttribute('aria-label') ?? (el as HTMLElement).innerText,
        };
      }),
    );
    expect(targets.length).toBeGreaterThan(0);
    for (const { width, height, label } of targets)
      expect
        .soft(Math.round(Math.min(width, height)), `${label} (${Math.round(width)}×${Math.round(height)})`)
        .toBeGreaterThanOrEqual(44);
  }
}

test('thumb-sized targets: the tab bar, the header and the feed’s actions and controls are at least 44 px', async ({
  page,
  context,
}) => {
  // A member who is not the author of the feed's first video (the demo account's own work opens it: no 关注 there).
  await signIn(context, await newAccount(api, 'thumbs'));
  await page.goto('/');
  await expectThumbSized([
    tabBar(page).locator('a, button'),
    page.locator('#site-header').locator('a, button').filter({ visible: true }),
    active(page).getByRole('list', { name: '视频操作' }).locator(':scope > li > button'),
    active(page).getByRole('group', { name: '播放控制' }).locator('button').filter({ visible: true }),
    active(page).getByRole('button', { name: '关注' }),
  ]);
});

/** A seeded video whose first comments include one with replies, and the demo account's own comment on it. */
async function videoWithReplies(): Promise<string> {
  const feed = await (await api.post('/api/video/getVideosByCursor', { form: { cursor: 0, size: 50 } })).json();
  for (const { id } of feed.data as { id: number }[]) {
    const list = await (await api.get(`/api/aweme/v1/web/comment/list/?aweme_id=${id}&cursor=0&count=20`)).json();
    if (!list.comments?.some((c: { reply_comment_total: number }) => c.reply_comment_total > 0)) continue;
    const own = await api.post('/api/aweme/v1/web/comment/publish', {
      headers: { Token: demo.token },
      form: { aweme_id: String(id), text: `拇指大小 ${Date.now()}` },
    });
    expect(own.status()).toBe(200);
    return String(id);
  }
  throw new Error('no seeded video with replies among the first 50');
}

/** A comment area's targets: each row's name, 赞, 回复 and 删除, the replies' 展开 and 收起, the composer's buttons. */
async function commentTargets(column: Locator): Promise<Locator[]> {
  await expect(column.locator('article[data-cid]').first()).toBeVisible();
  const expand = column.getByRole('button', { name: /展开\d+条回复/ }).first();
  await expand.click();
  await expect(column.getByRole('button', { name: '收起' }).first()).toBeVisible();
  const rows = column.locator('article[data-cid]');
  return [
    rows.locator(':scope > div > p:first-child > a'),
    rows.locator('button').filter({ visible: true }),
    column.getByRole('button', { name: '收起' }),
    column.locator('form button').filter({ visible: true }),
  ];
}

test('thumb-sized targets in the comment rows, on the video page and in the feed’s comment panel', async ({
  page,
  context,
}) => {
  test.setTimeout(60_000);
  await signIn(context, demo);
  const id = await videoWithReplies();
  await page.goto(`/video/${id}`);
  const column = page.locator(`[data-comments="${id}"]`);
  await column.scrollIntoViewIfNeeded();
  // The column hydrates on interaction.
  await column.getByRole('heading').click();
  await expect(page.locator('astro-island', { has: column })).not.toHaveAttribute('ssr', '');
  await expectThumbSized(await commentTargets(column));
  await expect(column.getByRole('button', { name: '删除' }).first()).toBeVisible();

  await page.goto('/');
  await active(page).getByRole('list', { name: '视频操作' }).getByRole('button', { name: /评论/ }).tap();
  const panel = page.locator('section[data-comments]').filter({ visible: true });
  await expect(panel.getByRole('heading', { name: /评论/ })).toBeVisible();
  await expectThumbSized([panel.getByRole('button', { name: '关闭评论' }), ...(await commentTargets(panel))]);
});

test('the comment column below the first screen holds its skeleton still until it wakes, then loads', async ({
  page,
  context,
}) => {
  await signIn(context, demo);
  const id = await videoWithReplies();
  await page.goto(`/video/${id}`);
  await page.waitForLoadState('load');
  const column = page.locator(`[data-comments="${id}"]`);
  const island = page.locator('astro-island', { has: column });
  // Asleep: grey rows, drawn once. A pulse would have the compositor draw every frame for rows nobody sees.
  await expect(island).toHaveAttribute('ssr', '');
  const rows = column.locator('li.animate-pulse');
  await expect(rows.first()).toBeAttached();
  expect(await rows.evaluateAll((els) => [...new Set(els.map((e) => getComputedStyle(e).animationName))])).toEqual([
    'none',
  ]);
  // Scrolled to, it wakes and its comments take the skeleton's place.
  await column.scrollIntoViewIfNeeded();
  await expect(island).not.toHaveAttribute('ssr', '');
  await expect(column.locator('article[data-cid]').first()).toBeVisible();
});

for (const [width, loggedIn] of [
  [390, true],
  [360, true],
  [360, false],
] as const) {
  test(`no route scrolls sideways at ${width} px (${loggedIn ? 'logged in' : 'logged out'})`, async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    if (loggedIn) await signIn(context, demo);
    await page.setViewportSize({ width, height: 780 });
    const routes = await pageRoutes(api);
    expect(routes.length).toBeGreaterThan(25);
    const wide: string[] = [];
    for (const route of routes) {
      await page.goto(route);
      const { scroll, inner } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        inner: innerWidth,
      }));
      // A page wider than the screen would also widen innerWidth on a phone (it zooms out to fit): check both.
      if (scroll > width || inner !== width) wide.push(`${route}: ${scroll} / ${inner}`);
    }
    expect(wide).toEqual([]);
  });
}
