import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test, loginDemo, newAccount, signIn, type Session } from './support.ts';

const LOGIN_TITLE = '登录后免费畅享高清视频';
const TABS = ['作品', '喜欢', '收藏', '观看历史', '稍后再看'] as const;
const FIRST_PAGE = 24;

interface ListUser {
  sec_uid: string;
  nickname: string;
  aweme_count: number;
  follow_status: 0 | 1 | 2;
}

// One password login for the whole file: the per-IP login limit (PASSWORD_IP_RATE) is shared with every other spec.
test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let demo: Session;
let fresh: Session & { email: string };

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  demo = await loginDemo(api);

  // A brand-new account (the first code login creates it): every tab empty, no password yet.
  fresh = await newAccount(api, 'profile');
});

test.afterAll(async () => {
  await api.dispose();
});

/** Logs the browser context in as `who`: the HttpOnly session cookie for the server and the stored token for writes. */
async function get<T>(url: string, who?: Session): Promise<T> {
  const res = await api.get(url, { headers: who ? { token: who.token } : {} });
  expect(res.status(), url).toBe(200);
  return res.json();
}

const selfCounts = async (who: Session) =>
  (
    await get<{ user: { following_count: number; follower_count: number } }>(
      '/api/aweme/v1/web/user/profile/self/',
      who,
    )
  ).user;

async function listOf(kind: 'following' | 'follower', who: Session): Promise<ListUser[]> {
  const body = await get<{ followings?: ListUser[]; followers?: ListUser[] }>(
    `/api/aweme/v1/web/user/${kind}/list/?count=50`,
    who,
  );
  return (kind === 'following' ? body.followings : body.followers) ?? [];
}

/** A button of the page's content; islands hydrate on the first interaction and replay the click (client:interact). */
const live = (page: Page, name: string) => page.getByRole('main').getByRole('button', { name, exact: true }).first();

const profileHeader = (page: Page) => page.locator('main header').first();
const cards = (page: Page) => page.locator('#profile-grid ul.card-grid > li:not([data-skeleton])');
const tabLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: '主页内容' }).getByRole('link', { name: new RegExp(`^${name}`) });

/** The number after a label such as 粉丝 in the profile header. */
async function countIn(header: Locator, label: '关注' | '粉丝'): Promise<number> {
  const text = await header.getByRole('button', { name: new RegExp(`^${label}\\s*\\d`) }).innerText();
  return Number(text.replace(/\D/g, ''));
}

test('every tab of /user/self renders its list with its count, and posts is an alias of post', async ({
  page,
  context,
}) => {
  await signIn(context, demo);
  await page.goto('/user/self');
  await expect(page.getByRole('heading', { level: 1, name: demo.user.nickname })).toBeVisible();
  for (const [i, name] of TABS.entries()) {
    if (i > 0) await tabLink(page, name).click();
    const link = tabLink(page, name);
    await expect(link).toHaveAttribute('aria-current', 'page');
    const count = Number((await link.innerText()).replace(/\D/g, ''));
    if (count === 0) {
      await expect(page.getByRole('main').getByText('暂无内容')).toBeVisible();
    } else {
      await expect(cards(page)).toHaveCount(Math.min(count, FIRST_PAGE));
    }
  }
  await page.goto('/user/self?showTab=posts');
  await expect(tabLink(page, '作品')).toHaveAttribute('aria-current', 'page');
  await expect(cards(page).first()).toBeVisible();
});

