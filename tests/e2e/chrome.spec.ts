/** Issue 7: the header's and the sidebar's chrome — popovers, settings, shortcuts, feedback, toasts, badges, install. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import pg from 'pg';
import { t } from '../../src/i18n/t.ts';
import { CLOSE_DELAY_MS } from '../../src/client/popover.ts';
import { FEEDBACK_RATE } from '../../src/server/services/feedback.ts';
import { expect, test, e2eDatabaseUrl, newAccount, signIn } from './support.ts';

const CONTENT = path.resolve('src/content');
const readJson = (file: string) => JSON.parse(readFileSync(path.join(CONTENT, file), 'utf8'));

/** The header's popover entries: accessible name, and whether the entry is a link (投稿 leads to /post). */
const POPOVERS = [
  { name: '客户端', link: false },
  { name: '更多', link: false },
  { name: '快捷访问', link: false },
  { name: '通知', link: false },
  { name: '私信', link: false },
  { name: '投稿', link: true },
] as const;

const banner = (page: Page) => page.getByRole('banner');
const trigger = (page: Page, name: string, link = false) =>
  link
    ? banner(page).getByRole('link', { name, exact: true })
    : banner(page).getByRole('button', { name: new RegExp(`^${name}`) });
/** The popover a trigger controls. */
async function popOf(page: Page, entry: Locator): Promise<Locator> {
  return page.locator(`#${await entry.getAttribute('aria-controls')}`);
}
/** Whether focus is inside `pop`. A keyboard open moves it there from the popover's toggle event, a task after it shows. */
const focusInside = (pop: Locator) => pop.evaluate((el) => el.contains(document.activeElement));
/**
 * A point of the page far from the header and the sidebar, on its right-hand padding: the click that light-dismisses a
 * popover also reaches what lies under it, and anywhere in the grid that is a video card's link, which would leave the
 * page the test is about for a video page still loading.
 */
const outside = { x: 1430, y: 700 };
/** Clicks `outside`, first making sure nothing there would act on the click. */
async function clickOutside(page: Page): Promise<void> {
  const hit = await page.evaluate(
    ({ x, y }) =>
      document
        .elementFromPoint(x, y)
        ?.closest('a[href], button, input, select, textarea, label, summary, [tabindex]:not([tabindex="-1"])')
        ?.outerHTML.slice(0, 120) ?? null,
    outside,
  );
  expect(hit, 'nothing under the outside point acts on a click').toBeNull();
  await page.mouse.click(outside.x, outside.y);
}

