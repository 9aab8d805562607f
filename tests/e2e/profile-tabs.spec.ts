import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { expect, test, newAccount, signIn, type Session } from './support.ts';

const ALL = ['作品', '喜欢', '收藏', '观看历史', '稍后再看'];

// One owner whose privacy the cases change in turn: they must not interleave.
test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let owner: Session;
let other: Session;
let collected: string;
const pages: Partial<Record<'owner' | 'other' | 'anonymous', Page>> = {};

async function pageAs(browser: Browser, who?: Session): Promise<Page> {
  const context = await browser.newContext();
  if (who) await signIn(context, who);
  return context.newPage();
}

test.beforeAll(async ({ playwright, browser }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  // Two brand-new accounts: the owner likes and collects one video, so 喜欢 and 收藏 have a card.
  owner = await newAccount(api, 'tabs-owner');
  other = await newAccount(api, 'tabs-other');
  const feed = await (await api.post('/api/video/getVideosByCursor', { form: { cursor: 0, size: 1 } })).json();
  collected = String(feed.data[0].id);
  const headers = { token: owner.token };
  expect(
    (
      await api.post('/api/aweme/v1/web/commit/item/digg/', { headers, form: { aweme_id: collected, type: 1 } })
    ).status(),
  ).toBe(200);
  expect(
    (
      await api.post('/api/aweme/v1/web/aweme/collect/', { headers, form: { aweme_id: collected, action: 1 } })
    ).status(),
  ).toBe(200);
  pages.owner = await pageAs(browser, owner);
  pages.other = await pageAs(browser, other);
  pages.anonymous = await pageAs(browser);
});

test.afterAll(async () => {
  for (const page of Object.values(pages)) await page.context().close();
  await api.dispose();
});

const tabLinks = (page: Page) => page.getByRole('navigation', { name: '主页内容' }).getByRole('link');
const tabNames = async (page: Page) =>
  (await tabLinks(page).allInnerTexts()).map((text) => text.replace(/\s*\d+$/, ''));

for (const likesPublic of [false, true]) {
  for (const collectsPublic of [false, true]) {
    test(`profile tabs with likesPublic ${likesPublic}, collectsPublic ${collectsPublic}: the owner sees all, others what is public`, async () => {
      const saved = await api.post('/api/settings/privacy', {
        headers: { token: owner.token },
        form: { likes_public: Number(likesPublic), collects_public: Number(collectsPublic) },
      });
      expect(saved.status()).toBe(200);
      const shared = ['作品', ...(likesPublic ? ['喜欢'] : []), ...(collectsPublic ? ['收藏'] : [])];
      const hidden = ALL.filter((name) => !shared.includes(name));
      const address: Record<string, string> = {
        喜欢: 'like',
        收藏: 'favorite_collection',
        观看历史: 'record',
        稍后再看: 'watch_later',
      };

      for (const [who, page] of Object.entries(pages) as [keyof typeof pages, Page][]) {
        const expected = who === 'owner' ? ALL : shared;
        await page.goto(`/user/${owner.user.sec_uid}`);
        // The owner is taken from the public copy of their profile to the page about them.
        if (who === 'owner') await expect(page).toHaveURL(/\/user\/self$/);
        expect(await tabNames(page), who).toEqual(expected);
        if (who === 'owner') continue;
        // Asked for by address, a hidden tab opens 作品 instead.
        for (const name of hidden) {
          await page.goto(`/user/${owner.user.sec_uid}?showTab=${address[name]}`);
          await expect(tabLinks(page).filter({ hasText: /^作品/ }), `${who} ${name}`).toHaveAttribute(
            'aria-current',
            'page',
          );
          await expect(tabLinks(page).filter({ hasText: name })).toHaveCount(0);
        }
      }

      if (collectsPublic) {
        // Another user's public 收藏 lists the owner's collection, not the viewer's own.
        const page = pages.other!;
        await page.goto(`/user/${owner.user.sec_uid}?showTab=favorite_collection`);
        await expect(tabLinks(page).filter({ hasText: /^收藏/ })).toHaveAttribute('aria-current', 'page');
        await expect(page.locator(`#profile-grid a[href="/video/${collected}"]`).first()).toBeVisible();
      }
    });
  }
}
