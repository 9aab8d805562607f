import { mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import pg from 'pg';
import { connect, useDb } from '../../src/server/db/client.ts';
import { DEFAULT_UPLOAD_IDLE_MS, sweepUploads } from '../../src/server/jobs/sweep-uploads.ts';
import { makeClip, makeFakeVideo } from '../setup/clips.ts';
import { DATA_DIR, e2eDatabaseUrl, expect, test, loginDemo, newAccount, signIn, type Session } from './support.ts';

let dir: string;
let clip: string;
let fake: string;

test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'studio-e2e-'));
  clip = makeClip(dir, '海边日落.mp4', { seconds: 3, width: 720, height: 1280 });
  fake = makeFakeVideo(dir, 'notes.mp4');
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A page logged in as `session` whose uploads go out at `bytesPerSecond`, so the progress can be watched. */
async function studioPage(
  browser: import('@playwright/test').Browser,
  session: Session,
  bytesPerSecond?: number,
): Promise<Page> {
  const context = await browser.newContext();
  await signIn(context, session);
  const page = await context.newPage();
  if (bytesPerSecond) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: bytesPerSecond,
    });
  }
  return page;
}

test('anonymous visitors get the login prompt; the studio nav leads to every section', async ({ page }) => {
  await page.goto('/post');
  await expect(page.getByRole('heading', { name: '登录后免费畅享高清视频' })).toBeVisible();
  await expect(page.getByText('登录后即可发布视频、管理作品和查看数据')).toBeVisible();
  const nav = page.getByRole('navigation', { name: '创作者中心导航' });
  await expect(nav.getByRole('link')).toHaveText([
    '发布视频',
    '视频管理',
    '作品数据',
    '直播',
    '直播数据',
    '创作者学习中心',
    '创作者服务平台',
  ]);
  await expect(nav.getByRole('link', { name: '发布视频' })).toHaveAttribute('aria-current', 'page');
  await nav.getByRole('link', { name: '创作者学习中心' }).click();
  await expect(page).toHaveURL(/\/post\/learn$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('创作者学习中心');
  await expect(nav.getByRole('link', { name: '创作者学习中心' })).toHaveAttribute('aria-current', 'page');
  await nav.getByRole('link', { name: '创作者服务平台' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('创作者服务平台');
});

test('upload with a moving progress bar, write the form while it uploads, publish, see it 已发布 and play; edit and delete it', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const me = await newAccount(request, 'studio');
  // Someone to @mention: the autocomplete offers the people I follow.
  const feed = await (await request.get('/api/aweme/v1/web/tab/feed/?count=1')).json();
  const friend = feed.aweme_list[0].author as { sec_uid: string; nickname: string };
  const follow = await request.post('/api/aweme/v1/web/commit/follow/user/', {
    form: { sec_user_id: friend.sec_uid, type: '1' },
    headers: { Token: me.token },
  });
  expect(follow.status()).toBe(200);

  const page = await studioPage(browser, me, 256 * 1024);
  await page.goto('/post');
  await expect(page.getByRole('heading', { level: 1, name: '发布视频' })).toBeVisible();
  await expect(page.getByText('单个文件不超过 500MB')).toBeVisible();
  // Every value the progress bar takes, recorded in the page as it changes.
  await page.evaluate(() => {
    const seen: number[] = [];
    Object.assign(window, { progressSeen: seen });
    new MutationObserver(() => {
      const bar = document.querySelector('[role="progressbar"]');
      const value = Number(bar?.getAttribute('aria-valuenow'));
      if (bar && seen.at(-1) !== value) seen.push(value);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  });
  const progress = () => page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
  await page.getByLabel('选择要上传的视频文件').setInputFiles(clip);
  const bar = page.getByRole('progressbar', { name: '上传进度' });
  await expect.poll(async () => (await progress()).some((v) => v > 0 && v < 100), { timeout: 20_000 }).toBe(true);
  // The form is there while the bytes go out: write the title now.
  const title = page.getByRole('combobox', { name: '作品描述' });
  await expect(title).toHaveValue('海边日落', { timeout: 15_000 });
  await title.fill('今天的海边日落 #旅行 ');
  await title.press('End');
  await title.pressSequentially(`@${[...friend.nickname].slice(0, 1).join('')}`);
  const option = page.getByRole('option', { name: friend.nickname });
  await expect(option).toBeVisible();
  await title.press('Enter');
  await expect(title).toHaveValue(`今天的海边日落 #旅行 @${friend.nickname} `);
  await expect(page.getByRole('list', { name: '已添加话题' })).toHaveText('#旅行');

  // The channels are radios drawn as pills: a click lands on the pill.
  await page.getByRole('group', { name: '作品分类' }).getByText('美食', { exact: true }).click();
  await expect(page.getByRole('radio', { name: '美食' })).toBeChecked();
  await page.getByRole('slider', { name: '封面时间' }).fill('1.5');
  await expect(page.getByText('0:01.5')).toBeVisible();

  await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 30_000 });
  const values = await progress();
  expect(values.filter((v) => v > 0 && v < 100).length, `progress ${values.join(' ')}`).toBeGreaterThan(1);
  expect(values).toEqual([...values].sort((a, b) => a - b));
  const publish = page.getByRole('button', { name: '发布', exact: true });
  await expect(publish).toBeEnabled({ timeout: 20_000 });
  await publish.click();

  await expect(page).toHaveURL(/\/post\/manage\?published=\d+$/);
  const workId = Number(new URL(page.url()).searchParams.get('published'));
  await expect(page.getByRole('status').filter({ hasText: '作品已提交' })).toBeVisible();
  const row = page.locator(`[data-work-id="${workId}"]`);
  await expect(row).toContainText(`今天的海边日落 #旅行 @${friend.nickname}`);
  await expect(row.getByText('已发布')).toBeVisible({ timeout: 120_000 });
  await expect(row.locator('img')).toHaveAttribute('src', /\.webp$/);

  await page.goto(`/video/${workId}`);
  const video = page.locator('video').first();
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 })
    .toBeGreaterThan(0.3);
  // 清晰度 offers the gears a 720x1280 source allows: 720P and 540P, no 1080P.
  await video.hover();
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr] [data-player]'));
  await page.getByRole('button', { name: /^清晰度/ }).click();
  await expect(page.getByRole('menu', { name: '清晰度' }).getByRole('menuitemradio')).toHaveText([
    '智能',
    '720P',
    '540P',
  ]);

  // Found by a word of its title, on the creator's profile, and in a follower's 关注.
  const found = await (
    await request.get(
      `/api/aweme/v1/web/general/search/single/?keyword=${encodeURIComponent('海边日落')}&offset=0&count=20`,
    )
  ).json();
  expect(JSON.stringify(found)).toContain(`"aweme_id":"${workId}"`);
  await page.goto(`/user/${me.user.sec_uid}`);
  await expect(page.locator(`a[href="/video/${workId}"]`).first()).toBeVisible();
  const fan = await newAccount(request, 'studio-fan');
  const followed = await request.post('/api/aweme/v1/web/commit/follow/user/', {
    form: { sec_user_id: me.user.sec_uid, type: '1' },
    headers: { Token: fan.token },
  });
  expect(followed.status()).toBe(200);
  const fanPage = await studioPage(browser, fan);
  await fanPage.goto('/follow');
  await expect(fanPage.locator(`a[href="/video/${workId}"]`).first()).toBeVisible();
  await fanPage.context().close();

  // 编辑: a new title and 仅自己可见, saved from the dialog; focus goes back to the row's button.
  await page.goto('/post/manage');
  const edit = row.getByRole('button', { name: /^编辑/ });
  await edit.click();
  const dialog = page.getByRole('dialog', { name: '编辑作品' });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await dialog.getByRole('combobox', { name: '作品描述' }).fill('海边日落（修改后） #旅行');
  await dialog.getByRole('radio', { name: /仅自己可见/ }).check();
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('海边日落（修改后） #旅行');
  await expect(row).toContainText('仅自己可见');
  await expect(edit).toBeFocused();

  // 删除 asks first; 取消 keeps the work, 确认删除 removes it.
  await row.getByRole('button', { name: /^删除/ }).click();
  const confirm = page.getByRole('alertdialog', { name: '确定删除这个作品吗？' });
  await expect(confirm.getByRole('button', { name: '取消' })).toBeFocused();
  await confirm.getByRole('button', { name: '确认删除' }).click();
  await expect(row).toHaveCount(0);
  await page.reload();
  await expect(page.locator(`[data-work-id="${workId}"]`)).toHaveCount(0);
});