test.describe('header popovers', () => {
  for (const { name, link } of POPOVERS) {
    test(`${name}: opens by hover and by keyboard, closes by outside click, Esc and leaving`, async ({ page }) => {
      await page.goto('/discover');
      const entry = trigger(page, name, link);
      const pop = await popOf(page, entry);
      await expect(pop).toBeHidden();

      // Hover (after a short delay), then leaving closes it.
      await entry.hover();
      await expect(pop).toBeVisible();
      await expect(entry).toHaveAttribute('aria-expanded', 'true');
      expect(await focusInside(pop), 'hover does not steal focus').toBe(false);
      await page.mouse.move(outside.x, outside.y);
      await expect(pop).toBeHidden();

      // Hover, move into the popover (it stays), then an outside click closes it.
      await entry.hover();
      await expect(pop).toBeVisible();
      const box = (await pop.boundingBox())!;
      const anchor = (await entry.boundingBox())!;
      // Bottom-end: below the entry, right edges aligned (or clamped inside the window).
      expect(box.y).toBeGreaterThanOrEqual(anchor.y + anchor.height);
      expect(Math.abs(box.x + box.width - (anchor.x + anchor.width))).toBeLessThan(2);
      // Straight down across the gap into the popover, then across it.
      await page.mouse.move(anchor.x + anchor.width / 2, box.y + 12, { steps: 2 });
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
      await page.waitForTimeout(400);
      await expect(pop).toBeVisible();
      await clickOutside(page);
      await expect(pop).toBeHidden();

      // Keyboard: Enter on a button (ArrowDown on the 投稿 link, whose Enter navigates) opens it with focus inside.
      await page.mouse.move(outside.x, outside.y);
      await entry.focus();
      await page.keyboard.press(link ? 'ArrowDown' : 'Enter');
      await expect(pop).toBeVisible();
      await expect.poll(() => focusInside(pop), 'focus moves in once the popover has opened').toBe(true);
      await page.keyboard.press('Escape');
      await expect(pop).toBeHidden();
      await expect(entry).toBeFocused();
      await expect(entry).toHaveAttribute('aria-expanded', 'false');

      // Keyboard again, closed by an outside click.
      await page.keyboard.press(link ? 'ArrowDown' : 'Enter');
      await expect(pop).toBeVisible();
      await clickOutside(page);
      await expect(pop).toBeHidden();
    });
  }

  test('one popover at a time, and a click on a hovered entry keeps it open', async ({ page }) => {
    await page.goto('/discover');
    const client = trigger(page, '客户端');
    const more = trigger(page, '更多');
    const clientPop = await popOf(page, client);
    const morePop = await popOf(page, more);
    await client.hover();
    await expect(clientPop).toBeVisible();
    await client.click();
    await expect(clientPop).toBeVisible();
    await more.hover();
    await expect(morePop).toBeVisible();
    await expect(clientPop).toBeHidden();
    // Opening a popover shifts nothing on the page.
    const before = await page.locator('main').boundingBox();
    await trigger(page, '快捷访问').hover();
    expect(await page.locator('main').boundingBox()).toEqual(before);
  });

  test('the settings menu opens by hover and keyboard and closes by outside click and Esc', async ({ page }) => {
    await page.goto('/discover');
    const entry = page.getByRole('button', { name: '设置', exact: true });
    const menu = page.getByRole('dialog', { name: '设置菜单' });
    await entry.hover();
    await expect(menu).toBeVisible();
    await clickOutside(page);
    await expect(menu).toBeHidden();
    await entry.focus();
    await page.keyboard.press('Enter');
    await expect(menu).toBeVisible();
    await expect.poll(() => focusInside(menu), 'focus moves in once the menu has opened').toBe(true);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(entry).toBeFocused();
    await entry.click();
    for (const item of ['隐私设置', '通知设置', '常见问题'])
      await expect(menu.getByRole('link', { name: item })).toBeVisible();
    await expect(menu.getByRole('radiogroup', { name: '主题' })).toBeVisible();
    await expect(menu.getByRole('radiogroup', { name: '默认页面' })).toBeVisible();
    await expect(menu.getByRole('button', { name: '快捷键' })).toBeVisible();
    await expect(menu.getByRole('button', { name: '意见反馈' })).toBeVisible();
  });
});

test.describe('a keyboard open, whatever came just before it', () => {
  for (const dismissed of [false, true]) {
    test(`is not closed by the close the pointer scheduled on leaving a hover open${dismissed ? ', dismissed before the key' : ''}`, async ({
      page,
    }) => {
      await page.goto('/discover');
      const entry = page.getByRole('button', { name: '设置', exact: true });
      const menu = page.getByRole('dialog', { name: '设置菜单' });
      await entry.hover();
      await expect(menu).toBeVisible();
      // One task, so however slow the machine all of it comes within the close delay: the pointer leaves the entry,
      // (an outside click dismisses the menu,) then Enter on the focused entry, which a button receives as a click of detail 0.
      await entry.evaluate((el, dismiss) => {
        el.dispatchEvent(new PointerEvent('pointerleave', { pointerType: 'mouse' }));
        if (dismiss) document.getElementById(el.getAttribute('aria-controls')!)!.hidePopover();
        el.focus();
        el.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, view: window, detail: 0 }));
      }, dismissed);
      // A page timer due later than the close delay runs after any close the leaving scheduled.
      await page.evaluate((ms) => new Promise((resolve) => setTimeout(resolve, ms)), CLOSE_DELAY_MS + 50);
      await expect(menu).toBeVisible();
      expect(await focusInside(menu), 'focus is in the menu').toBe(true);
      await expect(entry).toHaveAttribute('aria-expanded', 'true');
    });
  }

  for (const key of [true, false]) {
    test(`made before the chrome’s script has run: ${key ? 'focus moves in once it runs' : 'a click’s open leaves focus where it was'}`, async ({
      page,
    }) => {
      // Hold the chrome's script, as a slow network or a busy machine does while the page is still loading.
      let requested = false;
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/_astro/ChromeRuntime*.js', async (route) => {
        requested = true;
        await held;
        await route.continue();
      });
      await page.goto('/discover', { waitUntil: 'commit' });
      const entry = page.getByRole('button', { name: '设置', exact: true });
      const menu = page.locator('#settings-pop');
      await expect.poll(() => requested, 'the chrome’s script is on hold').toBe(true);
      if (key) {
        await entry.focus();
        await page.keyboard.press('Enter');
      } else {
        await entry.click();
      }
      // The platform opens it on its own (popovertarget), with focus left on the entry.
      await expect(menu).toBeVisible();
      await expect(entry).toBeFocused();
      release();
      await expect(entry).toHaveAttribute('aria-expanded', 'true');
      await expect(menu.getByRole('radiogroup', { name: '主题' })).toBeVisible();
      if (!key) {
        await expect(entry).toBeFocused();
        return;
      }
      await expect
        .poll(() => focusInside(menu), 'focus moves in once the script has run and the menu has its contents')
        .toBe(true);
      await page.keyboard.press('Escape');
      await expect(menu).toBeHidden();
      await expect(entry).toBeFocused();
      await expect(entry).toHaveAttribute('aria-expanded', 'false');
    });
  }
});

