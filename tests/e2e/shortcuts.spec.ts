import type { APIRequest, BrowserContext, Locator, Page } from '@playwright/test';
import { expect, holdEachVideo, newAccount, signIn, test } from './support.ts';

/**
 * Logs the context in as an account of its own (session cookie, and the token where the login dialog keeps it): every
 * spec writes as the demo account, whose writes share one per-account limit (300 in 5 minutes), and a like, collect or
 * follow refused by it would leave a button here as it was.
 */
async function login(context: BrowserContext, playwright: { request: APIRequest }): Promise<string> {
  const api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const session = await newAccount(api, 'shortcuts');
  await api.dispose();
  await signIn(context, session);
  return session.token;
}

const active = (page: Page) => page.locator('article[data-active="true"]');
const video = (page: Page) => active(page).locator('video');
const likeButton = (page: Page) => active(page).getByRole('button', { name: /^点赞/ });

/** Opens the feed, wakes its island and waits for the first video to play; 连播 off unless `moveOn`. */
async function openFeed(page: Page, { moveOn = false } = {}): Promise<Locator> {
  if (!moveOn) await holdEachVideo(page);
  await page.goto('/');
  await page.locator('section[aria-roledescription="carousel"]').hover();
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr] [data-active]'));
  await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0)).toBe(true);
  // Keys go to the page, not to a control under the pointer.
  await page.mouse.move(1, 450);
  return active(page);
}

const idOf = async (slide: Locator) =>
  (await slide.locator('a[href^="/video/"]').first().getAttribute('href'))!.replace('/video/', '');

/** Sets a pressed-state button to `pressed` with `key`, whatever it started as. */
async function pressTo(page: Page, button: Locator, key: string, pressed: boolean): Promise<void> {
  if ((await button.getAttribute('aria-pressed')) === String(pressed)) {
    await page.keyboard.press(key);
    await expect(button).toHaveAttribute('aria-pressed', String(!pressed));
  }
  await page.keyboard.press(key);
  await expect(button).toHaveAttribute('aria-pressed', String(pressed));
}

