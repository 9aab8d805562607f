import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Browser } from '@playwright/test';
import pg from 'pg';
import yauzl from 'yauzl';
import { makeClip } from '../setup/clips.ts';
import { DATA_DIR, e2eDatabaseUrl, expect, newAccount, signIn, test, type Session } from './support.ts';

const SHOTS = path.resolve('test-results/screens');
const PASSWORD = 'sea breeze at midnight';
let dir: string;

test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'account-e2e-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs SQL on the e2e server's database (test set-up, and moving its clock forward). */
async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: e2eDatabaseUrl()! });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

async function pageAs(browser: Browser, session: Session, options: { dark?: boolean; phone?: boolean } = {}) {
  const context = await browser.newContext(
    options.phone ? { viewport: { width: 390, height: 844 }, hasTouch: true } : {},
  );
  await signIn(context, session);
  if (options.dark) await context.addInitScript(() => localStorage.setItem('theme', 'dark'));
  return context.newPage();
}

/** The ZIP's entries: name → text for JSON, byte size for the rest. */
function entries(file: string): Promise<Map<string, string | number>> {
  return new Promise((resolve, reject) => {
    const out = new Map<string, string | number>();
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            const body = Buffer.concat(chunks);
            out.set(entry.fileName, entry.fileName.endsWith('.json') ? body.toString('utf8') : body.length);
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(out));
      zip.readEntry();
    });
  });
}

/** A published work of `session`'s account whose video file is in the server's media store. */
async function workOf(session: Session, title: string): Promise<number> {
  const folder = `e2e-export-${session.user.uid}`;
  mkdirSync(path.join(DATA_DIR, 'media', 'works', folder), { recursive: true });
  copyFileSync(
    makeClip(dir, `${folder}.mp4`, { seconds: 2 }),
    path.join(DATA_DIR, 'media', 'works', folder, '540.mp4'),
  );
  const [row] = await sql<{ id: number }>(
    `insert into videos (author_id, channel_id, "desc", media, poster, duration_ms, width, height, size_bytes)
     values ($1, 300204, $2, $3, 'posters/c01.webp', 2000, 180, 320, 1000) returning id`,
    [Number(session.user.uid), title, `works/${folder}/540.mp4`],
  );
  return row!.id;
}

const say = (api: APIRequestContext, from: Session, to: Session, text: string) =>
  api.post('/api/aweme/v1/web/im/message/send/', {
    headers: { Token: from.token },
    form: { sec_user_id: to.user.sec_uid, text },
  });

test('下载我的数据: the ZIP holds my works and messages and nobody else’s; another member gets 404 for it', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const me = await newAccount(request, 'export-me');
  const friend = await newAccount(request, 'export-friend');
  const other = await newAccount(request, 'export-other');
  const mine = await workOf(me, '我的导出作品');
  const theirs = await workOf(other, '别人的作品');
  expect((await say(request, me, friend, '给朋友的私信')).status()).toBe(200);
  expect((await say(request, friend, me, '朋友的回信')).status()).toBe(200);
  expect((await say(request, other, friend, '别人之间的私信')).status()).toBe(200);

  const page = await pageAs(browser, me);
  await page.goto('/settings');
  const section = page.getByRole('region', { name: '账号与数据' });
  await section.getByRole('button', { name: '申请下载' }).click();
  await expect(section.getByRole('status')).toHaveText(/数据已打包好/, { timeout: 60_000 });
  await page.screenshot({ path: path.join(SHOTS, 'settings-account-1440.png'), fullPage: true });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('link', { name: '下载数据' }).click(),
  ]);
  const zip = path.join(dir, 'export.zip');
  await download.saveAs(zip);
  const files = await entries(zip);
  const works = JSON.parse(files.get('works.json') as string) as { id: number; title: string }[];
  expect(works.map((w) => w.id)).toEqual([mine]);
  expect(files.get(`works/${mine}/video.mp4`)).toBeGreaterThan(1000);
  expect([...files.keys()].some((name) => name.includes(`/${theirs}/`))).toBe(false);
  const chats = JSON.parse(files.get('messages.json') as string) as { messages: { text: string }[] }[];
  expect(chats.flatMap((c) => c.messages.map((m) => m.text))).toEqual(['给朋友的私信', '朋友的回信']);
  expect(JSON.parse(files.get('profile.json') as string)).toMatchObject({ email: me.email });

  // The notification links to it; the link is the owner's alone.
  const notices = await (
    await request.get('/api/aweme/v1/web/notice/?notice_group=all', { headers: { Token: me.token } })
  ).json();
  const ready = notices.notice_list.find((n: { type: string }) => n.type === 'export_ready');
  expect(ready.download_url).toMatch(/^\/api\/account\/export\/download\?id=\d+$/);
  const owner = await request.get(ready.download_url, { headers: { Token: me.token } });
  expect(owner.status()).toBe(200);
  expect(owner.headers()['content-type']).toBe('application/zip');
  const stranger = await request.get(ready.download_url, { headers: { Token: other.token } });
  expect(stranger.status()).toBe(404);
  expect(await stranger.json()).toMatchObject({ code: '404', msg: '下载链接不存在或已过期', data: null });
  await page.context().close();
});