test('after a reload, choosing the same file again continues the upload where it stopped', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const me = await newAccount(request, 'studio-resume');
  const page = await studioPage(browser, me, 96 * 1024);
  await page.goto('/post');
  await expect(page.getByText('单个文件不超过 500MB')).toBeVisible();
  await page.getByLabel('选择要上传的视频文件').setInputFiles(clip);
  const bar = page.getByRole('progressbar', { name: '上传进度' });
  await expect
    .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 30_000 })
    .toBeGreaterThan(20);

  // Leaving mid-upload: the browser asks first (accepted here); the bytes so far stay on the server.
  page.once('dialog', (d) => void d.accept());
  await page.reload();
  const pending = page.getByRole('region', { name: '未完成的上传' });
  await expect(pending).toContainText('海边日落.mp4', { timeout: 15_000 });
  const held = Number((await pending.getByText(/已上传 \d+%/).textContent())!.match(/\d+/)![0]);
  expect(held).toBeGreaterThan(10);

  await page.getByLabel('选择要上传的视频文件').setInputFiles(clip);
  await expect(page.getByText('已从上次中断处继续')).toBeVisible({ timeout: 15_000 });
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(held);
  await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 60_000 });
  await expect(page.getByText(/上传完成|视频处理完成/).first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole('region', { name: '未完成的上传' })).toHaveCount(0);
});