test('客户端, 快捷访问 and 更多 offer only what leads somewhere', async ({ page }) => {
  const desktop = (readJson('downloads.json') as { id: string; version: string; arch: string }[]).find(
    (d) => d.id === 'desktop',
  )!;
  expect(desktop.version).toBe('2.8.0');
  await page.goto('/discover');
  await trigger(page, '客户端').click();
  const client = page.getByRole('dialog', { name: '客户端' });
  for (const perk of ['高清流畅播放', '好友消息提醒', '桌面快捷访问'])
    await expect(client.getByText(perk)).toBeVisible();
  // The e2e server names no DESKTOP_CLIENT_URL: no download link, the site added to the desktop instead.
  await expect(client.getByRole('link', { name: /下载 Windows 客户端/ })).toHaveCount(0);
  await client.getByRole('button', { name: '添加到桌面' }).click();
  await expect(client.getByRole('status')).toContainText('安装闪映');

  await trigger(page, '快捷访问').click();
  const quick = page.getByRole('dialog', { name: '快捷访问' });
  await expect(quick.getByText('添加到桌面')).toBeVisible();
  // Nor a BROWSER_EXTENSION_URL: the extension's row is left out.
  await expect(quick.getByText('浏览器插件')).toHaveCount(0);
  await expect(quick.getByRole('link', { name: '去安装' })).toHaveCount(0);
  await expect(quick.getByText(/Ctrl\+D/)).toBeVisible();
  // This context is incognito, where Chromium offers no install prompt: the button explains the browser menu.
  await quick.getByRole('button', { name: '立即添加' }).click();
  await expect(quick.getByRole('status')).toContainText('安装闪映');

  await trigger(page, '更多').click();
  const more = page.getByRole('dialog', { name: '更多' });
  await expect(more.getByRole('link')).toHaveText(['业务合作', '直播伴侣', '创作者服务平台', '关于']);
  await more.getByRole('link', { name: '关于' }).click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('关于闪映');
});

test('投稿: seven creator links each open a new tab; the entry itself goes to /post', async ({ page, context }) => {
  const links = (readJson('header-links.json') as { group: string; href: string; order: number }[])
    .filter((l) => l.group === 'post')
    .sort((a, b) => a.order - b.order);
  await page.goto('/discover');
  const entry = trigger(page, '投稿', true);
  await entry.hover();
  const pop = await popOf(page, entry);
  const items = pop.getByRole('link');
  await expect(items).toHaveText([
    '发布视频',
    '视频管理',
    '作品数据',
    '直播',
    '直播数据',
    '创作者学习中心',
    '创作者服务平台',
  ]);
  for (let i = 0; i < links.length; i++) {
    await expect(items.nth(i)).toHaveAttribute('target', '_blank');
    await expect(items.nth(i)).toHaveAttribute('href', links[i]!.href);
  }
  const [tab] = await Promise.all([context.waitForEvent('page'), items.first().click()]);
  await tab.waitForLoadState();
  expect(new URL(tab.url()).pathname).toBe('/post');
  await tab.close();
  expect(new URL(page.url()).pathname).toBe('/discover');
  await page.mouse.move(outside.x, outside.y);
  await entry.click();
  await expect(page).toHaveURL(/\/post$/);
});

