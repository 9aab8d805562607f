/** A douyin.com-style web client on this site writes with the session cookie alone, no Token header. */
import { expect, test, newAccount } from './support.ts';

test('a page of this site likes a video by fetch with only the session cookie, and the like is stored', async ({
  page,
  context,
  request,
}) => {
  const who = await newAccount(request, 'cookie');
  await context.addCookies([{ name: 'sy_session', value: who.token, url: test.info().project.use.baseURL! }]);
  const feed = await (await request.get('/api/aweme/v1/web/tab/feed/', { params: { count: 1 } })).json();
  const awemeId: string = feed.aweme_list[0].aweme_id;

  await page.goto('/discover');
  const answer = await page.evaluate(async (id) => {
    const res = await fetch('/api/aweme/v1/web/commit/item/digg/', {
      method: 'POST',
      credentials: 'include',
      body: new URLSearchParams({ aweme_id: id, type: '1' }),
    });
    return { status: res.status, body: await res.json() };
  }, awemeId);
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ status_code: 0, user_digged: 1 });

  const detail = await (
    await request.get('/api/aweme/v1/web/aweme/detail/', {
      params: { aweme_id: awemeId },
      headers: { Token: who.token },
    })
  ).json();
  expect(detail.aweme_detail.user_digged).toBe(1);
});

test('a viewer whose browser kept the session cookie but lost its stored token (storage cleared) still comments and likes', async ({
  page,
  context,
  request,
}) => {
  const who = await newAccount(request, 'cookieonly');
  // What a login leaves in the browser's cookies: the session and its readable member hint.
  const url = test.info().project.use.baseURL!;
  await context.addCookies([
    { name: 'sy_session', value: who.token, url },
    { name: 'sy_member', value: '1', url },
  ]);
  const feed = await (await request.get('/api/aweme/v1/web/tab/feed/', { params: { count: 1 } })).json();
  const awemeId: string = feed.aweme_list[0].aweme_id;

  await page.goto(`/video/${awemeId}`);
  expect(await page.evaluate(() => localStorage.getItem('sy.user'))).toBeNull();
  // The header shows the viewer the cookie names, so a login dialog asked for here would have nothing to open it.
  await expect(page.getByRole('button', { name: '登录', exact: true })).toHaveCount(0);

  const column = page.locator(`[data-comments="${awemeId}"]`);
  await column.scrollIntoViewIfNeeded();
  await column.getByRole('heading').hover();
  const box = column.getByRole('textbox', { name: '留下你的精彩评论吧' });
  const text = `只凭会话评论 ${Date.now()}`;
  await box.fill(text);
  await box.press('Enter');
  await expect(column.locator('article', { hasText: text })).toHaveCount(1);
  await expect(page.getByRole('dialog', { name: '登录后免费畅享高清视频' })).toHaveCount(0);

  const like = page.getByRole('list', { name: '视频操作' }).getByRole('button', { name: /^点赞/ });
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');

  const headers = { Token: who.token };
  const stored = await (
    await request.get('/api/aweme/v1/web/comment/list/', { params: { aweme_id: awemeId, count: 50 }, headers })
  ).json();
  expect(stored.comments.map((c: { text: string }) => c.text)).toContain(text);
  await expect
    .poll(
      async () =>
        (
          await (
            await request.get('/api/aweme/v1/web/aweme/detail/', { params: { aweme_id: awemeId }, headers })
          ).json()
        ).aweme_detail.user_digged,
    )
    .toBe(1);
});