/**
 * Makes the unfinished uploads of `userId` look idle for longer than the sweep allows (their rows and data files aged
 * past it), then runs the hourly sweep on the e2e server's database and files, as its worker does; answers the
 * statuses of that user's uploads after it.
 */
async function sweepAfterADay(userId: number): Promise<string[]> {
  const url = e2eDatabaseUrl();
  expect(url, 'the e2e server runs on its embedded PostgreSQL').toBeTruthy();
  const { db, pool } = connect(url!, 1);
  const client = new pg.Client({ connectionString: url! });
  const dataDir = process.env.DATA_DIR;
  try {
    await client.connect();
    const past = new Date(Date.now() - DEFAULT_UPLOAD_IDLE_MS - 60 * 60 * 1000);
    const { rows } = await client.query<{ id: string }>(
      "update uploads set created_at = $2 where user_id = $1 and status = 'uploading' returning id",
      [userId, past],
    );
    for (const { id } of rows) utimesSync(path.join(DATA_DIR, 'uploads', id), past, past);
    useDb(db);
    process.env.DATA_DIR = DATA_DIR;
    await sweepUploads();
    return (await client.query<{ status: string }>('select status from uploads where user_id = $1', [userId])).rows.map(
      (r) => r.status,
    );
  } finally {
    if (dataDir === undefined) delete process.env.DATA_DIR;
    else process.env.DATA_DIR = dataDir;
    await client.end();
    await pool.end();
  }
}