test('充钻石 lists the packages and says plainly that top-up is not available here', async ({ page }) => {
  const packages = readJson('topup-packages.json') as { diamonds: number }[];
  await page.goto('/discover');
  const entry = banner(page).getByRole('button', { name: '充钻石' });
  await entry.click();
  const dialog = page.getByRole('dialog', { name: '充钻石' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('本站暂未开通充值服务，无法购买钻石。')).toBeVisible();
  await expect(dialog.getByRole('listitem')).toHaveCount(packages.length);
  await expect(dialog.getByText(`${packages[0]!.diamonds}钻石`, { exact: true })).toBeVisible();
  await expect(dialog.getByRole('link', { name: '去支付' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(entry).toBeFocused();
});

test.describe('the shortcuts dialog', () => {
  for (const path of ['/discover', '/']) {
    test(`settings → 快捷键 lists all 23 shortcuts (the spec's 22 and 倍速) on ${path}`, async ({ page }) => {
      await page.goto(path);
      await page.getByRole('button', { name: '设置', exact: true }).click();
      await page.getByRole('dialog', { name: '设置菜单' }).getByRole('button', { name: '快捷键' }).click();
      const dialog = page.getByRole('dialog', { name: '快捷键' });
      await expect(dialog).toBeVisible();
      await expect(dialog).toHaveCount(1);
      await expect(dialog.getByRole('listitem')).toHaveCount(23);
      for (const text of ['复制分享口令', '上下翻页', '快退/快进', '网页全屏', '打开列表', '相关推荐'])
        await expect(dialog.getByText(text, { exact: true })).toBeVisible();
      for (const key of ['Z', 'Shift+F', 'Shift+Q', 'Esc', 'N'])
        await expect(dialog.locator('kbd', { hasText: new RegExp(`^${key.replace('+', '\\+')}$`) })).toHaveCount(1);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('button', { name: '设置', exact: true })).toBeFocused();
    });
  }
});

test('默认页面 decides where the logo and a visit to the site root lead', async ({ page }) => {
  await page.goto('/discover');
  const logo = page.getByRole('link', { name: '闪映', exact: true });
  await expect(logo).toHaveAttribute('href', '/');
  await page.getByRole('button', { name: '设置', exact: true }).click();
  await page.getByRole('radiogroup', { name: '默认页面' }).getByRole('radio', { name: '首页' }).click();
  await expect(page.getByRole('radio', { name: '首页' })).toHaveAttribute('aria-checked', 'true');
  await expect(logo).toHaveAttribute('href', '/discover');

  await page.goto('/hot');
  await expect(logo).toHaveAttribute('href', '/discover');
  await logo.click();
  await expect(page).toHaveURL(/\/discover$/);
  // Typing the site's address: sent to 首页.
  await page.goto('/');
  await expect(page).toHaveURL(/\/discover$/);
  // The 推荐 entry still reaches the feed.
  await page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '推荐' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '推荐' })).toHaveAttribute(
    'aria-current',
    'page',
  );

  // Back to 推荐 on the settings page.
  await page.goto('/settings#default-page');
  await page.locator('#default-page').getByRole('radio', { name: /推荐/ }).check();
  await expect(page.getByRole('status').getByText('设置已保存')).toBeVisible();
  await expect(logo).toHaveAttribute('href', '/');
  await page.goto('/');
  await expect(page).toHaveURL(/\/$/);
});

test('toasts stack, are announced, and vanish after 3 s', async ({ page }) => {
  await page.goto('/settings');
  const radios = page.locator('#default-page');
  await radios.getByRole('radio', { name: /首页/ }).check();
  await radios.getByRole('radio', { name: /推荐/ }).check();
  const region = page.getByRole('status').filter({ hasText: '设置已保存' });
  await expect(region).toHaveAttribute('aria-live', 'polite');
  const toasts = region.locator(':scope > div');
  await expect(toasts).toHaveCount(2);
  const top = await region.boundingBox();
  expect(top!.y).toBe(16);
  const shown = Date.now();
  await expect(toasts).toHaveCount(0, { timeout: 6000 });
  const gone = Date.now() - shown;
  expect(gone).toBeGreaterThan(2400);
  expect(gone).toBeLessThan(4500);
});

