import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, test, loginDemo, signIn, type Session } from './support.ts';

interface Aweme {
  aweme_id: string;
  author: { sec_uid: string; nickname: string };
  statistics: { comment_count: number };
}

// One password login for the file: the per-IP login limit (PASSWORD_IP_RATE) is shared with every other spec.
test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let demo: Session;
/** A video by someone else with few comments, so a new one shows on the first page. */
let video: Aweme;

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  demo = await loginDemo(api);
  const feed = await (await api.post('/api/video/getVideosByCursor', { form: { cursor: 0, size: 50 } })).json();
  const ids: number[] = feed.data.map((v: { id: number }) => v.id);
  const details: Aweme[] = await Promise.all(
    ids.map(
      async (id) => (await (await api.get(`/api/aweme/v1/web/aweme/detail/?aweme_id=${id}`)).json()).aweme_detail,
    ),
  );
  video = details
    .filter((a) => a.author.sec_uid !== demo.user.sec_uid && a.statistics.comment_count > 0)
    .sort((a, b) => a.statistics.comment_count - b.statistics.comment_count)[0]!;
  expect(video).toBeTruthy();
});

test.afterAll(async () => {
  await api.dispose();
});

/** Logs the browser context in: the HttpOnly session cookie for pages, the stored token for writes. */
/** Opens the video page and wakes the comment column (it hydrates on interaction), then waits for it to be live. */
async function openColumn(page: Page, loggedIn: boolean): Promise<Locator> {
  await page.goto(`/video/${video.aweme_id}`);
  const column = page.locator(`[data-comments="${video.aweme_id}"]`);
  await column.scrollIntoViewIfNeeded();
  await column.getByRole('heading').hover();
  await expect(page.locator('astro-island', { has: column })).not.toHaveAttribute('ssr', '');
  if (loggedIn) await expect(column.getByRole('textbox')).toBeVisible();
  else await expect(column.getByRole('button', { name: '登录后参与评论' })).toBeVisible();
  return column;
}

const total = (column: Locator) => column.locator('[data-comment-total]');
const item = (scope: Locator, text: string) =>
  scope.locator('article', { has: scope.page().getByText(text, { exact: true }) }).first();

test('a comment and a reply appear for a second browser context', async ({ browser }) => {
  // Two browsers, each waking its comment column: on a loaded machine this takes longer than one page's budget.
  test.setTimeout(60_000);
  const writer = await browser.newContext();
  await signIn(writer, demo);
  const page = await writer.newPage();
  const column = await openColumn(page, true);
  const before = video.statistics.comment_count;
  await expect(total(column)).toHaveText(`（${before}）`);

  // A mention of the video's author becomes a link to their profile.
  await page.evaluate(() =>
    addEventListener(
      'sy:comment-count',
      (e) => ((window as unknown as { lastCount?: unknown }).lastCount = (e as CustomEvent).detail),
    ),
  );
  const text = `端到端评论 ${Date.now()} @${video.author.nickname} 你看`;
  const box = column.getByRole('textbox', { name: '留下你的精彩评论吧' });
  await box.fill(text);
  await expect(column.getByText('/500')).toHaveText(`${[...text].length}/500`);
  await box.press('Enter');
  const mine = column.locator('article', { hasText: text.split(' @')[0]! }).first();
  await expect(mine).toContainText(text.split(' @')[0]!);
  await expect(mine.getByRole('link', { name: `@${video.author.nickname}` })).toHaveAttribute(
    'href',
    `/user/${video.author.sec_uid}`,
  );
  await expect(total(column)).toHaveText(`（${before + 1}）`);
  // The page's other counts (the action bar) hear of it through one window event.
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { lastCount?: unknown }).lastCount))
    .toEqual({ awemeId: video.aweme_id, count: before + 1 });
  await expect(box).toHaveValue('');

  const reply = `端到端回复 ${Date.now()}`;
  await mine.getByRole('button', { name: '回复', exact: true }).click();
  const replyBox = column.getByRole('textbox', { name: `回复 @${demo.user.nickname}` });
  await expect(replyBox).toBeFocused();
  await replyBox.fill(reply);
  await column.getByRole('button', { name: '发送' }).click();
  await expect(mine.getByText(reply)).toBeVisible();
  await expect(total(column)).toHaveText(`（${before + 2}）`);

  // Another browser, not logged in, sees both after loading the page.
  const reader = await browser.newContext();
  const other = await reader.newPage();
  const otherColumn = await openColumn(other, false);
  const theirs = otherColumn.locator('article', { hasText: text.split(' @')[0]! }).first();
  await expect(theirs).toContainText(text.split(' @')[0]!);
  await expect(theirs.getByText('作者赞过')).toHaveCount(0);
  await theirs.getByRole('button', { name: '展开1条回复' }).click();
  await expect(theirs.getByText(reply)).toBeVisible();
  await expect(theirs.getByText(reply).locator('xpath=ancestor::article[1]')).toContainText(demo.user.nickname);

  // Anonymous actions ask to log in.
  await theirs.getByRole('button', { name: /赞/ }).first().click();
  await expect(other.getByRole('dialog', { name: '登录后免费畅享高清视频' })).toBeVisible();

  await writer.close();
  await reader.close();
});