test('an unfinished upload the sweep ended since says why on return, until it is dismissed', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const me = await newAccount(request, 'studio-swept');
  const page = await studioPage(browser, me, 96 * 1024);
  await page.goto('/post');
  await expect(page.getByText('单个文件不超过 500MB')).toBeVisible();
  await page.getByLabel('选择要上传的视频文件').setInputFiles(clip);
  const bar = page.getByRole('progressbar', { name: '上传进度' });
  await expect
    .poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 30_000 })
    .toBeGreaterThan(10);
  page.once('dialog', (d) => void d.accept());
  await page.reload();
  const pending = page.getByRole('region', { name: '未完成的上传' });
  await expect(pending.getByText(/已上传 \d+%/)).toBeVisible({ timeout: 15_000 });

  // A day later: the hourly sweep has ended it (a request still finishing its PATCH would hold it a moment longer).
  await expect.poll(() => sweepAfterADay(Number(me.user.uid)), { timeout: 15_000 }).toEqual(['rejected']);
  await page.reload();
  await expect(pending.getByRole('listitem')).toHaveCount(1, { timeout: 15_000 });
  await expect(pending.getByRole('listitem')).toContainText('海边日落.mp4');
  await expect(pending.getByText('上传已过期，请重新上传')).toBeVisible();
  // Nothing is left to continue: no hint to choose the file again.
  await expect(pending.getByText('重新选择同一个文件，即可从中断处继续上传')).toHaveCount(0);
  await page.goto('/post/manage');
  const row = page.getByRole('list', { name: '我的作品' }).getByRole('listitem').filter({ hasText: '海边日落.mp4' });
  await expect(row.getByText('上传已过期，请重新上传')).toBeVisible({ timeout: 15_000 });
  await expect(row.getByRole('link', { name: '继续上传' })).toHaveCount(0);

  await page.goto('/post');
  await pending.getByRole('button', { name: '移除 海边日落.mp4' }).click();
  await expect(pending).toHaveCount(0);
  // Forgotten by this browser: nothing brings it back.
  const remembered = () => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('tus::')));
  await expect.poll(remembered).toEqual([]);
  await page.reload();
  await expect(page.getByText('单个文件不超过 500MB')).toBeVisible();
  await expect(pending).toHaveCount(0);
  expect(await remembered()).toEqual([]);
});

