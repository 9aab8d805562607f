import { expect, test } from './support.ts';

/** How long each stylesheet is held back: long enough that anything not waiting for it shows first. */
const HOLD_MS = 1500;

test.describe('the page’s stylesheets, held back on a slow network', () => {
  test.beforeEach(async ({ page }) => {
    await page.route(/\/_astro\/[^/]+\.css$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
      await route.continue();
    });
    await page.addInitScript(() => {
      const seen = { firstFrame: undefined as undefined | { sheets: number; headerPosition: string }, video: undefined as number | undefined };
      (window as unknown as { __seen: typeof seen }).__seen = seen;
      requestAnimationFrame(() => {
        const header = document.getElementById('site-header');
        seen.firstFrame = { sheets: document.styleSheets.length, headerPosition: header ? getComputedStyle(header).position : '' };
      });
      new MutationObserver((_, observer) => {
        if (!document.querySelector('video')) return;
        seen.video = performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
  });

  test('the first frame waits for them: nothing is painted unstyled', async ({ page }) => {
    await page.goto('/');
    await page.waitForFunction(() => (window as unknown as { __seen: { firstFrame?: unknown } }).__seen.firstFrame !== undefined);
    const first = await page.evaluate(() => (window as unknown as { __seen: { firstFrame: { sheets: number; headerPosition: string } } }).__seen.firstFrame);
    // The header is position: fixed by the stylesheet only; unstyled it would be static.
    expect(first.headerPosition).toBe('fixed');
    expect(first.sheets).toBeGreaterThan(0);
  });

  test('the parser does not wait for them: the feed’s <video> is in the page before they arrive', async ({ page }) => {
    await page.goto('/', { waitUntil: 'commit' });
    await page.waitForFunction(() => (window as unknown as { __seen: { firstFrame?: unknown } }).__seen.firstFrame !== undefined, undefined, { timeout: 10_000 });
    const { video, sheetsDone } = await page.evaluate(() => ({
      video: (window as unknown as { __seen: { video?: number } }).__seen.video,
      sheetsDone: Math.min(...performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.css')).map((e) => (e as PerformanceResourceTiming).responseEnd)),
    }));
    expect(video).toBeDefined();
    expect(video!).toBeLessThan(sheetsDone);
  });
});