test('注销账号: a cooling-off that a login cancels, then the deletion once the time has come', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const member = await newAccount(request, 'delete-me');
  const fan = await newAccount(request, 'delete-fan');
  expect(
    (
      await request.post('/api/passport/password', { headers: { Token: member.token }, form: { next: PASSWORD } })
    ).status(),
  ).toBe(200);
  const work = await workOf(member, '将被注销的作品');
  const followed = await request.post('/api/aweme/v1/web/commit/follow/user/', {
    form: { sec_user_id: member.user.sec_uid, type: '1' },
    headers: { Token: fan.token },
  });
  expect(followed.status()).toBe(200);
  const followingOf = async () =>
    (await sql<{ n: number }>('select following_count as n from users where id = $1', [Number(fan.user.uid)]))[0]!.n;
  expect(await followingOf()).toBe(1);

  /** Asks for the deletion from the settings page with the password, and lands on the home page logged out. */
  const askToDelete = async (options: { dark?: boolean; phone?: boolean }, shot: string) => {
    const page = await pageAs(browser, { ...member, token: member.token }, options);
    await page.goto('/settings');
    await page.getByRole('button', { name: '申请注销' }).click();
    const dialog = page.getByRole('dialog', { name: '确认注销账号' });
    await dialog.getByPlaceholder('登录密码').fill('not my password');
    await dialog.getByRole('button', { name: '确认注销' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('密码不正确', { timeout: 20_000 });
    await dialog.getByPlaceholder('登录密码').fill(PASSWORD);
    await page.screenshot({ path: path.join(SHOTS, `settings-delete-${shot}.png`) });
    await dialog.getByRole('button', { name: '确认注销' }).click();
    // scrypt checks the password: a loaded machine may take seconds.
    await expect(page).toHaveURL(/\/$/, { timeout: 20_000 });
    await expect(page.getByText('已提交注销申请，你已退出登录')).toBeVisible();
    await page.context().close();
  };

  await askToDelete({}, 'light-1440');
  const [{ due }] = (await sql<{ due: Date }>('select deletion_due_at as due from users where id = $1', [
    Number(member.user.uid),
  ])) as [{ due: Date }];
  expect(due.getTime() - Date.now()).toBeGreaterThan(14.9 * 86_400_000);
  // Every session ended.
  expect((await request.get('/api/settings', { headers: { Token: member.token } })).status()).toBe(401);

  // Logging in during the cooling-off takes it back.
  const login = await request.post('/api/passport/login/password', {
    form: { email: member.email, password: PASSWORD },
  });
  const back = (await login.json()) as Session & { deletion_cancelled: boolean };
  expect(back.deletion_cancelled).toBe(true);
  expect(await sql('select deletion_due_at from users where id = $1', [Number(member.user.uid)])).toEqual([
    { deletion_due_at: null },
  ]);
  member.token = back.token;

  // Asked again, from a phone in the dark theme; then fifteen days pass.
  await askToDelete({ dark: true, phone: true }, 'dark-390');
  await sql(`update users set deletion_due_at = now() - interval '1 second' where id = $1`, [Number(member.user.uid)]);
  await sql(
    `update pgboss.job set start_after = now() where name = 'account-delete' and state = 'created' and (data ->> 'userId')::int = $1`,
    [Number(member.user.uid)],
  );
  await expect
    .poll(async () => (await sql('select id from users where id = $1', [Number(member.user.uid)])).length, {
      timeout: 30_000,
    })
    .toBe(0);
  expect(await sql('select id from videos where id = $1', [work])).toEqual([]);
  expect(await followingOf()).toBe(0);
  const gone = await request.post('/api/passport/login/password', {
    form: { email: member.email, password: PASSWORD },
  });
  expect(gone.status()).toBe(401);
  const profile = await request.get(`/user/${member.user.sec_uid}`);
  expect(profile.status()).toBe(404);
});