test('a badge of 120 reads 99+', async ({ page }) => {
  await page.goto('/discover');
  const notice = trigger(page, '通知');
  const badge = notice.locator('[data-badge="notice"]');
  await expect(badge).toBeHidden();
  await page.evaluate(() => dispatchEvent(new CustomEvent('sy:badge', { detail: { name: 'notice', count: 120 } })));
  await expect(badge).toBeVisible();
  await expect(badge.locator('[aria-hidden="true"]')).toHaveText('99+');
  await expect(notice).toHaveAccessibleName(/^通知\s*99\+条未读$/);
  // The shown badge keeps AA contrast.
  const axe = await new AxeBuilder({ page }).include('#site-header').withRules(['color-contrast']).analyze();
  expect(
    axe.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' '))).filter((t) => t.includes('badge')),
  ).toEqual([]);
  await page.evaluate(() => dispatchEvent(new CustomEvent('sy:badge', { detail: { name: 'notice', count: 7 } })));
  await expect(badge.locator('[aria-hidden="true"]')).toHaveText('7');
  await page.evaluate(() => dispatchEvent(new CustomEvent('sy:badge', { detail: { name: 'notice', count: 0 } })));
  await expect(badge).toBeHidden();
  await expect(notice).toHaveAccessibleName('通知');
});

test('the site is installable: manifest, icons, service worker', async ({ playwright, request }, info) => {
  const res = await request.get('/manifest.webmanifest');
  expect(res.status()).toBe(200);
  const manifest = await res.json();
  expect(manifest).toMatchObject({
    name: expect.stringContaining('闪映'),
    short_name: '闪映',
    start_url: expect.stringMatching(/^\//),
    scope: '/',
    display: 'standalone',
  });
  expect(manifest.theme_color).toMatch(/^#/);
  expect(manifest.background_color).toMatch(/^#/);
  const png = (manifest.icons as { src: string; sizes: string; type: string; purpose: string }[]).filter(
    (i) => i.type === 'image/png',
  );
  for (const [size, purpose] of [
    ['192x192', 'any'],
    ['512x512', 'any'],
    ['512x512', 'maskable'],
  ]) {
    const icon = png.find((i) => i.sizes === size && i.purpose === purpose);
    expect(icon, `${size} ${purpose}`).toBeTruthy();
    const body = await (await request.get(icon!.src)).body();
    // PNG signature, then IHDR width and height.
    expect(body.subarray(1, 4).toString()).toBe('PNG');
    expect(`${body.readUInt32BE(16)}x${body.readUInt32BE(20)}`).toBe(size);
  }

  // Chromium's own installability check wants a profile on disk (incognito contexts are never installable).
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sy-install-'));
  const context = await playwright.chromium.launchPersistentContext(dir, {
    ...info.project.use.launchOptions,
    baseURL: info.project.use.baseURL,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.addInitScript(() => {
      const w = window as unknown as { prompted?: boolean; offered?: boolean };
      addEventListener('beforeinstallprompt', (e) => {
        w.offered = true;
        // The headless browser has no install UI to answer the prompt: record the call, answer "dismissed".
        Object.defineProperty(e, 'prompt', { value: async () => void (w.prompted = true) });
        Object.defineProperty(e, 'userChoice', { value: Promise.resolve({ outcome: 'dismissed' }) });
      });
    });
    await page.goto('/discover');
    await expect(page.locator('head link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
    const worker = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      return { scope: reg.scope, script: reg.active?.scriptURL };
    });
    expect(new URL(worker.scope).pathname).toBe('/');
    expect(worker.script).toMatch(/\/sw\.js$/);
    const cdp = await context.newCDPSession(page);
    await expect
      .poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors.map((e) => e.errorId))
      .toEqual([]);
    // Where the browser offers its install prompt, 立即添加 shows it.
    await page.reload();
    await expect.poll(() => page.evaluate(() => (window as unknown as { offered?: boolean }).offered)).toBe(true);
    await trigger(page, '快捷访问').click();
    await page.getByRole('button', { name: '立即添加' }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { prompted?: boolean }).prompted)).toBe(true);
    // The shell is cached: offline, a page answers with the offline page instead of the browser's error.
    await page.evaluate(
      () =>
        navigator.serviceWorker.controller !== null ||
        new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r)),
    );
    await context.setOffline(true);
    await page.goto('/hot');
    await expect(page.getByRole('heading', { name: '网络已断开' })).toBeVisible();
    await context.setOffline(false);
  } finally {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the footer link blocks of discover and channel pages are those of seo/inner/link', async ({ page, request }) => {
  const body = await (await request.get('/api/aweme/v1/web/seo/inner/link/')).json();
  const expected = (body.link_data as { title: string; link_list: { anchor: string; url: string }[] }[]).map((b) => ({
    title: b.title,
    links: b.link_list.map((l) => [l.anchor, l.url]),
  }));
  expect(expected.length).toBeGreaterThan(0);
  for (const path of ['/discover', '/channel/300204']) {
    await page.goto(path);
    const footer = page.getByRole('navigation', { name: '友情链接' });
    const shown = await footer.locator('section').evaluateAll((sections) =>
      sections.map((s) => ({
        title: s.querySelector('h2')!.textContent,
        links: [...s.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]),
      })),
    );
    expect(shown, path).toEqual(expected);
  }
});

