import type { Page } from '@playwright/test';
import { expect, holdEachVideo, test } from './support.ts';

// Keyboard alone: every control of the chrome and the feed is a Tab stop with a visible focus ring, and a dialog takes
// focus in, closes on Escape and gives focus back.

interface Stop {
  /** Where the control sits: dialog (an open one), banner (the header), nav (the sidebar), feed (the active video's actions), body (the browser's own controls) or other. */
  area: string;
  name: string;
  /** An outline or a ring (box-shadow) drawn on the control or on the field around it. */
  ring: boolean;
}

/** Presses Tab and describes the control that takes focus. */
async function tab(page: Page): Promise<Stop> {
  await page.keyboard.press('Tab');
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const drawn = (e: Element | null) => {
      if (!e) return false;
      const s = getComputedStyle(e);
      return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1) || s.boxShadow !== 'none';
    };
    const area =
      el === document.body
        ? 'body'
        : el.closest('dialog[open]')
          ? 'dialog'
          : el.closest('#site-header')
            ? 'banner'
            : el.closest('nav[aria-label="主导航"]')
              ? 'nav'
              : el.closest('article[data-active="true"] [aria-label="视频操作"]')
                ? 'feed'
                : 'other';
    const name = (el.getAttribute('aria-label') || el.innerText || el.getAttribute('placeholder') || el.tagName)
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 40);
    // A text field shows focus on the box around it (focus-within).
    const field = el.matches('input, textarea')
      ? drawn(el.parentElement) || drawn(el.parentElement?.parentElement ?? null)
      : false;
    return { area, name, ring: drawn(el) || field };
  });
}

test('Tab reaches the header, the sidebar and the feed’s actions, each with a visible focus ring', async ({ page }) => {
  test.setTimeout(60_000);
  // The feed moving on under a slow walk would take the focus with it.
  await holdEachVideo(page);
  await page.goto('/');
  await expect(page.locator('article[data-active="true"]')).toBeVisible();
  const stops: Stop[] = [];
  for (let i = 0; i < 90 && !stops.some((s) => s.area === 'feed' && s.name.includes('分享')); i++)
    stops.push(await tab(page));
  const names = (area: string) => stops.filter((s) => s.area === area).map((s) => s.name);
  expect(stops[0]?.name, 'the first stop skips to the content').toBe('跳到主要内容');
  expect(names('nav')).toEqual(expect.arrayContaining(['推荐', '关注', '朋友', '直播', '热点']));
  expect(names('banner')).toEqual(expect.arrayContaining(['登录']));
  expect(names('feed').join(' ')).toMatch(/点赞.*评论.*收藏.*分享/);
  expect(stops.filter((s) => !s.ring).map((s) => `${s.area}: ${s.name}`)).toEqual([]);
});

test('the feed’s actions work from the keyboard: Enter on 评论 opens the panel, Escape closes it', async ({ page }) => {
  await page.goto('/');
  const comment = page
    .locator('article[data-active="true"]')
    .getByRole('list', { name: '视频操作' })
    .getByRole('button', { name: /评论/ });
  await comment.focus();
  await page.keyboard.press('Enter');
  const panel = page.locator('section[data-comments]').filter({ visible: true });
  await expect(panel.getByRole('heading', { name: /评论/ })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
});

test('Tab onto 登录 on a fresh page opens its popover at once: the focus that wakes the island is handed to it', async ({
  page,
}) => {
  await page.goto('/discover');
  const login = page.getByRole('banner').getByRole('button', { name: '登录', exact: true });
  // The island has not loaded: its popover is not in the page yet.
  await expect(
    page.getByRole('banner').locator('astro-island', { has: page.getByRole('button', { name: '登录', exact: true }) }),
  ).toHaveAttribute('ssr', '');
  let reached = false;
  for (let i = 0; i < 60 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await login.evaluate((el) => el === document.activeElement);
  }
  expect(reached, 'Tab reaches the header’s 登录').toBe(true);
  await expect(page.getByRole('dialog', { name: '未登录' })).toBeVisible();
  await expect(login).toBeFocused();
});

test('the login dialog: Enter opens it with focus inside, Tab stays visible in it, Escape closes it and focus returns', async ({
  page,
}) => {
  await page.goto('/discover');
  const login = page.getByRole('banner').getByRole('button', { name: '登录', exact: true });
  let reached = false;
  for (let i = 0; i < 60 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await login.evaluate((el) => el === document.activeElement);
  }
  expect(reached, 'Tab reaches the header’s 登录').toBe(true);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: '登录后免费畅享高清视频' });
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  // Round the dialog once: focus stays in it (past its last control a modal dialog hands focus to the browser's own
  // controls, seen here as the body, and then comes back in), and every stop shows its ring.
  const stops: Stop[] = [];
  for (let i = 0; i < 14; i++) stops.push(await tab(page));
  expect(stops.filter((x) => x.area !== 'dialog' && x.area !== 'body')).toEqual([]);
  expect(stops.filter((x) => x.area === 'dialog').length).toBeGreaterThan(4);
  expect(stops.filter((x) => x.area === 'dialog' && !x.ring)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(login).toBeFocused();
});
