import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import pg from 'pg';
import { expect, test, e2eDatabaseUrl } from './support.ts';

/** A seeded work given a three-gear ladder: committed clips stand in for the 1080 and 720 files, its own clip for 540. */
const LADDER = { 1080: 'clips/c01.mp4', 720: 'clips/c02.mp4' } as const;
let videoId = 0;
let ownClip = '';

test.beforeAll(async () => {
  const url = e2eDatabaseUrl();
  expect(url, 'the e2e server runs on its embedded database').toBeTruthy();
  const client = new pg.Client({ connectionString: url! });
  await client.connect();
  try {
    // The oldest public work: not one the feed or the first page of a list puts in front.
    const { rows } = await client.query<{ id: number; media: string }>(
      `select id, media from videos
        where deleted_at is null and status = 'published' and visibility = 'public' and duration_ms > 0 and media like 'clips/%'
          and media not in ($1, $2)
        order by created_at, id limit 1`,
      [LADDER[1080], LADDER[720]],
    );
    videoId = rows[0]!.id;
    ownClip = rows[0]!.media;
    await client.query(
      `insert into video_renditions (video_id, gear, width, height, bit_rate, path, size_bytes) values
         ($1, 1080, 1080, 1920, 2400000, $2, 2400000),
         ($1, 720, 720, 1280, 1200000, $3, 1200000),
         ($1, 540, 540, 960, 600000, $4, 600000)
       on conflict do nothing`,
      [videoId, LADDER[1080], LADDER[720], ownClip],
    );
  } finally {
    await client.end();
  }
});

const video = (page: Page) => page.locator('[data-player] video');
const qualityButton = (page: Page) => page.getByRole('button', { name: /^清晰度/ });
const src = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => new URL(v.currentSrc).pathname);
const time = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.currentTime);

/** Opens the work's page and wakes the player island (client:interact) by pointing at it. */
async function openPlayer(page: Page): Promise<void> {
  await page.goto(`/video/${videoId}`);
  await video(page).hover();
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr] [data-player]'));
}

test('清晰度 lists the gears of the work; 720P switches the source in place and is remembered', async ({ page }) => {
  await openPlayer(page);
  // 智能 on a 1440×900 page: the tall video shows about 300 px wide, which 540 covers (its own clip: nothing reloads).
  await expect(qualityButton(page)).toHaveAccessibleName('清晰度 智能');
  expect(await src(page)).toBe(`/media/${ownClip}`);

  await qualityButton(page).click();
  const menu = page.getByRole('menu', { name: '清晰度' });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitemradio')).toHaveText(['智能', '1080P', '720P', '540P']);
  await expect(menu.getByRole('menuitemradio', { name: '智能' })).toHaveAttribute('aria-checked', 'true');

  // From 1 s in (the stand-in clips are shorter than some works' own: 7 s and up), playing.
  await video(page).evaluate((v: HTMLVideoElement) => {
    v.currentTime = 1;
    return v.play();
  });
  await expect.poll(() => time(page), { timeout: 10_000 }).toBeGreaterThan(1.2);
  const before = await time(page);
  await menu.getByRole('menuitemradio', { name: '720P' }).click();
  await expect(menu).toBeHidden();
  await expect.poll(() => src(page)).toBe(`/media/${LADDER[720]}`);
  await expect(qualityButton(page)).toHaveAccessibleName('清晰度 720P');
  // The new file goes on from where the old one was, and keeps playing.
  await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
  const resumed = await time(page);
  expect(resumed).toBeGreaterThanOrEqual(before - 0.1);
  await expect.poll(() => time(page), { timeout: 10_000 }).toBeGreaterThan(resumed + 0.3);
  expect(await video(page).evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);

  await page.reload();
  await openPlayer(page);
  await expect.poll(() => src(page)).toBe(`/media/${LADDER[720]}`);
  await expect(qualityButton(page)).toHaveAccessibleName('清晰度 720P');
  await expect.poll(() => time(page), { timeout: 10_000 }).toBeGreaterThan(0.3);
});

test('the 清晰度 menu works from the keyboard, and a paused video stays paused when the source changes', async ({
  browser,
}) => {
  // AxeBuilder needs a page of its own context.
  const context = await browser.newContext();
  const page = await context.newPage();
  await openPlayer(page);
  await video(page).evaluate((v: HTMLVideoElement) => {
    v.currentTime = 1;
    v.pause();
  });
  const at = await time(page);

  const button = qualityButton(page);
  await button.focus();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press('Enter');
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  // Focus lands on the checked entry; the arrows move it without paging or seeking anything else.
  await expect(page.getByRole('menuitemradio', { name: '智能' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitemradio', { name: '1080P' })).toBeFocused();
  await page.keyboard.press('End');
  await expect(page.getByRole('menuitemradio', { name: '540P' })).toBeFocused();
  const axe = await new AxeBuilder({ page }).include('.player-bar').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(button).toBeFocused();

  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitemradio', { name: '智能' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(button).toBeFocused();
  await expect(button).toHaveAccessibleName('清晰度 1080P');
  await expect.poll(() => src(page)).toBe(`/media/${LADDER[1080]}`);
  await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
  await expect.poll(() => time(page)).toBeCloseTo(at, 1);
  await page.waitForTimeout(500);
  expect(await video(page).evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  await context.close();
});
