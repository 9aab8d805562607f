/** 互动消息: what another user does to the demo account's works arrives live, once each, under the right filter. */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, loginDemo, newAccount, signIn, type Session } from './support.ts';

test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let demo: Session;
let actor: Session;

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  demo = await loginDemo(api);
  actor = await newAccount(api, 'notice-actor');
});

test.afterAll(async () => {
  await api.dispose();
});

async function post(path: string, who: Session, form: Record<string, string | number>) {
  const res = await api.post(`/api${path}`, { headers: { token: who.token }, form });
  expect(res.status(), path).toBe(200);
  return res.json();
}

async function get(path: string, who: Session) {
  const res = await api.get(`/api${path}`, { headers: { token: who.token } });
  expect(res.status(), path).toBe(200);
  return res.json();
}

const noticeEntry = (page: Page) =>
  page.getByRole('navigation', { name: '快捷入口' }).getByRole('button', { name: /^通知/ });
const badge = (page: Page) => noticeEntry(page).locator('[data-badge="notice"]');
const badgeCount = async (page: Page) => {
  if (await badge(page).isHidden()) return 0;
  const text = (await badge(page).locator('[aria-hidden="true"]').textContent()) ?? '';
  return text === '99+' ? 100 : Number(text);
};

test('a like, comment, reply, comment like, @mention, follow and danmaku each notify once, live, under their filter', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const works = await get(`/aweme/v1/web/aweme/post/?sec_user_id=${demo.user.sec_uid}&count=2`, demo);
  const mine = works.aweme_list[0];
  const feed = await (await api.post('/api/video/getVideosByCursor', { form: { cursor: 0, size: 20 } })).json();
  let othersId = 0;
  for (const v of feed.data as { id: number }[]) {
    const { aweme_detail } = await get(`/aweme/v1/web/aweme/detail/?aweme_id=${v.id}`, demo);
    if (aweme_detail.author.sec_uid !== demo.user.sec_uid) {
      othersId = v.id;
      break;
    }
  }
  expect(othersId, 'a video by someone else to mention the demo account under').toBeGreaterThan(0);
  const own = await post('/aweme/v1/web/comment/publish', demo, {
    aweme_id: mine.aweme_id,
    text: `作者自己的评论 ${Date.now()}`,
  });
  await post('/aweme/v1/web/notice/read/', demo, {});

  const context = await browser.newContext();
  await signIn(context, demo);
  const page = await context.newPage();
  await page.goto('/discover');
  await expect(badge(page)).toBeHidden();

  // The first action rings the bell without a reload.
  await post('/aweme/v1/web/commit/item/digg/', actor, { aweme_id: mine.aweme_id, type: 1 });
  await expect.poll(() => badgeCount(page), { timeout: 2_000 }).toBeGreaterThanOrEqual(1);
  // Liking again, or undoing and redoing, still makes one notification.
  await post('/aweme/v1/web/commit/item/digg/', actor, { aweme_id: mine.aweme_id, type: 0 });
  await post('/aweme/v1/web/commit/item/digg/', actor, { aweme_id: mine.aweme_id, type: 1 });
  await post('/aweme/v1/web/commit/item/digg/', actor, { aweme_id: mine.aweme_id, type: 1 });
  const comment = `评论你的作品 ${Date.now()}`;
  await post('/aweme/v1/web/comment/publish', actor, { aweme_id: mine.aweme_id, text: comment });
  const reply = `回复你的评论 ${Date.now()}`;
  await post('/aweme/v1/web/comment/publish', actor, {
    aweme_id: mine.aweme_id,
    text: reply,
    reply_id: own.comment.cid,
  });
  await post('/aweme/v1/web/comment/digg', actor, { cid: own.comment.cid, digg_type: 1 });
  const mention = `@${demo.user.nickname} 快来看 ${Date.now()}`;
  await post('/aweme/v1/web/comment/publish', actor, { aweme_id: othersId, text: mention });
  await post('/aweme/v1/web/commit/follow/user/', actor, { sec_user_id: demo.user.sec_uid, type: 1 });
  const danmaku = `弹幕 ${Date.now() % 100000}`;
  await post('/aweme/v1/web/danmaku/send/', actor, { aweme_id: mine.aweme_id, text: danmaku, offset_ms: 1000 });
  await expect.poll(() => badgeCount(page), { timeout: 3_000 }).toBeGreaterThanOrEqual(7);

  // Opening the panel clears the badge; every filter shows the actor's notifications of its kinds, once each.
  await noticeEntry(page).click();
  const pop = page.locator('#pop-notice');
  await expect(pop.getByRole('heading', { name: '互动消息' })).toBeVisible();
  await expect(badge(page)).toBeHidden();
  const byActor = pop.locator('li', { hasText: actor.user.nickname });
  await expect(byActor).toHaveCount(7);
  await expect(byActor.first()).toContainText('刚刚');

  const filter = pop.getByRole('button', { name: /^筛选消息/ });
  const expected: [string, string[]][] = [
    ['粉丝', ['关注了你']],
    ['@我的', ['@了你']],
    ['评论', ['评论了你的作品', '回复了你的评论']],
    ['赞', ['赞了你的作品', '赞了你的评论']],
    ['弹幕', ['发了弹幕']],
  ];
  for (const [label, actions] of expected) {
    await filter.click();
    await pop.getByRole('option', { name: label }).click();
    await expect(pop.getByRole('listbox')).toHaveCount(0);
    await expect(filter).toHaveAccessibleName(`筛选消息：${label}`);
    await expect(byActor).toHaveCount(actions.length);
    for (const action of actions) await expect(byActor.filter({ hasText: action })).toHaveCount(1);
  }
  await expect(byActor.first()).toContainText(danmaku);
  // The work's thumbnail leads to it; the actor's name to their profile.
  await expect(byActor.first().getByRole('link', { name: '查看作品' })).toHaveAttribute(
    'href',
    `/video/${mine.aweme_id}`,
  );
  await expect(byActor.first().getByRole('link', { name: actor.user.nickname })).toHaveAttribute(
    'href',
    `/user/${actor.user.sec_uid}`,
  );

  // Undoing the like takes its notification away.
  await post('/aweme/v1/web/commit/item/digg/', actor, { aweme_id: mine.aweme_id, type: 0 });
  const digg = await get('/aweme/v1/web/notice/?notice_group=digg&count=50', demo);
  const likes = digg.notice_list.filter(
    (n: { actor: { sec_uid: string }; type: string }) => n.actor.sec_uid === actor.user.sec_uid,
  );
  expect(likes.map((n: { type: string }) => n.type)).toEqual(['like_comment']);
  // 全部消息 pages on as the list scrolls (the demo account has hundreds).
  await filter.click();
  await pop.getByRole('option', { name: '全部消息' }).click();
  const items = pop.locator('li[data-notice]');
  await expect(items).toHaveCount(20);
  await expect
    .poll(async () => {
      await items.last().scrollIntoViewIfNeeded();
      return items.count();
    })
    .toBeGreaterThan(20);
  await page.screenshot({ path: test.info().outputPath('notices.png') });
  await context.close();
});