// One test a theme: twenty scans in one test came within reach of its timeout on a busy machine (axe injects itself and
// finishes each scan in a page of its own, a second or more apiece under load), on main as on this branch.
for (const theme of ['light', 'dark'] as const) {
  test(`axe, ${theme}: the header with each popover open, the settings menu and the dialogs have no serious or critical violation`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    // AxeBuilder needs a page of its own context.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto('/discover');
    const found: string[] = [];
    const scan = async (what: string, include: string) => {
      // Dark changes colours only: its scans check contrast, the light ones every rule.
      const axe = new AxeBuilder({ page }).include(include);
      const result = await (theme === 'dark' ? axe.withRules(['color-contrast']) : axe).analyze();
      for (const v of result.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
        for (const node of v.nodes) found.push(`${what}: ${v.id} (${v.impact}) ${node.target.join(' ')}`);
      }
    };
    await page.evaluate(
      (t) =>
        t === 'dark'
          ? document.documentElement.setAttribute('dark', 'true')
          : document.documentElement.removeAttribute('dark'),
      theme,
    );
    await scan(`${theme} header`, '#site-header');
    for (const { name, link } of POPOVERS) {
      const entry = trigger(page, name, link);
      await entry.focus();
      await page.keyboard.press(link ? 'ArrowDown' : 'Enter');
      await expect(await popOf(page, entry)).toBeVisible();
      await scan(`${theme} ${name}`, '#site-header');
      await page.keyboard.press('Escape');
    }
    await page.getByRole('button', { name: '设置', exact: true }).click();
    await scan(`${theme} 设置`, 'aside');
    await page.keyboard.press('Escape');
    await banner(page).getByRole('button', { name: '充钻石' }).click();
    await scan(`${theme} 充钻石`, '#topup-dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '设置', exact: true }).click();
    await page.getByRole('button', { name: '意见反馈' }).click();
    await scan(`${theme} 意见反馈`, '#feedback-dialog');
    await page.keyboard.press('Escape');
    await context.close();
    expect([...new Set(found)]).toEqual([]);
  });
}

/** A client of the e2e server's embedded PostgreSQL. */
function e2eDatabase(): pg.Client | null {
  const url = e2eDatabaseUrl();
  return url ? new pg.Client({ connectionString: url }) : null;
}