test.describe('shortcuts on the feed, each checked by its effect', () => {
  test('Z likes and unlikes; a double space likes without stopping the video', async ({
    page,
    context,
    playwright,
  }) => {
    await login(context, playwright);
    await openFeed(page);
    const like = likeButton(page);
    await pressTo(page, like, 'z', false);
    const count = Number((await like.textContent())!.replace(/\D/g, ''));
    await page.keyboard.press('z');
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    await expect(like).toHaveText(new RegExp(`${count + 1}$`));
    await page.keyboard.press('z');
    await expect(like).toHaveAttribute('aria-pressed', 'false');
    // Two spaces within 320 ms: sent from the page in one go, since two round trips of a loaded test machine can take
    // longer than a person's double press. The heart's burst lives 0.85 s, less than a loaded machine may take between
    // two looks at the page: a MutationObserver set up first counts the bursts added.
    await page.evaluate(() => {
      (window as unknown as { bursts: number }).bursts = 0;
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes)
            if (node instanceof Element && (node.matches('.like-burst') || node.querySelector('.like-burst')))
              (window as unknown as { bursts: number }).bursts++;
      }).observe(document.body, { childList: true, subtree: true });
      for (let i = 0; i < 2; i++)
        window.dispatchEvent(
          new KeyboardEvent('keydown', { key: ' ', code: 'Space', bubbles: true, cancelable: true }),
        );
    });
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => page.evaluate(() => (window as unknown as { bursts: number }).bursts)).toBeGreaterThan(0);
    expect(await video(page).evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
  });

  test('X opens the comments panel; Shift+Q closes it', async ({ page }) => {
    await openFeed(page);
    await page.keyboard.press('x');
    const panel = page.locator('aside[data-scroll-own]');
    await expect(panel).toBeVisible();
    await expect(panel.getByText(/全部评论/)).toBeVisible();
    await page.keyboard.press('Shift+Q');
    await expect(panel).toHaveCount(0);
  });

  test('B turns danmaku on and off', async ({ page }) => {
    await openFeed(page);
    const toggle = active(page).getByRole('switch', { name: '弹幕' });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await page.keyboard.press('b');
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(active(page).locator('.danmaku-layer')).toBeAttached();
    await expect(active(page).getByLabel('发送弹幕')).toBeVisible();
    await page.keyboard.press('b');
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await expect(active(page).locator('.danmaku-layer')).toHaveCount(0);
  });

  test('C collects and uncollects', async ({ page, context, playwright }) => {
    await login(context, playwright);
    await openFeed(page);
    const collect = active(page).getByRole('button', { name: /^收藏/ });
    await pressTo(page, collect, 'c', true);
    await pressTo(page, collect, 'c', false);
  });

  test('V copies the share code of the video', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const slide = await openFeed(page);
    const id = await idOf(slide);
    await page.keyboard.press('v');
    await expect(page.getByText('已复制分享口令')).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain(`/video/${id}`);
    expect(copied).toContain('复制此口令');
  });

  test('J clears the screen and brings it back', async ({ page }) => {
    await openFeed(page);
    const clear = active(page).getByRole('button', { name: '清屏' });
    await page.keyboard.press('j');
    await expect(clear).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: '下一个视频' })).toBeHidden();
    await page.keyboard.press('j');
    await expect(clear).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByRole('button', { name: '下一个视频' })).toBeVisible();
  });

  test('K switches 自动连播 (on by default): off, the video loops; on again, the end moves the feed on', async ({
    page,
  }) => {
    await openFeed(page, { moveOn: true });
    const autoNext = active(page).getByRole('switch', { name: '自动连播' });
    await expect(autoNext).toHaveAttribute('aria-checked', 'true');
    await page.keyboard.press('k');
    await expect(autoNext).toHaveAttribute('aria-checked', 'false');
    await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => v.loop)).toBe(true);
    await page.keyboard.press('k');
    await expect(autoNext).toHaveAttribute('aria-checked', 'true');
    expect(await video(page).evaluate((v: HTMLVideoElement) => v.loop)).toBe(false);
    await video(page).evaluate((v: HTMLVideoElement) => (v.currentTime = Math.max(0, v.duration - 0.3)));
    await expect(active(page)).toHaveAttribute('data-index', '1', { timeout: 5000 });
  });

  test('R marks 不感兴趣: the video leaves the feed, now and after a reload', async ({ page, context, playwright }) => {
    await login(context, playwright);
    const slide = await openFeed(page);
    const id = await idOf(slide);
    await page.keyboard.press('r');
    await expect(page.getByText('将减少此类视频的推荐')).toBeVisible();
    await expect(page.locator(`article[data-index] a[href="/video/${id}"]`)).toHaveCount(0);
    await expect(active(page)).toHaveAttribute('data-index', '0');
    await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => !v.paused)).toBe(true);
    const feed = await (await page.request.get('/api/aweme/v1/web/tab/feed/?count=50')).json();
    expect(feed.aweme_list.map((a: { aweme_id: string }) => a.aweme_id)).not.toContain(id);
  });

  test('F opens the author’s page', async ({ page }) => {
    const slide = await openFeed(page);
    const author = await slide.locator('a[href^="/user/"]').first().getAttribute('href');
    await page.keyboard.press('f');
    await expect(page).toHaveURL(new RegExp(`${author}$`));
  });

  test('G follows and unfollows the author', async ({ page, context, playwright }) => {
    await login(context, playwright);
    // The page counts the server's answers to a follow (the event the follow store sends with each).
    await page.addInitScript(() =>
      addEventListener('sy:follow-changed', () => {
        const w = window as { followAnswers?: number };
        w.followAnswers = (w.followAnswers ?? 0) + 1;
      }),
    );
    const slide = await openFeed(page);
    const follow = slide.getByRole('button', { name: /^(关注|已关注|互相关注)$/ });
    const before = await follow.textContent();
    await page.keyboard.press('g');
    await expect(follow).not.toHaveText(before!);
    // The button shows the new state at once and is busy until the server has it; a key pressed meanwhile is not a
    // second toggle (the same as a second click), so the next G waits for the answer as a person would. (The button's
    // aria-busy is no sign of it while the button is still the page's own, before its island has hydrated.)
    await expect.poll(() => page.evaluate(() => (window as { followAnswers?: number }).followAnswers ?? 0)).toBe(1);
    await page.keyboard.press('g');
    await expect(follow).toHaveText(before!);
  });

  test('Shift+F focuses the search box; typing there is never a shortcut', async ({ page }) => {
    await openFeed(page);
    await page.keyboard.press('Shift+F');
    const box = page.getByRole('combobox', { name: '搜索你感兴趣的内容' }).first();
    await expect(box).toBeFocused();
    await page.keyboard.type('zxcv');
    await page.keyboard.press('ArrowDown');
    await expect(box).toHaveValue(/zxcv/);
    await expect(active(page)).toHaveAttribute('data-index', '0');
    await expect(page.locator('aside[data-scroll-own]')).toHaveCount(0);
  });

  test('Shift+Q leaves a video page for the page before it', async ({ page }) => {
    await page.goto('/');
    const id = await idOf(active(page));
    await page.goto(`/video/${id}`);
    await page.locator('[data-player]').hover();
    await page.waitForFunction(() => !document.querySelector('astro-island[ssr] [data-player]'));
    await page.mouse.move(1, 450);
    await page.keyboard.press('Shift+Q');
    await expect(page).toHaveURL(/\/$/);
  });

  test('↑/↓ page through the feed', async ({ page }) => {
    await openFeed(page);
    await page.keyboard.press('ArrowDown');
    await expect(active(page)).toHaveAttribute('data-index', '1');
    await page.keyboard.press('ArrowDown');
    await expect(active(page)).toHaveAttribute('data-index', '2');
    await page.keyboard.press('ArrowUp');
    await expect(active(page)).toHaveAttribute('data-index', '1');
  });

  test('←/→ seek 5 s; space pauses and plays', async ({ page }) => {
    await openFeed(page);
    await page.keyboard.press(' ');
    await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    await video(page).evaluate((v: HTMLVideoElement) => (v.currentTime = 1));
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => Math.round(v.currentTime))).toBe(6);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => Math.round(v.currentTime))).toBe(1);
    await page.waitForTimeout(400);
    await page.keyboard.press(' ');
    await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
  });

  test('Y fills the page with the player; H goes fullscreen', async ({ page }) => {
    await openFeed(page);
    const feed = page.locator('section[aria-roledescription="carousel"]');
    await page.keyboard.press('y');
    await expect.poll(async () => (await feed.boundingBox())?.width).toBe(page.viewportSize()!.width);
    expect((await feed.boundingBox())!.x).toBe(0);
    await expect(active(page).getByRole('button', { name: '退出网页全屏' })).toBeVisible();
    await page.keyboard.press('y');
    await expect.poll(async () => (await feed.boundingBox())!.x).toBeGreaterThan(0);
    await page.keyboard.press('h');
    await expect.poll(() => page.evaluate(() => !!document.fullscreenElement)).toBe(true);
    await page.keyboard.press('h');
    await expect.poll(() => page.evaluate(() => !!document.fullscreenElement)).toBe(false);
  });

  test('L adds to 稍后再看 and takes it out again', async ({ page, context, playwright }) => {
    const token = await login(context, playwright);
    const slide = await openFeed(page);
    const id = await idOf(slide);
    const later = async () =>
      (
        (
          await (
            await page.request.get('/api/video/self?showTab=watch_later&page=1&size=50', { headers: { Token: token } })
          ).json()
        ).data.videosList as { id: number }[]
      ).map((v) => String(v.id));
    await page.keyboard.press('l');
    await expect(page.getByText('已加入稍后再看')).toBeVisible();
    await expect.poll(later).toContain(id);
    await page.keyboard.press('l');
    await expect(page.getByText('已从稍后再看移除')).toBeVisible();
    await expect.poll(later).not.toContain(id);
  });

  test('Shift+ and Shift- change the volume, unmuting from muted', async ({ page }) => {
    await openFeed(page);
    const sound = () => video(page).evaluate((v: HTMLVideoElement) => (v.muted ? 0 : Math.round(v.volume * 100)));
    expect(await sound()).toBe(0);
    await page.keyboard.press('Shift+Equal');
    await expect.poll(sound).toBe(10);
    await page.keyboard.press('Shift+Equal');
    await expect.poll(sound).toBe(20);
    await page.keyboard.press('Shift+Minus');
    await expect.poll(sound).toBe(10);
  });

  test('? lists all 23 shortcuts (the 22 of douyin.com and 倍速) with their keys; Esc closes the list', async ({
    page,
  }) => {
    await openFeed(page);
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: '快捷键' });
    await expect(dialog).toBeVisible();
    const rows = [
      ['赞', 'Z'],
      ['评论', 'X'],
      ['开启/关闭弹幕', 'B'],
      ['收藏', 'C'],
      ['复制分享口令', 'V'],
      ['清屏', 'J'],
      ['自动连播', 'K'],
      ['不感兴趣', 'R'],
      ['进入作者主页', 'F'],
      ['关注', 'G'],
      ['搜索', 'Shift+F'],
      ['关闭页面', 'Shift+Q'],
      ['上下翻页', '↑/↓'],
      ['快退/快进', '←/→'],
      ['暂停', '空格'],
      ['网页全屏', 'Y'],
      ['全屏', 'H'],
      ['稍后再看', 'L'],
      ['音量', 'Shift+/Shift-'],
      ['倍速减/加', '</>'],
      ['打开列表', '?'],
      ['关闭列表', 'Esc'],
      ['相关推荐', 'N'],
    ];
    const items = dialog.getByRole('listitem');
    await expect(items).toHaveCount(23);
    // Every row, in order (23 items, 23 labels, 23 keys), in two assertions: two a row were 44 round trips, which on a
    // busy machine spent most of the test's 30 s before it reached Esc and ↓.
    await expect(items).toContainText(rows.map(([label]) => label!));
    await expect(items.locator('kbd')).toHaveText(rows.map(([, keys]) => keys!));
    await expect(items.first()).toContainText('双击空格');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    // Closed, the keys work again: ↓ moves on. On a saturated machine the first ↓ can come before the page has taken
    // the focus back from the closing list (it failed twice in a CI run at 95 % CPU pressure), so it is pressed again
    // until the feed moves.
    await expect(async () => {
      await page.keyboard.press('ArrowDown');
      await expect(active(page)).not.toHaveAttribute('data-index', '0', { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  });

  test('N opens the related videos of the current one', async ({ page }) => {
    const slide = await openFeed(page);
    const id = await idOf(slide);
    await page.keyboard.press('n');
    await expect(page).toHaveURL(new RegExp(`/video/${id}#related$`));
  });
});

test('on a video page the same keys act on its video: Z likes, X goes to the comments, B shows danmaku', async ({
  page,
  context,
  playwright,
}) => {
  await login(context, playwright);
  const feed = await (await page.request.get('/api/aweme/v1/web/tab/feed/?count=3')).json();
  const id = feed.aweme_list[2].aweme_id;
  await page.goto(`/video/${id}`);
  await page.locator('[data-player]').hover();
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr] [data-player]'));
  await page.mouse.move(1, 450);
  const like = page.getByRole('list', { name: '视频操作' }).getByRole('button', { name: /^点赞/ });
  await expect(like).toBeVisible();
  const was = await like.getAttribute('aria-pressed');
  await page.keyboard.press('z');
  await expect(like).toHaveAttribute('aria-pressed', was === 'true' ? 'false' : 'true');
  await page.keyboard.press('b');
  await expect(page.locator('[data-player] .danmaku-layer')).toBeAttached();
  await page.keyboard.press('x');
  await expect
    .poll(() => page.evaluate(() => document.getElementById('comments')!.getBoundingClientRect().top))
    .toBeLessThan(300);
});