test('liking a comment shows at once and survives a reload', async ({ browser }) => {
  const context = await browser.newContext();
  await signIn(context, demo);
  const page = await context.newPage();
  const column = await openColumn(page, true);
  // The same comment by its id after the reload: comments written meanwhile (by other tests) may come first.
  const cid = (await column.locator('li > article').first().getAttribute('data-cid'))!;
  const like = column.locator(`article[data-cid="${cid}"]`).getByRole('button', { name: /^赞/ }).first();
  const pressed = (await like.getAttribute('aria-pressed')) === 'true';
  const count = Number((await like.innerText()).replace(/\D/g, ''));
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', String(!pressed));
  await expect(like).toContainText(String(count + (pressed ? -1 : 1)));

  await page.reload();
  const again = (await openColumn(page, true))
    .locator(`article[data-cid="${cid}"]`)
    .getByRole('button', { name: /^赞/ })
    .first();
  await expect(again).toHaveAttribute('aria-pressed', String(!pressed));
  // Leave it as it was.
  await again.click();
  await expect(again).toHaveAttribute('aria-pressed', String(pressed));
  await context.close();
});

test('deleting one’s own comment asks first, then removes it for good', async ({ browser }) => {
  const context = await browser.newContext();
  await signIn(context, demo);
  const page = await context.newPage();
  const column = await openColumn(page, true);
  const text = `将被删除 ${Date.now()}`;
  await column.getByRole('textbox', { name: '留下你的精彩评论吧' }).fill(text);
  await column.getByRole('button', { name: '发送' }).click();
  const mine = item(column, text);
  await expect(mine).toBeVisible();
  const count = Number((await total(column).innerText()).replace(/\D/g, ''));

  // Others' comments offer no delete.
  const someoneElse = column.locator('li > article').filter({ hasNotText: demo.user.nickname }).first();
  await expect(someoneElse.getByRole('button', { name: '删除' })).toHaveCount(0);

  await mine.getByRole('button', { name: '删除' }).click();
  const confirm = mine.getByRole('alertdialog', { name: '确定删除这条评论吗？' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: '取消' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(mine).toBeVisible();

  await mine.getByRole('button', { name: '删除' }).click();
  await mine.getByRole('button', { name: '确认删除' }).click();
  await expect(column.getByText(text)).toHaveCount(0);
  await expect(total(column)).toHaveText(`（${count - 1}）`);

  await page.reload();
  await openColumn(page, true);
  await expect(page.getByText(text)).toHaveCount(0);
  await context.close();
});

test('the counter refuses 501 characters', async ({ browser }) => {
  const context = await browser.newContext();
  await signIn(context, demo);
  const page = await context.newPage();
  const column = await openColumn(page, true);
  const box = column.getByRole('textbox', { name: '留下你的精彩评论吧' });
  const send = column.getByRole('button', { name: '发送' });
  await expect(send).toBeDisabled();
  await box.fill('评'.repeat(500));
  await expect(column.getByText('500/500')).toBeVisible();
  await expect(send).toBeEnabled();
  await box.fill('评'.repeat(501));
  await expect(column.getByText('501/500')).toBeVisible();
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await expect(column.getByRole('alert')).toHaveText('评论最多500字');
  await expect(send).toBeDisabled();
  await box.press('Enter');
  await expect(box).toHaveValue('评'.repeat(501));
  await context.close();
});
