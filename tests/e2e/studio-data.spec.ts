/** 作品数据: the creator's daily figures drawn on the server, moved by what other users do. */
import { expect, test, loginDemo, newAccount, signIn } from './support.ts';

test('作品数据 shows five totals and a chart each; a like by someone else adds to the work’s 点赞 today', async ({ browser, playwright }) => {
  const api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const demo = await loginDemo(api);
  const fan = await newAccount(api, 'stats-fan');
  const works = await (await api.get('/api/studio/works', { headers: { token: demo.token } })).json();
  const work = works.data.items.find((w: { status: string }) => w.status === 'published');
  expect(work, 'the demo account has published works').toBeTruthy();

  const context = await browser.newContext();
  await signIn(context, demo);
  const page = await context.newPage();
  await page.goto('/post/data');
  await expect(page.getByRole('heading', { name: '作品数据', level: 1 })).toBeVisible();
  for (const metric of ['播放量', '点赞', '评论', '分享', '新增粉丝']) {
    await expect(page.getByRole('img', { name: `${metric}趋势（近7天）` }).first()).toBeVisible();
  }
  await page.getByRole('link', { name: '近30天' }).click();
  await expect(page).toHaveURL(/days=30/);
  await expect(page.getByRole('img', { name: '点赞趋势（近30天）' }).first()).toBeVisible();

  // One work, then a like from a fan: its 点赞 total over the range grows by one.
  await page.getByLabel('作品', { exact: true }).selectOption(String(work.id));
  await page.getByRole('button', { name: '查看' }).click();
  await expect(page).toHaveURL(new RegExp(`workId=${work.id}`));
  const likes = page.locator('dl > div').filter({ hasText: '点赞' }).locator('dd').first();
  const before = Number(await likes.textContent());
  const liked = await api.post('/api/aweme/v1/web/commit/item/digg/', { headers: { token: fan.token }, form: { aweme_id: String(work.id), type: 1 } });
  expect(liked.status()).toBe(200);
  await page.reload();
  await expect(likes).toHaveText(String(before + 1));
  await context.close();
  await api.dispose();
});