test('a dropped connection is retried from the server’s offset', async ({ browser, request }) => {
  const me = await newAccount(request, 'studio-retry');
  const page = await studioPage(browser, me);
  // The first two PATCHes lose their connection (tus waits 0 s, then 1 s before trying again).
  let drops = 2;
  await page.route('**/api/upload/*', (route) =>
    route.request().method() === 'PATCH' && drops-- > 0 ? route.abort('connectionreset') : route.fallback(),
  );
  // 网络中断，正在重试… shows from a drop until the retry sends again, about a second: the page notes that it was shown,
  // since a check every second could fall on either side of it on a busy machine.
  await page.addInitScript(() => {
    const seen = new MutationObserver(() => {
      for (const p of document.querySelectorAll('p'))
        if (p.textContent?.includes('网络中断，正在重试…') && p.checkVisibility()) {
          (window as { sawRetrying?: boolean }).sawRetrying = true;
          seen.disconnect();
        }
    });
    seen.observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto('/post');
  await expect(page.getByText('单个文件不超过 500MB')).toBeVisible();
  await page.getByLabel('选择要上传的视频文件').setInputFiles(clip);
  // The island and tus-js-client load with the pick: give them time on a busy machine.
  await expect
    .poll(() => page.evaluate(() => (window as { sawRetrying?: boolean }).sawRetrying === true), { timeout: 15_000 })
    .toBe(true);
  await expect(page.getByRole('progressbar', { name: '上传进度' })).toHaveAttribute('aria-valuenow', '100', {
    timeout: 30_000,
  });
  await expect(page.getByText(/上传完成|视频处理完成/).first()).toBeVisible();
  expect(drops).toBeLessThan(0);
});

test('a text file named .mp4 passes the name check but is refused with the server’s message', async ({
  browser,
  request,
}) => {
  const me = await newAccount(request, 'studio-fake');
  const page = await studioPage(browser, me);
  await page.goto('/post');
  await expect(page.getByText('单个文件不超过 500MB')).toBeVisible();
  // A name the server would never take is refused before a byte is sent.
  const picker = page.getByLabel('选择要上传的视频文件');
  await picker.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByRole('alert').filter({ hasText: '文件不是支持的视频格式' })).toHaveText(
    '文件不是支持的视频格式，请上传 MP4、MOV、WebM 或 MKV 视频',
    { timeout: 15_000 },
  );

  // Refused by its content: the page stays on the upload box with the server's reason, and no form opens.
  await picker.setInputFiles(fake);
  await expect(page.getByRole('alert').filter({ hasText: '文件不是支持的视频格式' })).toHaveText(
    '文件不是支持的视频格式，请上传 MP4、MOV、WebM 或 MKV 视频',
    { timeout: 15_000 },
  );
  await expect(page.getByRole('button', { name: '发布', exact: true })).toHaveCount(0);
  await expect(page.getByLabel('作品描述')).toHaveCount(0);
  await expect(page.getByText('notes.mp4')).toHaveCount(0);
  await expect(page.getByLabel('选择要上传的视频文件')).toBeAttached();
});

test('the zone works before the island loads: a dropped file is checked, the keyboard opens the picker', async ({
  browser,
  request,
}) => {
  const me = await newAccount(request, 'studio-zone');
  const page = await studioPage(browser, me);
  await page.goto('/post');
  const input = page.getByLabel('选择要上传的视频文件');
  // A drop straight away, before any pointer or key has woken the island.
  await page.locator('[data-studio-zone]').evaluate((zone) => {
    const data = new DataTransfer();
    data.items.add(new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await expect(page.getByRole('alert').filter({ hasText: '文件不是支持的视频格式' })).toBeVisible({ timeout: 15_000 });
  // Waited for before the focus: Playwright turns on its interception of the picker when the wait begins, and a key
  // that reaches the page first opens the browser's own picker, which headless Chromium cancels unseen.
  const chooser = page.waitForEvent('filechooser');
  await input.focus();
  await page.keyboard.press('Space');
  await (await chooser).setFiles(clip);
  await expect(page.getByRole('progressbar', { name: '上传进度' })).toBeVisible();
});

test('axe: the studio’s sections, the publish form and the manage dialogs have no serious or critical violation, in both themes', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const found: string[] = [];
  const scan = async (page: Page, what: string) => {
    const result = await new AxeBuilder({ page }).include('#main').analyze();
    for (const v of result.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
      for (const node of v.nodes) found.push(`${what}: ${v.id} (${v.impact}) ${node.target.join(' ')}`);
    }
  };
  // Reduced motion: the theme's colour transition would otherwise be measured half-way.
  const theme = async (page: Page, t: string) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.evaluate(
      (x) =>
        x === 'dark'
          ? document.documentElement.setAttribute('dark', 'true')
          : document.documentElement.removeAttribute('dark'),
      t,
    );
  };

  const me = await newAccount(request, 'studio-axe');
  const page = await studioPage(browser, me);
  // The prose sections share one layout: /post/learn stands for them.
  for (const path of ['/post', '/post/manage', '/post/data', '/post/learn']) {
    await page.goto(path);
    for (const t of ['light', 'dark']) {
      await theme(page, t);
      await scan(page, `${t} ${path}`);
    }
  }
  await page.goto('/post');
  await page.getByLabel('选择要上传的视频文件').setInputFiles(clip);
  await expect(page.getByRole('combobox', { name: '作品描述' })).toBeVisible({ timeout: 15_000 });
  for (const t of ['light', 'dark']) {
    await theme(page, t);
    await scan(page, `${t} publish form`);
  }

  const demo = await studioPage(browser, await loginDemo(request));
  await demo.goto('/post/manage');
  for (const t of ['light', 'dark']) {
    await theme(demo, t);
    await scan(demo, `${t} works`);
    await demo.getByRole('button', { name: /^编辑/ }).first().click();
    await expect(demo.getByRole('dialog', { name: '编辑作品' })).toBeVisible({ timeout: 15_000 });
    await scan(demo, `${t} edit dialog`);
    await demo.keyboard.press('Escape');
    await demo.getByRole('button', { name: /^删除/ }).first().click();
    await expect(demo.getByRole('alertdialog')).toBeVisible();
    await scan(demo, `${t} delete dialog`);
    await demo.keyboard.press('Escape');
    await expect(demo.getByRole('alertdialog')).toBeHidden();
  }
  expect(found).toEqual([]);
});
