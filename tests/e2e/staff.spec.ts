/**
 * The staff console end to end: the first admin granted from the shell makes a member an editor, whose edits show on
 * the pages of two app servers within 2 s without a restart, are refused when invalid, restore and round-trip through
 * content:export and content:import; a moderator works a reported comment in its context, removes it, sees a watched
 * word flag a new comment, and mutes its author for a day, which ends when the clock moves past it; a stale staff
 * session meets the re-authentication dialog on a write and gets through it by password or by an e-mailed code; and a
 * work a moderator removed cannot be made public again from the studio's edit dialog.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { DATA_DIR, e2eDatabaseUrl, expect, newAccount, outboxCode, signIn, test } from './support.ts';

let second: ChildProcess | undefined;
const temp: string[] = [];

test.afterAll(async () => {
  if (second && second.exitCode === null) {
    const exited = new Promise((resolve) => second!.once('exit', resolve));
    second.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  }
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

/** Runs `npm run staff` / `content:*` as an operator would, beside the running e2e server. */
function shell(script: string, ...args: string[]): string {
  return execFileSync(process.execPath, [script, ...args], { env: { ...process.env, DATA_DIR }, encoding: 'utf8' });
}

async function startSecond(first: string): Promise<string> {
  const port = Number(new URL(first).port) + 11;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sy-staff-'));
  temp.push(dataDir);
  second = spawn(process.execPath, ['server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: e2eDatabaseUrl()!,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      RATE_LIMIT_IP_FACTOR: '100',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '60000',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  second.stderr!.on('data', (d) => (stderr += String(d)));
  const url = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (await fetch(`${url}/readyz`).catch(() => null))?.status ?? 0, {
      timeout: 60_000,
      message: stderr,
    })
    .toBe(200);
  return url;
}

/** Opens a console page and waits for its islands to be live (their forms then act on what is typed). */
async function open(page: import('@playwright/test').Page, where: string): Promise<void> {
  await page.goto(where);
  await expect(page.locator('.staff astro-island[ssr]')).toHaveCount(0);
}

/** The page's HTML as an anonymous visitor gets it from `base`. */
const html = async (base: string, page: string) => (await fetch(`${base}${page}`)).text();

test('editors publish to every app server without a restart, restore, and round-trip through the files', async ({
  browser,
  playwright,
}, info) => {
  test.setTimeout(180_000);
  const first = info.project.use.baseURL!;
  const other = await startSecond(first);
  const api = await playwright.request.newContext({ baseURL: first });
  const adminAccount = await newAccount(api, 'staff-admin');
  const editorAccount = await newAccount(api, 'staff-editor');

  // A member is 404 at the console, as a visitor is.
  expect((await api.get('/admin', { headers: { token: editorAccount.token } })).status()).toBe(404);
  expect(shell('scripts/staff.ts', 'grant', adminAccount.email, 'admin')).toContain('admin granted');

  const adminContext = await browser.newContext();
  await signIn(adminContext, adminAccount);
  const adminPage = await adminContext.newPage();
  await open(adminPage, '/admin/members');
  await adminPage.getByLabel('按邮箱查找成员').fill(editorAccount.email);
  await adminPage.getByRole('button', { name: '查找' }).click();
  await adminPage.getByRole('button', { name: '授予编辑' }).click();
  await expect(adminPage.getByRole('button', { name: '撤销编辑' })).toBeVisible();

  const editorContext = await browser.newContext();
  await signIn(editorContext, editorAccount);
  const page = await editorContext.newPage();
  await open(page, '/admin/content/channels/300204');
  const original = await page.getByLabel('简介').inputValue();
  const description = `编辑改过的美食频道简介 ${Date.now()}`;
  // Both servers show the page first, so what follows is their copies replaced, not a just-started server's first
  // render (which on a busy machine alone took longer than the 2 s allowed).
  for (const base of [first, other]) expect(await html(base, '/channel/300204')).toContain(original);
  await page.getByLabel('简介').fill(description);
  await page.getByRole('button', { name: '保存并发布' }).click();
  await expect(page.locator('#main').getByRole('status')).toContainText('已发布');
  for (const base of [first, other])
    await expect.poll(() => html(base, '/channel/300204'), { timeout: 2_000 }).toContain(description);

  await open(page, '/admin/content/faq/01-account');
  const answer = `新的回答：在右上角点「登录」。${Date.now()}`;
  await page.getByLabel('正文（Markdown）').fill(`**${answer}**`);
  await expect(page.getByTestId('content-preview').locator('strong')).toHaveText(answer);
  await page.getByRole('button', { name: '保存并发布' }).click();
  await expect(page.locator('#main').getByRole('status')).toContainText('已发布');
  for (const base of [first, other]) await expect.poll(() => html(base, '/faq'), { timeout: 2_000 }).toContain(answer);

  // An invalid edit is refused, naming the field; nothing is published.
  await open(page, '/admin/content/channels/300204');
  await page.getByLabel('简介').fill('');
  await page.getByRole('button', { name: '保存并发布' }).click();
  await expect(page.locator('#main').getByRole('alert')).toContainText('「description」');
  expect(await html(first, '/channel/300204')).toContain(description);

  // Restoring the version before the edit brings the old description back, on both servers.
  await page.reload();
  await expect(page.locator('.staff astro-island[ssr]')).toHaveCount(0);
  const versions = page.locator('[data-version]');
  await versions.nth(1).getByRole('button', { name: '恢复此版本' }).click();
  await expect(page.locator('[data-version]').first()).toContainText('恢复');
  for (const base of [first, other])
    await expect.poll(() => html(base, '/channel/300204'), { timeout: 2_000 }).toContain(original);

  // content:export writes the live content as files; content:import of those files changes nothing.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sy-content-'));
  temp.push(dir);
  expect(shell('scripts/content.ts', 'export', dir)).toMatch(/content:export: \d+ entries/);
  expect(readFileSync(path.join(dir, 'faq', '01-account.md'), 'utf8')).toContain(answer);
  expect(readFileSync(path.join(dir, 'channels.yaml'), 'utf8')).toContain(original);
  expect(shell('scripts/content.ts', 'import', dir)).toMatch(/content:import: 0 entries written, \d+ unchanged/);
  await adminContext.close();
  await editorContext.close();
  await api.dispose();
});

test('a moderator removes a reported comment, watched words flag new ones, and a day’s mute ends with the day', async ({
  browser,
  playwright,
}, info) => {
  test.setTimeout(120_000);
  const base = info.project.use.baseURL!;
  const api = await playwright.request.newContext({ baseURL: base });
  const moderator = await newAccount(api, 'staff-mod');
  const author = await newAccount(api, 'staff-author');
  const reporter = await newAccount(api, 'staff-reporter');
  shell('scripts/staff.ts', 'grant', moderator.email, 'moderator');
  // The video with the fewest comments of the first feed page, so that the new comment is on its first screen.
  const feed = await (await api.get('/api/aweme/v1/web/tab/feed/?count=10')).json();
  const video = (feed.aweme_list as { aweme_id: string; statistics: { comment_count: number } }[]).sort(
    (a, b) => a.statistics.comment_count - b.statistics.comment_count,
  )[0]!.aweme_id;
  const publish = (text: string) =>
    api.post('/api/aweme/v1/web/comment/publish', {
      headers: { token: author.token },
      form: { aweme_id: video, text },
    });

  const posted = await publish(`加我微信买便宜货 ${Date.now()}`);
  expect(posted.status()).toBe(200);
  const comment = (await posted.json()).comment.cid as string;
  // The member reports it from the video page: 举报 on the comment, the first reason (垃圾广告), 提交举报.
  const reporterContext = await browser.newContext();
  await signIn(reporterContext, reporter);
  const reporterPage = await reporterContext.newPage();
  await reporterPage.goto(`/video/${video}`);
  await reporterPage
    .getByRole('button', { name: `举报 ${author.user.nickname}` })
    .first()
    .click();
  const reportDialog = reporterPage.getByRole('dialog', { name: '举报评论' });
  await expect(reportDialog).toBeVisible();
  await reportDialog.getByRole('button', { name: '提交举报' }).click();
  await expect(reporterPage.getByText('举报已提交，我们会尽快处理')).toBeVisible();
  await reporterContext.close();

  const context = await browser.newContext();
  await signIn(context, moderator);
  const page = await context.newPage();
  await page.goto('/admin/reports');
  await page.locator(`[data-target="comment:${comment}"]`).click();
  await expect(page.locator('.staff astro-island[ssr]')).toHaveCount(0);
  // In context: the video playing, the comment marked in its thread, the reporter and the reason.
  await expect(page.locator('video')).toHaveJSProperty('paused', false);
  await expect(page.locator(`[data-comment="${comment}"]`)).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('[data-report]')).toContainText('垃圾广告');
  await expect(page.locator('[data-report]')).toContainText(reporter.user.nickname);
  await page.getByRole('button', { name: '移除内容' }).click();
  await page.getByLabel(/原因/).fill('发布广告引流内容');
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page.getByText('已移除').first()).toBeVisible();

  // Gone for every viewer, and its author is told why.
  const list = async (token?: string) =>
    (
      await api.get(`/api/aweme/v1/web/comment/list/?aweme_id=${video}&count=50`, token ? { headers: { token } } : {})
    ).text();
  await expect.poll(() => list()).not.toContain(comment);
  expect(await list(author.token)).not.toContain(comment);
  const notices = await (
    await api.get('/api/aweme/v1/web/notice/?count=20', { headers: { token: author.token } })
  ).json();
  expect(JSON.stringify(notices.notice_list)).toContain('发布广告引流内容');

  // A watched word flags a new comment into the queue.
  await open(page, '/admin/words');
  const word = `黑词${Date.now() % 100000}`;
  await page.getByLabel('输入要关注的词').fill(word);
  await page.getByRole('button', { name: '添加' }).click();
  await expect(page.getByRole('list', { name: '关注词' })).toContainText(word);
  const flagged = (await (await publish(`这里有${word}哦`)).json()).comment.cid as string;
  await page.goto('/admin/reports');
  await expect(page.locator(`[data-target="comment:${flagged}"]`)).toContainText(`命中关注词「${word}」`);

  // A day's mute stops comments and messages…
  await page.locator(`[data-target="comment:${flagged}"]`).click();
  await expect(page.locator('.staff astro-island[ssr]')).toHaveCount(0);
  await page.getByRole('button', { name: '禁言 1 天' }).click();
  await page.getByLabel(/原因/).fill('刷屏');
  await page.getByRole('button', { name: '确定' }).click();
  await expect(page.getByRole('button', { name: '解除禁言' })).toBeVisible();
  const refused = await publish('禁言中还想说话');
  expect(refused.status()).toBe(403);
  expect((await refused.json()).status_msg).toContain('刷屏');
  const dm = await api.post('/api/aweme/v1/web/im/message/send/', {
    headers: { token: author.token },
    form: { sec_user_id: reporter.user.sec_uid, text: '你好' },
  });
  expect(dm.status()).toBe(403);

  // …until a day has passed: the clock moved a day and a minute on for this mute (its times moved back as much).
  const client = new pg.Client({ connectionString: e2eDatabaseUrl()! });
  await client.connect();
  await client.query(
    `update sanctions set starts_at = starts_at - interval '1 day 1 minute', ends_at = ends_at - interval '1 day 1 minute'
      where user_id = (select id from users where sec_uid = $1)`,
    [author.user.sec_uid],
  );
  await client.end();
  expect((await publish('禁言结束了')).status()).toBe(200);
  await context.close();
  await api.dispose();
});

