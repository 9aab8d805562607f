import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext } from '@playwright/test';
import { routePatterns, routeUrls } from './routes.ts';
import { expect, loginDemo, signIn, test, type Session } from './support.ts';

// axe over every page route, at the desktop and the phone width, logged out and logged in, in both themes: one page
// per route, width and login state, spread over the workers.
test.describe.configure({ mode: 'parallel' });
let api: APIRequestContext;
let demo: Session;
let urls: Map<string, string>;

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  demo = await loginDemo(api);
  urls = await routeUrls(api);
});

test.afterAll(async () => {
  await api.dispose();
});

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  for (const loggedIn of [false, true]) {
    for (const route of routePatterns()) {
      test(`axe: ${route} at ${width}x${height}, ${loggedIn ? 'logged in' : 'logged out'}, light and dark: no serious or critical violation`, async ({
        browser,
      }) => {
        // Two full audits of a page with a playing video (/vs/[id], /video/[id]) took 18-31 s on a loaded machine.
        test.setTimeout(60_000);
        const phone = width < 768;
        // AxeBuilder needs a page of its own context.
        const context = await browser.newContext({ viewport: { width, height }, hasTouch: phone, isMobile: phone });
        if (loggedIn) await signIn(context, demo);
        const page = await context.newPage();
        await page.goto(urls.get(route)!);
        // A theatre episode moves to the next one when it ends; an audit on a slow machine outlasts a short clip.
        await page.evaluate(() => document.querySelectorAll('video').forEach((v) => (v.loop = true)));
        const found: string[] = [];
        for (const dark of [false, true]) {
          await page.evaluate(
            (on) =>
              on
                ? document.documentElement.setAttribute('dark', 'true')
                : document.documentElement.removeAttribute('dark'),
            dark,
          );
          // Text that inherits the body's colour follows it through the theme's 0.2 s transition (theme.css).
          if (dark) await page.waitForTimeout(400);
          // Only colours change with the theme: the dark pass checks contrast alone.
          const axe = new AxeBuilder({ page });
          const result = await (dark ? axe.withRules(['color-contrast']) : axe).analyze();
          for (const v of result.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
            for (const node of v.nodes) {
              const detail = v.id === 'color-contrast' ? ` ${node.any[0]?.message ?? ''}` : '';
              found.push(`${dark ? 'dark' : 'light'}: ${v.id} (${v.impact}) ${node.target.join(' ')}${detail}`);
            }
          }
        }
        await context.close();
        expect(found).toEqual([]);
      });
    }
  }
}
