/** A session that ends while a page is open (revoked elsewhere, expired) turns the page into the anonymous one at once. */
import type { APIRequestContext } from '@playwright/test';
import { expect, test, newAccount, signIn } from './support.ts';

let api: APIRequestContext;

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
});

test.afterAll(async () => {
  await api.dispose();
});

test('revoked elsewhere: the next answer, a 401, brings 登录 back and drops the personal state, without a reload', async ({
  browser,
}) => {
  const fan = await newAccount(api, 'session-end');
  const context = await browser.newContext();
  await signIn(context, fan);
  const page = await context.newPage();
  const feed = await (await api.post('/api/video/getVideosByCursor', { form: { cursor: 0, size: 12 } })).json();
  const id: number = feed.data[10].id;
  // Liked before the page loads, so the page is drawn with the viewer's mark.
  expect(
    (
      await api.post('/api/aweme/v1/web/commit/item/digg/', {
        form: { aweme_id: id, type: 1 },
        headers: { token: fan.token },
      })
    ).status(),
  ).toBe(200);
  await page.goto(`/video/${id}`);
  const header = page.getByRole('banner');
  const collect = page.getByRole('list', { name: '视频操作' }).getByRole('button', { name: /^收藏/ });
  const like = page.getByRole('list', { name: '视频操作' }).getByRole('button', { name: /^点赞/ });
  await expect(header.getByRole('button', { name: `${fan.user.nickname}的账号菜单` })).toBeVisible();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await page.evaluate(() => Object.assign(window, { samePage: true }));

  // Logged out from another device: the same token is revoked.
  expect((await api.post('/api/passport/logout', { headers: { token: fan.token } })).status()).toBe(200);
  await collect.click();

  // The click wakes the island, the write meets the 401, the message comes with the catalogue: allow for a busy machine.
  await expect(page.getByRole('status').getByText('登录状态已过期，请重新登录')).toBeVisible({ timeout: 15_000 });
  await expect(header.getByRole('button', { name: '登录', exact: true })).toBeVisible();
  await expect(header.getByRole('button', { name: `${fan.user.nickname}的账号菜单` })).toHaveCount(0);
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await expect(collect).toHaveAttribute('aria-pressed', 'false');
  await header.getByRole('button', { name: /^通知/ }).click();
  await expect(page.getByText('登录后即可查看互动消息')).toBeVisible();
  await page.keyboard.press('Escape');
  expect(await page.evaluate(() => 'samePage' in window)).toBe(true);

  // The 登录 that came back works: hover shows the logged-out popover, a click the dialog.
  await header.getByRole('button', { name: '登录', exact: true }).hover();
  await expect(page.getByRole('dialog', { name: '未登录' })).toBeVisible();
  await header.getByRole('button', { name: '登录', exact: true }).click();
  await expect(page.getByRole('dialog', { name: '登录后免费畅享高清视频' })).toBeVisible();
  await context.close();
});