/** The names of the messages the server wrote to its outbox for `email`, oldest first. */
const mailsTo = (email: string) => {
  try {
    return readdirSync(path.join(DATA_DIR, 'outbox'))
      .filter((n) => n.endsWith(`-${email}.txt`))
      .sort();
  } catch {
    return [];
  }
};

test('a stale staff session is asked to re-authenticate in the console, by password or by an e-mailed code, and the refused write then goes through', async ({
  browser,
  playwright,
}, info) => {
  test.setTimeout(120_000);
  const api = await playwright.request.newContext({ baseURL: info.project.use.baseURL! });
  const moderator = await newAccount(api, 'staff-reauth');
  shell('scripts/staff.ts', 'grant', moderator.email, 'moderator');
  const password = `reauth-${Date.now()}`;
  const set = await api.post('/api/passport/password', {
    headers: { token: moderator.token },
    form: { next: password },
  });
  expect(set.status()).toBe(200);
  const db = new pg.Client({ connectionString: e2eDatabaseUrl()! });
  await db.connect();
  // The session last proved who it is 16 minutes ago: the clock moved on, as far as the staff door can tell.
  const goStale = () =>
    db.query(
      `update sessions set authenticated_at = now() - interval '16 minutes'
        where token_hash = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
      [moderator.token],
    );
  const stored = async (word: string) =>
    (await db.query('select 1 from watched_words where word = $1', [word])).rowCount;

  const context = await browser.newContext();
  await signIn(context, moderator);
  const page = await context.newPage();
  await open(page, '/admin/words');
  await goStale();

  // By password: the add is refused and the dialog asks; a wrong password is told so, the right one sends the add again.
  const word = `复验词${Date.now() % 100000}`;
  await page.getByLabel('输入要关注的词').fill(word);
  await page.getByRole('button', { name: '添加' }).click();
  const dialog = page.getByRole('dialog', { name: '请验证身份' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('登录密码')).toBeFocused();
  expect(await stored(word)).toBe(0);
  // 取消 closes it with nothing written; the next try asks again.
  await dialog.getByRole('button', { name: '取消' }).click();
  await expect(dialog).toBeHidden();
  expect(await stored(word)).toBe(0);
  await page.getByRole('button', { name: '添加' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('登录密码').fill('not-the-password');
  await dialog.getByRole('button', { name: '验证', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('邮箱或密码错误');
  await dialog.getByLabel('登录密码').fill(password);
  await dialog.getByRole('button', { name: '验证', exact: true }).click();
  await expect(dialog).toBeHidden();
  const list = page.getByRole('list', { name: '关注词' });
  await expect(list).toContainText(word);
  expect(await stored(word)).toBe(1);

  // By an e-mailed code, a minute later (the address's one-code-a-minute window moved past, as the clock would).
  await goStale();
  await db.query(`update rate_limits set reset_at = 0 where key like $1`, [`code:email:${moderator.email}:%`]);
  await list.getByRole('button', { name: `删除 ${word}` }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: '用邮箱验证码验证' }).click();
  const mailed = mailsTo(moderator.email).length;
  await dialog.getByRole('button', { name: '获取验证码' }).click();
  await expect(dialog.getByRole('status')).toHaveText('验证码已发送到你的邮箱');
  await expect.poll(() => mailsTo(moderator.email).length).toBe(mailed + 1);
  await dialog.getByLabel('邮箱验证码').fill(outboxCode(moderator.email)!);
  await dialog.getByRole('button', { name: '验证', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(list.getByText(word)).toHaveCount(0);
  expect(await stored(word)).toBe(0);

  await db.end();
  await context.close();
  await api.dispose();
});

test('the studio’s edit dialog refuses to show a work a moderator removed, naming the reason', async ({
  browser,
  playwright,
}, info) => {
  const base = info.project.use.baseURL!;
  const api = await playwright.request.newContext({ baseURL: base });
  const moderator = await newAccount(api, 'staff-remover');
  const author = await newAccount(api, 'staff-removed');
  shell('scripts/staff.ts', 'grant', moderator.email, 'moderator');
  const db = new pg.Client({ connectionString: e2eDatabaseUrl()! });
  await db.connect();
  // A copy of a seeded work, by the new author, public.
  const { rows } = await db.query(
    `insert into videos (author_id, channel_id, "desc", media, poster, duration_ms, width, height, size_bytes, visibility)
     select $1, channel_id, $2, media, poster, duration_ms, width, height, size_bytes, 'public'
       from videos where deleted_at is null and status = 'published' order by id limit 1
     returning id`,
    [Number(author.user.uid), `会被移除的作品 ${Date.now()}`],
  );
  const workId = Number(rows[0].id);
  const removed = await api.post('/api/admin/moderation/remove', {
    headers: { token: moderator.token, origin: base },
    form: { type: 'video', id: workId, reason: '搬运他人作品' },
  });
  expect(removed.status()).toBe(200);

  const context = await browser.newContext();
  await signIn(context, author);
  const page = await context.newPage();
  await page.goto('/post/manage');
  const row = page.locator(`[data-work-id="${workId}"]`);
  await expect(row).toContainText('仅自己可见');
  await row.getByRole('button', { name: /^编辑/ }).click();
  const dialog = page.getByRole('dialog', { name: '编辑作品' });
  await expect(dialog).toBeVisible({ timeout: 15_000 });
  await dialog.getByRole('radio', { name: /^公开/ }).check();
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('作品已被审核移除（搬运他人作品），不能设为公开或好友可见');
  await expect(dialog).toBeVisible();
  expect((await db.query('select visibility from videos where id = $1', [workId])).rows[0].visibility).toBe('private');

  await db.query('update videos set deleted_at = now() where id = $1', [workId]);
  await db.end();
  await context.close();
  await api.dispose();
});