test('a new account sees 暂无内容 on every tab, and sets then changes its password from the profile', async ({
  page,
  context,
}) => {
  await signIn(context, fresh);
  await page.goto('/user/self');
  for (const name of TABS) {
    await tabLink(page, name).click();
    await expect(tabLink(page, name)).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('main').getByText('暂无内容')).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
  }

  await live(page, '设置密码').click();
  let dialog = page.getByRole('dialog', { name: '设置密码' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('当前密码')).toHaveCount(0);
  await dialog.getByLabel('新密码', { exact: true }).fill('short1');
  await dialog.getByLabel('确认新密码').fill('short2');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByText('两次输入的新密码不一致')).toBeVisible();
  await dialog.getByLabel('确认新密码').fill('short1');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('密码需为8到128位');
  await expect(dialog.getByLabel('新密码', { exact: true })).toHaveAttribute('type', 'password');
  await dialog.getByLabel('显示密码').check();
  await expect(dialog.getByLabel('新密码', { exact: true })).toHaveAttribute('type', 'text');
  await dialog.getByLabel('新密码', { exact: true }).fill('first pass 1');
  await dialog.getByLabel('确认新密码').fill('first pass 1');
  await dialog.getByRole('button', { name: '保存' }).click();
  // Setting and changing a password each run scrypt (N=2^17) on the server: allow for a loaded machine.
  await expect(page.getByRole('status').getByText('密码已设置')).toBeVisible({ timeout: 15_000 });
  await expect(dialog).toBeHidden();

  await live(page, '修改密码').click();
  dialog = page.getByRole('dialog', { name: '修改密码' });
  await dialog.getByLabel('当前密码').fill('not it 1');
  await dialog.getByLabel('新密码', { exact: true }).fill('second pass 2');
  await dialog.getByLabel('确认新密码').fill('second pass 2');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('当前密码错误');
  await dialog.getByLabel('当前密码').fill('first pass 1');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(page.getByRole('status').getByText('密码已修改')).toBeVisible({ timeout: 15_000 });
  await expect(dialog).toBeHidden();
  await expect(live(page, '修改密码')).toBeFocused();

  const login = await api.post('/api/passport/login/password', {
    form: { email: fresh.email, password: 'second pass 2' },
  });
  expect(login.status()).toBe(200);
});

test('scrolling a long profile tab loads the rest once, without duplicates, then stops', async ({ page, context }) => {
  await signIn(context, demo);
  const people = [...(await listOf('following', demo)), ...(await listOf('follower', demo))];
  const prolific = people.sort((a, b) => b.aweme_count - a.aweme_count)[0]!;
  expect(prolific.aweme_count, 'someone the demo account knows has more than one page of works').toBeGreaterThan(
    FIRST_PAGE,
  );

  await page.goto(`/user/${prolific.sec_uid}`);
  await expect(cards(page)).toHaveCount(FIRST_PAGE);
  await expect(page.getByRole('button', { name: '加载更多' })).toBeVisible();
  // Scrolling to the end, page after page, until the grid holds every work.
  await expect(async () => {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    expect(await cards(page).count()).toBe(prolific.aweme_count);
  }).toPass({ timeout: 15_000 });
  await expect(cards(page)).toHaveCount(prolific.aweme_count);
  await expect(page.getByText('没有更多了')).toBeVisible();
  await expect(page.locator('#profile-grid ul.card-grid')).not.toHaveAttribute('aria-busy', 'true');
  const hrefs = await cards(page)
    .locator('a[href^="/video/"]:first-child')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(new Set(hrefs).size).toBe(prolific.aweme_count);
  // Same cards as the server renders: poster with alt text, likes, duration, author link.
  const last = cards(page).last();
  await expect(last.getByRole('link', { name: `@${prolific.nickname}` })).toBeVisible();
  await expect(last.locator('img')).toHaveAttribute('src', /\S/);
});

test('following from a profile changes their 粉丝 and my 关注, and unfollowing restores both', async ({
  page,
  context,
}) => {
  await signIn(context, demo);
  // Someone who follows the demo account without being followed back: a follow makes it mutual.
  const fan = (await listOf('follower', demo)).find((u) => u.follow_status === 0);
  expect(fan, 'the seed has a fan the demo account does not follow').toBeTruthy();
  const mine = await selfCounts(demo);

  await page.goto(`/user/${fan!.sec_uid}`);
  const header = profileHeader(page);
  const followers = await countIn(header, '粉丝');
  await live(page, '关注').click();
  await expect(header.getByRole('button', { name: '互相关注', exact: true })).toBeVisible();
  await expect.poll(() => countIn(header, '粉丝')).toBe(followers + 1);
  expect((await selfCounts(demo)).following_count).toBe(mine.following_count + 1);

  // The profile is a page every viewer shares: a reload may meet the copy kept before the follow for its freshness.
  await expect
    .poll(
      async () => {
        await page.reload();
        return countIn(header, '粉丝');
      },
      { timeout: 20_000 },
    )
    .toBe(followers + 1);
  await expect(header.getByRole('button', { name: '互相关注', exact: true })).toBeVisible();

  await live(page, '互相关注').click();
  await expect(header.getByRole('button', { name: '关注', exact: true })).toBeVisible();
  await expect.poll(() => countIn(header, '粉丝')).toBe(followers);
  expect((await selfCounts(demo)).following_count).toBe(mine.following_count);
  await expect
    .poll(
      async () => {
        await page.reload();
        return countIn(header, '粉丝');
      },
      { timeout: 20_000 },
    )
    .toBe(followers);
  await expect(header.getByRole('button', { name: '关注', exact: true })).toBeVisible();
});

