/** A douyin.com-style web client on this site writes with the session cookie alone, no Token header. */
import { expect, test, newAccount } from './support.ts';

test('a page of this site likes a video by fetch with only the session cookie, and the like is stored', async ({ page, context, request }) => {
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

  const detail = await (await request.get('/api/aweme/v1/web/aweme/detail/', { params: { aweme_id: awemeId }, headers: { Token: who.token } })).json();
  expect(detail.aweme_detail.user_digged).toBe(1);
});
