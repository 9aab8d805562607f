import { execFileSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext } from '@playwright/test';
import { routePatterns, routeUrls } from './routes.ts';
import { DATA_DIR, expect, loginDemo, newAccount, signIn, test, type Session } from './support.ts';

// axe over every page route, at the desktop and the phone width, in both themes (light: every rule; dark: contrast,
// the only thing a theme changes), spread over the workers:
// - the staff console (/admin…) as an admin, at both widths (to anyone else it is the site's 404, audited as /404);
// - every other route logged in at one width and logged out at the other, the two swapping from one route to the next,
//   so each route is seen at both widths and the shared chrome (header, sidebar, the phone's bars) in all four
//   combinations of width and login.
test.describe.configure({ mode: 'parallel' });
let api: APIRequestContext;
let demo: Session;
let admin: Session;
let urls: Map<string, string>;

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  demo = await loginDemo(api);
  // As an operator grants it, beside the running server (scripts/staff.ts).
  const account = await newAccount(api, 'a11y-admin');
  execFileSync(process.execPath, ['scripts/staff.ts', 'grant', account.email, 'admin'], {
    env: { ...process.env, DATA_DIR },
  });
  admin = account;
  urls = await routeUrls(api);
});

test.afterAll(async () => {
  await api.dispose();
});

const WIDTHS = [
  [1440, 900],
  [390, 844],
] as const;

const others = routePatterns().filter((route) => !route.startsWith('/admin'));
const audits = routePatterns().flatMap((route) =>
  WIDTHS.map(([width, height], w) => {
    const who = route.startsWith('/admin') ? 'admin' : (others.indexOf(route) + w) % 2 === 0 ? 'member' : 'visitor';
    return { route, width, height, who } as const;
  }),
);

const STATE = { admin: 'as an admin', member: 'logged in', visitor: 'logged out' } as const;

for (const { route, width, height, who } of audits) {
  test(`axe: ${route} at ${width}x${height}, ${STATE[who]}, light and dark: no serious or critical violation`, async ({
    browser,
  }) => {
    // Two full audits of a page with a playing video (/vs/[id], /video/[id]) took 18-31 s on a loaded machine.
    test.setTimeout(60_000);
    const phone = width < 768;
    // AxeBuilder needs a page of its own context.
    const context = await browser.newContext({ viewport: { width, height }, hasTouch: phone, isMobile: phone });
    if (who !== 'visitor') await signIn(context, who === 'admin' ? admin : demo);
    // Videos are held paused, a state every viewer sees: the audit reads the page, and a playing video (its progress,
    // danmaku and 连播) made each audit two to three times slower on a busy machine.
    await context.addInitScript(() =>
      document.addEventListener('play', (event) => (event.target as HTMLMediaElement).pause(), true),
    );
    const page = await context.newPage();
    const response = await page.goto(urls.get(route)!);
    // The console is only audited where it answers: an admin who lost the page would be auditing the 404.
    if (who === 'admin') expect(response?.status()).toBe(200);
    const found: string[] = [];
    for (const dark of [false, true]) {
      await page.evaluate(
        (on) =>
          on ? document.documentElement.setAttribute('dark', 'true') : document.documentElement.removeAttribute('dark'),
        dark,
      );
      // Text that inherits the body's colour follows it through the theme's 0.2 s transition (theme.css).
      if (dark) await page.waitForTimeout(400);
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