test('the 关注 and 粉丝 lists are different lists with follow buttons; Esc closes them and focus returns', async ({
  page,
  context,
}) => {
  await signIn(context, demo);
  const [following, followers] = [await listOf('following', demo), await listOf('follower', demo)];
  await page.goto('/user/self');
  const header = profileHeader(page);

  const names: Record<string, string[]> = {};
  for (const [label, title, expected] of [
    ['关注', `${demo.user.nickname}的关注`, following],
    ['粉丝', `${demo.user.nickname}的粉丝`, followers],
  ] as const) {
    const trigger = header.getByRole('button', { name: new RegExp(`^${label}\\s*\\d`) });
    await trigger.click();
    const dialog = page.getByRole('dialog', { name: title });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('没有更多了')).toBeVisible();
    const rows = dialog.getByRole('list').getByRole('listitem');
    await expect(rows).toHaveCount(expected.length);
    names[label] = await rows.getByRole('link').allInnerTexts();
    expect(names[label]!.sort()).toEqual(expected.map((u) => u.nickname).sort());
    // Each row can be followed from here; the demo account follows everyone in its 关注 list.
    await expect(rows.first().getByRole('button', { name: /^(关注|已关注|互相关注)$/ })).toBeVisible();
    if (label === '关注') await expect(dialog.getByRole('button', { name: '关注', exact: true })).toHaveCount(0);
    if (label === '粉丝') {
      // Following a fan back from the list makes it mutual and moves my own 关注 on the page; unfollowing restores it.
      const name = await rows
        .filter({ has: page.getByRole('button', { name: '关注', exact: true }) })
        .first()
        .getByRole('link')
        .innerText();
      const fan = rows.filter({ has: page.getByRole('link', { name, exact: true }) });
      await fan.getByRole('button', { name: '关注', exact: true }).click();
      await expect(fan.getByRole('button', { name: '互相关注', exact: true })).toBeVisible();
      await expect(header.getByRole('button', { name: new RegExp(`^关注\\s*${following.length + 1}$`) })).toBeVisible();
      await fan.getByRole('button', { name: '互相关注', exact: true }).click();
      await expect(fan.getByRole('button', { name: '关注', exact: true })).toBeVisible();
      await expect(header.getByRole('button', { name: new RegExp(`^关注\\s*${following.length}$`) })).toBeVisible();
    }
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
  }
  expect(names['关注']).not.toEqual(names['粉丝']);
  await expect(header.getByRole('button', { name: new RegExp(`^关注\\s*${following.length}$`) })).toBeVisible();
  await expect(header.getByRole('button', { name: new RegExp(`^粉丝\\s*${followers.length}$`) })).toBeVisible();
});

test('/friend shows the mutual follows above their works', async ({ page, context }) => {
  await signIn(context, demo);
  const mutual = (await listOf('following', demo)).filter((u) => u.follow_status === 2);
  await page.goto('/friend');
  const row = page.getByRole('region', { name: '我的朋友' });
  await expect(row.getByRole('link')).toHaveCount(mutual.length);
  expect((await row.getByRole('link').allInnerTexts()).sort()).toEqual(mutual.map((u) => u.nickname).sort());
  await row.getByRole('link', { name: mutual[0]!.nickname }).click();
  await expect(page.getByRole('heading', { level: 1, name: mutual[0]!.nickname })).toBeVisible();
  await expect(profileHeader(page).getByRole('button', { name: '互相关注', exact: true })).toBeVisible();
});

test('/follow continues its grid as it scrolls', async ({ page, context }) => {
  await signIn(context, demo);
  await page.goto('/follow');
  const grid = page.locator('#follow-grid ul.card-grid > li:not([data-skeleton])');
  await expect(grid).toHaveCount(FIRST_PAGE);
  await page.getByRole('button', { name: '加载更多' }).scrollIntoViewIfNeeded();
  await expect.poll(() => grid.count()).toBeGreaterThan(FIRST_PAGE);
});

test('an anonymous 关注 opens the login dialog', async ({ page }) => {
  const someone = (await listOf('following', demo))[0]!;
  await page.goto(`/user/${someone.sec_uid}`);
  await live(page, '关注').click();
  await expect(page.getByRole('dialog', { name: LOGIN_TITLE })).toBeVisible();
});
