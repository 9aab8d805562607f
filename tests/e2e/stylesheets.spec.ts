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
      const seen = {
        firstFrame: undefined as undefined | { sheets: number; headerPosition: string },
        video: undefined as number | undefined,
      };
      (window as unknown as { __seen: typeof seen }).__seen = seen;
      requestAnimationFrame(() => {
        const header = document.getElementById('site-header');
        seen.firstFrame = {
          sheets: document.styleSheets.length,
          headerPosition: header ? getComputedStyle(header).position : '',
        };
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
    await page.waitForFunction(
      () => (window as unknown as { __seen: { firstFrame?: unknown } }).__seen.firstFrame !== undefined,
    );
    const first = await page.evaluate(
      () =>
        (window as unknown as { __seen: { firstFrame: { sheets: number; headerPosition: string } } }).__seen.firstFrame,
    );
    // The header is position: fixed by the stylesheet only; unstyled it would be static.
    expect(first.headerPosition).toBe('fixed');
    expect(first.sheets).toBeGreaterThan(0);
  });

  test('the parser does not wait for them: the feed’s <video> is in the page before they arrive', async ({ page }) => {
    await page.goto('/', { waitUntil: 'commit' });
    await page.waitForFunction(
      () => (window as unknown as { __seen: { firstFrame?: unknown } }).__seen.firstFrame !== undefined,
      undefined,
      { timeout: 10_000 },
    );
    const { video, sheetsDone } = await page.evaluate(() => ({
      video: (window as unknown as { __seen: { video?: number } }).__seen.video,
      sheetsDone: Math.min(
        ...performance
          .getEntriesByType('resource')
          .filter((e) => e.name.endsWith('.css'))
          .map((e) => (e as PerformanceResourceTiming).responseEnd),
      ),
    }));
    expect(video).toBeDefined();
    expect(video!).toBeLessThan(sheetsDone);
  });

  test('a browser without blocking="render" keeps the page hidden until they have arrived', async ({ page }) => {
    // As in Firefox and Safari: no `blocking` on <link>. The attribute is still honoured here, so what is checked is
    // the fallback's own doing: the root hidden before the stylesheets came, shown again once they had.
    await page.addInitScript(() => {
      delete (HTMLLinkElement.prototype as { blocking?: unknown }).blocking;
      const changes: { at: number; visibility: string }[] = [];
      (window as unknown as { __visibility: typeof changes }).__visibility = changes;
      // The document has no root element yet when this runs: watch the document for the root's style.
      new MutationObserver((records) => {
        if (records.some((r) => r.target === document.documentElement))
          changes.push({ at: performance.now(), visibility: document.documentElement.style.visibility });
      }).observe(document, { attributes: true, attributeFilter: ['style'], subtree: true });
    });
    await page.goto('/');
    await expect(page.locator('#site-header')).toBeVisible();
    const { changes, sheetsDone } = await page.evaluate(() => ({
      changes: (window as unknown as { __visibility: { at: number; visibility: string }[] }).__visibility,
      sheetsDone: Math.max(
        ...performance
          .getEntriesByType('resource')
          .filter((e) => e.name.endsWith('.css'))
          .map((e) => (e as PerformanceResourceTiming).responseEnd),
      ),
    }));
    expect(changes[0]?.visibility).toBe('hidden');
    expect(changes[0]!.at).toBeLessThan(sheetsDone);
    const shown = changes.find((c) => c.visibility === '');
    expect(shown).toBeDefined();
    expect(shown!.at).toBeGreaterThanOrEqual(sheetsDone);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).visibility)).toBe('visible');
  });
});