test('feedback is validated, stored with a thank-you, and a second burst is limited', async ({ page, request }) => {
  await page.goto('/discover');
  await page.getByRole('button', { name: '设置', exact: true }).click();
  await page.getByRole('button', { name: '意见反馈' }).click();
  const dialog = page.getByRole('dialog', { name: '意见反馈' });
  await expect(dialog).toBeVisible();
  const content = dialog.getByRole('textbox', { name: '反馈内容' });
  const thanks = dialog.getByText('感谢你的反馈！');
  await expect(content).toBeFocused();
  await expect(thanks).toBeHidden();
  await content.fill('短');
  await dialog.getByRole('button', { name: '提交' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('请至少输入5个字');
  const text = `端到端反馈 ${Date.now()}：希望播放页记住倍速`;
  await content.fill(text);
  await expect(dialog.getByText(`${[...text].length}/500`)).toBeVisible();
  await dialog.getByRole('textbox', { name: '联系方式（选填）' }).fill('e2e@example.com');
  await dialog.getByRole('button', { name: '提交' }).click();
  await expect(thanks).toBeVisible();
  await expect(thanks).toBeFocused();
  await expect(content).toBeHidden();

  const client = e2eDatabase();
  if (client) {
    await client.connect();
    try {
      const { rows } = await client.query('select contact from feedback where content = $1', [text]);
      expect(rows).toEqual([{ contact: 'e2e@example.com' }]);
    } finally {
      await client.end();
    }
  }

  // A burst from the same address, one submission already counted: past the limit it answers 429 with Retry-After.
  const burst = await Promise.all(
    Array.from({ length: FEEDBACK_RATE.limit + 1 }, (_, i) =>
      request.post('/api/feedback', { form: { content: `连续提交的第${i}条反馈` } }),
    ),
  );
  const statuses = burst.map((r) => r.status()).sort();
  expect(statuses.filter((s) => s === 200)).toHaveLength(FEEDBACK_RATE.limit - 1);
  expect(statuses.filter((s) => s === 429)).toHaveLength(2);
  const limited = burst.find((r) => r.status() === 429)!;
  expect(Number(limited.headers()['retry-after'])).toBeGreaterThan(0);
  // The form says so too.
  await dialog.getByRole('button', { name: '关闭' }).last().click();
  await page.getByRole('button', { name: '设置', exact: true }).click();
  await page.getByRole('button', { name: '意见反馈' }).click();
  await expect(thanks).toBeHidden();
  await expect(content).toHaveValue('');
  await content.fill('限流之后再提交一次反馈');
  await dialog.getByRole('button', { name: '提交' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(t('error.rateLimited'));
  // Every spec sends from this one address: the window this test filled is emptied for the specs after it.
  const db = e2eDatabase();
  if (db) {
    await db.connect();
    await db.query(`delete from rate_limits where key like 'feedback:ip:%'`);
    await db.end();
  }
});

test.describe('privacy', () => {
  test('隐私设置 hides a user’s likes from another visitor, on the page and in the API', async ({
    browser,
    request,
  }) => {
    // A brand-new account (the first code login creates it) that likes one video.
    const session = await newAccount(request, 'chrome');
    const secUid: string = session.user.sec_uid;
    const feed = await (await request.post('/api/video/getVideosByCursor', { form: { cursor: 0, size: 1 } })).json();
    const liked = await request.post('/api/aweme/v1/web/commit/item/digg/', {
      headers: { token: session.token },
      form: { aweme_id: feed.data[0].id, type: 1 },
    });
    expect(liked.status()).toBe(200);

    const favorite = `/api/aweme/v1/web/aweme/favorite/?sec_user_id=${secUid}`;
    const visitor = await browser.newContext();
    const other = await visitor.newPage();
    const likesTab = other.getByRole('navigation', { name: '主页内容' }).getByRole('link', { name: /^喜欢/ });
    await other.goto(`/user/${secUid}`);
    await expect(likesTab).toBeVisible();
    // The code login above left its session cookie in `request`: the visitor's own client asks as nobody.
    expect((await visitor.request.get(favorite)).status()).toBe(200);

    const owner = await browser.newContext();
    await signIn(owner, session);
    const page = await owner.newPage();
    await page.goto('/discover');
    await page.getByRole('button', { name: '设置', exact: true }).click();
    await page.getByRole('dialog', { name: '设置菜单' }).getByRole('link', { name: '隐私设置' }).click();
    await expect(page).toHaveURL(/\/settings#privacy$/);
    const likes = page.getByRole('switch', { name: /公开我的喜欢/ });
    await expect(likes).toBeChecked();
    await likes.uncheck();
    await expect(page.getByRole('status').getByText('设置已保存')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('switch', { name: /公开我的喜欢/ })).not.toBeChecked();

    await other.goto(`/user/${secUid}?showTab=like`);
    await expect(likesTab).toHaveCount(0);
    // Asked for the hidden tab, the visitor lands on 作品.
    await expect(
      other.getByRole('navigation', { name: '主页内容' }).getByRole('link', { name: /^作品/ }),
    ).toHaveAttribute('aria-current', 'page');
    expect((await visitor.request.get(favorite)).status()).toBe(403);
    // The owner still sees their own likes.
    expect((await request.get(favorite, { headers: { token: session.token } })).status()).toBe(200);

    // 通知设置 saves the same way.
    await page.goto('/settings#notify');
    const follow = page.getByRole('switch', { name: '新增粉丝' });
    await follow.uncheck();
    await expect(page.getByRole('status').getByText('设置已保存').first()).toBeVisible();
    const saved = await (await request.get('/api/settings', { headers: { token: session.token } })).json();
    expect(saved.data).toMatchObject({ privacy: { likesPublic: false }, notify: { follow: false, like_video: true } });
    await visitor.close();
    await owner.close();
  });
});

test('no link on any page leads to a placeholder .example host, popovers and menus included', async ({
  browser,
  request,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const hrefs = async () =>
    page.evaluate(() => [...document.querySelectorAll('a[href]')].map((a) => (a as HTMLAnchorElement).href));
  const placeholders = (all: string[]) =>
    all.filter(
      (href) => /^https?:$/.test(new URL(href).protocol) && /\.(example|invalid|test)$/i.test(new URL(href).hostname),
    );
  const feed = await (await request.post('/api/video/getVideosByCursor', { form: { cursor: 0, size: 1 } })).json();
  const paths = [
    '/',
    '/discover',
    `/video/${feed.data[0].id}`,
    '/hot',
    '/live',
    '/vs',
    '/follow',
    '/user/self',
    '/business',
    '/faq',
    '/about',
    '/settings',
    `/search/${encodeURIComponent('美食')}`,
  ];
  for (const path of paths) {
    await page.goto(path);
    expect(placeholders(await hrefs()), path).toEqual([]);
  }
  // The islands' popovers render their links only when open.
  await page.goto('/discover');
  await banner(page).getByRole('button', { name: '登录', exact: true }).hover();
  await expect(page.getByRole('dialog', { name: '未登录' })).toBeVisible();
  expect(placeholders(await hrefs())).toEqual([]);
  const fan = await newAccount(context.request, 'no-placeholder');
  await signIn(context, fan);
  await page.goto('/discover');
  await banner(page)
    .getByRole('button', { name: /的账号菜单$/ })
    .click();
  await expect(page.getByRole('dialog', { name: fan.user.nickname })).toBeVisible();
  expect(placeholders(await hrefs())).toEqual([]);
  await context.close();
});

test('the logged-out popover: 快捷键 opens the shortcuts dialog, 直播伴侣 leads to its page, nothing says 暂未开放', async ({
  page,
}) => {
  await page.goto('/discover');
  const login = banner(page).getByRole('button', { name: '登录', exact: true });
  await login.hover();
  const pop = page.getByRole('dialog', { name: '未登录' });
  await expect(pop).toContainText('登录后即可观看喜欢、收藏的作品');
  await expect(pop.getByText('暂未开放')).toHaveCount(0);
  // No orders page in this deployment (ORDERS_URL unset).
  await expect(pop.getByText('我的订单')).toHaveCount(0);
  await expect(pop.getByRole('link', { name: '直播伴侣' })).toHaveAttribute('href', '/about#直播伴侣');
  await pop.getByRole('button', { name: '快捷键' }).click();
  const dialog = page.getByRole('dialog', { name: '快捷键' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('开启/关闭弹幕')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(login).toBeFocused();

  await login.hover();
  await pop.getByRole('link', { name: '直播伴侣' }).click();
  await expect(page).toHaveURL(/\/about#/);
});

test('the logged-out popover keeps a press made while 登录 has focus: the popover stays open until the release, and the link leads on', async ({
  page,
}) => {
  await page.goto('/discover');
  const login = banner(page).getByRole('button', { name: '登录', exact: true });
  await login.hover();
  const pop = page.getByRole('dialog', { name: '未登录' });
  await expect(pop).toBeVisible();
  // Focus on 登录, as a keyboard user or a closing dialog leaves it; the mouse then presses inside the popover for as
  // long as a person does (the press moves focus, and closing on that used to take the link away before the release).
  await login.focus();
  await pop.getByText('登录后即可观看喜欢、收藏的作品').click({ delay: 100 });
  await expect(pop).toBeVisible();
  await pop.getByRole('link', { name: '直播伴侣' }).click({ delay: 100 });
  await expect(page).toHaveURL(/\/about#/);
});
