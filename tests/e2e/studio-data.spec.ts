/** 作品数据: the creator's daily figures drawn on the server, moved by what other users do. */
import { expect, test, loginDemo, newAccount, signIn } from './support.ts';

test('作品数据 shows five totals and a chart each; a like by someone else adds to the work’s 点赞 today', async ({
  browser,
  playwright,
}) => {
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
  const liked = await api.post('/api/aweme/v1/web/commit/item/digg/', {
    headers: { token: fan.token },
    form: { aweme_id: String(work.id), type: 1 },
  });
  expect(liked.status()).toBe(200);
  await page.reload();
  await expect(likes).toHaveText(String(before + 1));
  await context.close();
  await api.dispose();
});

test('视频管理’s 数据 on a work opens 作品数据 with that work chosen', async ({ browser, playwright }) => {
  const api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const demo = await loginDemo(api);
  const works = await (await api.get('/api/studio/works', { headers: { token: demo.token } })).json();
  const work = works.data.items.find((w: { status: string }) => w.status === 'published');
  const context = await browser.newContext();
  await signIn(context, demo);
  const page = await context.newPage();
  await page.goto('/post/manage');
  const row = page.locator(`li[data-work-id="${work.id}"]`);
  await row.getByRole('link', { name: /^数据/ }).click();
  await expect(page).toHaveURL(new RegExp(`/post/data\\?workId=${work.id}$`));
  await expect(page.getByLabel('作品', { exact: true })).toHaveValue(String(work.id));
  await context.close();
  await api.dispose();
});

test('作品数据 on a phone draws each chart narrow from its figures; pointing at a day shows that day’s figure', async ({
  browser,
  playwright,
}) => {
  const api = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const demo = await loginDemo(api);
  const metrics = ['播放量', '点赞', '评论', '分享', '新增粉丝'];

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await signIn(phone, demo);
  const small = await phone.newPage();
  await small.goto('/post/data?days=30');
  for (const metric of metrics) {
    // The one drawing a phone shows is the narrow one, named like the wide one it stands for.
    await expect(small.getByRole('img', { name: `${metric}趋势（近30天）`, includeHidden: true })).toHaveCount(2);
    const chart = small.getByRole('img', { name: `${metric}趋势（近30天）` });
    await expect(chart).toHaveCount(1);
    await expect(chart).toHaveAttribute('viewBox', '0 0 320 200');
    const box = (await chart.boundingBox())!;
    expect(box.width, `${metric}: the narrow drawing fits the phone`).toBeLessThanOrEqual(390);
  }
  await phone.close();

  const desk = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await signIn(desk, demo);
  const page = await desk.newPage();
  await page.goto('/post/data');
  const section = page
    .locator('[data-stats-chart]')
    .filter({ has: page.getByRole('heading', { name: '点赞', exact: true }) });
  const rows = await section
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr): [string, string] => [tr.querySelector('th')!.textContent!, tr.querySelector('td')!.textContent!]),
    );
  expect(rows).toHaveLength(7);
  const chart = section.getByRole('img', { name: '点赞趋势（近7天）' });
  await expect(chart).toBeVisible();
  const box = (await chart.boundingBox())!;
  const width = await chart.evaluate((svg) => (svg as SVGSVGElement).viewBox.baseVal.width);
  // The plot runs from 44 to width - 12 in the drawing's units, a band a day.
  for (const index of [6, 2]) {
    const x = box.x + ((44 + ((width - 56) / 7) * (index + 0.5)) / width) * box.width;
    await page.mouse.move(x, box.y + box.height / 2);
    const [day, figure] = rows[index]!;
    await expect(section.locator('[data-tip]')).toHaveText(`${day.slice(5)}: ${figure}`);
  }
  await page.mouse.move(box.x - 40, box.y - 40);
  await expect(section.locator('[data-tip]')).toBeHidden();
  await desk.close();
  await api.dispose();
});
