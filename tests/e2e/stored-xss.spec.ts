/**
 * Stored text never runs as markup. Two new accounts store hostile text through every field a user can write, through
 * the API as a client does (nickname and bio, a studio work's title with its #hashtags and @mentions, comments, a reply,
 * danmaku, live-room chat, 私信, searches), then each page and panel where that text is shown is opened in Chromium: the
 * text reads literally, no element came out of it, the sentinel `window.__xss` stays unset, no dialog opens, and (the
 * shared fixture) no Content-Security-Policy violation happened, which an injected inline handler would cause even
 * where the policy keeps it from running.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Browser, BrowserContext, Locator, Page } from '@playwright/test';
import pg from 'pg';
import { makeClip } from '../setup/clips.ts';
import {
  e2eDatabaseUrl,
  endBroadcast,
  expect,
  newAccount,
  seedRoomOnAir,
  signIn,
  test,
  type Session,
} from './support.ts';

/** This run's stamp: markers are unique to it, so texts written by other specs (or an earlier try) never match. */
const RUN = Date.now().toString(36).slice(-4);

/** Each payload with its marker; `injected` is what the page would hold had the text been parsed as HTML. */
const payloads = (m: string) => [
  `<img src=x onerror="window.__xss=1">${m}i`,
  `<script>window.__xss=1</script>${m}s`,
  `"><svg onload=window.__xss=1>${m}v`,
  `javascript:window.__xss=1//${m}j`,
  `{{7*7}}${m}t`,
  `</textarea><b>${m}b</b>`,
];
/** All six payloads in one line, for fields long enough to take them. */
const hostile = (label: string) => payloads(`${label}${RUN}`).join(' ');
/** The markers a `<b>` injected by a payload would hold exactly (see payloads: `<b>${m}b</b>`). */
const BOLD_MARKERS = new Set<string>();
const bold = (label: string) => BOLD_MARKERS.add(`${label}${RUN}b`);

// Nicknames: at most 20 characters and no whitespace, so a comment can @mention them. The author's closes an attribute
// and opens an element; the viewer's is a template expression and an element. `x()` is defined in every page (below).
const NICK_H = `"><svg/onload=x()>${RUN.slice(-2)}`;
const NICK_V = `{{7*7}}<b>V${RUN}</b>`;
BOLD_MARKERS.add(`V${RUN}`);
/** A bio of several lines, one payload each. */
const SIG_H = payloads(`S${RUN}`).join('\n');
bold('S');
/** A Chinese run with the stamp: one search finds the work by it. */
const TITLE_WORD = `跨站${RUN}`;
const TITLE = `${TITLE_WORD} ${hostile('T')} #<svg/onload=x()>${RUN} #javascript:x()${RUN} @${NICK_V} `;
bold('T');
const COMMENT = `@${NICK_H} ${hostile('C')}`;
bold('C');
const REPLY = hostile('R');
bold('R');
/** Danmaku hold 50 characters: one payload each. */
const DANMAKU = [`<img src=x onerror="window.__xss=1">D${RUN}`, `</textarea><b>D${RUN}b</b>`];
bold('D');
/** Chat lines hold 100 characters. */
const CHAT = [
  `<img src=x onerror="window.__xss=1"> <script>window.__xss=1</script>L${RUN}`,
  `"><svg onload=x()> {{7*7}} </textarea><b>L${RUN}b</b>`,
];
bold('L');
const CHAT_LIVE = `<img src=x onerror=x()> </textarea><b>P${RUN}b</b>`;
bold('P');
const DM_H = hostile('M');
bold('M');
const DM_V = hostile('N');
bold('N');
/** A search: without regex characters once URL-encoded, since other specs match URLs of searched words by RegExp. */
const QUERY = `<img src=x onerror=x> </textarea><b>Q${RUN}b</b>`;
bold('Q');

let api: APIRequestContext;
/** The author (H) of every hostile text but the viewer's own, and the viewer (V) who reads them and answers. */
let author: Session;
let viewer: Session;
let work: { id: number; title: string; hashtags: string[] };
let roomId: string;
let clipDir: string;
let clip: string;

async function post(who: Session, url: string, form: Record<string, string | number>) {
  const res = await api.post(`/api${url}`, { headers: { token: who.token }, form });
  expect(res.status(), `${url} ${await res.text()}`).toBe(200);
  return res.json();
}

/** A tus upload as the studio's client makes one: create with the file's name in Upload-Metadata, then one PATCH. */
async function upload(who: Session, file: string, name: string): Promise<string> {
  const bytes = readFileSync(file);
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const created = await api.post('/api/upload', {
    headers: {
      token: who.token,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(bytes.length),
      'Upload-Metadata': `filename ${b64(name)},filetype ${b64('video/mp4')},kind ${b64('video')}`,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const location = created.headers()['location']!;
  const id = location.split('/').pop()!;
  const patched = await api.patch(`/api/upload/${id}`, {
    headers: {
      token: who.token,
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': '0',
      'Content-Type': 'application/offset+octet-stream',
    },
    data: bytes,
  });
  expect(patched.status(), await patched.text()).toBe(204);
  return id;
}

test.beforeAll(async ({ playwright }, info) => {
  // An upload is transcoded before its work is published: on a loaded machine that takes a while.
  test.setTimeout(180_000);
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  author = await newAccount(api, 'xss-author');
  viewer = await newAccount(api, 'xss-viewer');
  clipDir = mkdtempSync(path.join(tmpdir(), 'stored-xss-'));
  clip = makeClip(clipDir, 'clip.mp4', { seconds: 3 });

  // 编辑资料 through commit/user, as the dialog posts it (multipart).
  for (const [who, nickname, signature] of [
    [author, NICK_H, SIG_H],
    [viewer, NICK_V, hostile('W')],
  ] as const) {
    const res = await api.post('/api/aweme/v1/web/commit/user/', {
      headers: { token: who.token },
      multipart: { nickname, signature },
    });
    expect(res.status(), await res.text()).toBe(200);
    const { user } = await res.json();
    expect(user.nickname).toBe(nickname);
    who.user.nickname = nickname;
  }
  bold('W');
  // Mutual follows: the work reaches the viewer's 关注 feed, and 私信 flow both ways.
  await post(viewer, '/aweme/v1/web/commit/follow/user/', { sec_user_id: author.user.sec_uid, type: 1 });
  await post(author, '/aweme/v1/web/commit/follow/user/', { sec_user_id: viewer.user.sec_uid, type: 1 });

  // A studio work whose title carries every payload, two hashtags and an @mention of the viewer. Friends-only: a
  // fresh work with comments tops the recommended feed, and this three-second clip must not reach other specs' feeds;
  // the viewer, a mutual follow, sees it everywhere a public work shows.
  const uploadId = await upload(author, clip, `<img src=x onerror=x()>F${RUN}.mp4`);
  const created = await api.post('/api/studio/work/create', {
    headers: { token: author.token },
    form: { uploadId, title: TITLE, channelId: 300204, coverTime: '0.5', visibility: 'friends' },
  });
  expect(created.status(), await created.text()).toBe(200);
  work = (await created.json()).data;
  await expect
    .poll(
      async () =>
        (await (await api.get(`/api/studio/work?workId=${work.id}`, { headers: { token: author.token } })).json()).data
          .status,
      {
        timeout: 150_000,
        intervals: [500, 1000, 2000],
      },
    )
    .toBe('published');

  // On the work: the viewer's comment @mentioning the author, the author's reply, the viewer's danmaku.
  const comment = await post(viewer, '/aweme/v1/web/comment/publish', { aweme_id: work.id, text: COMMENT });
  await post(author, '/aweme/v1/web/comment/publish', {
    aweme_id: work.id,
    text: REPLY,
    reply_id: comment.comment.cid,
  });
  for (const [i, text] of DANMAKU.entries())
    await post(viewer, '/aweme/v1/web/danmaku/send/', { aweme_id: work.id, text, offset_ms: 300 + i * 400 });

  // 私信 both ways, the viewer's quoting the author's.
  const sent = await post(author, '/aweme/v1/web/im/message/send/', { sec_user_id: viewer.user.sec_uid, text: DM_H });
  await post(viewer, '/aweme/v1/web/im/message/send/', {
    sec_user_id: author.user.sec_uid,
    text: DM_V,
    reply_id: sent.message.message_id,
  });
});

/** Puts a room on air for the live-chat test, just before it reads the room, and posts its chat. */
async function roomOnAir(): Promise<string> {
  const db = new pg.Client({ connectionString: e2eDatabaseUrl()! });
  await db.connect();
  try {
    roomId = String(await seedRoomOnAir(db, { newest: true }));
  } finally {
    await db.end();
  }
  for (const text of CHAT) await post(author, '/live/room/chat', { room_id: roomId, text });
  return roomId;
}

test.afterAll(async () => {
  if (roomId) {
    const db = new pg.Client({ connectionString: e2eDatabaseUrl()! });
    await db.connect();
    await endBroadcast(db, roomId);
    await db.end();
  }
  await api?.dispose();
  if (clipDir) rmSync(clipDir, { recursive: true, force: true });
});

/** Dialogs opened by the pages of each context. */
const dialogs = new WeakMap<BrowserContext, string[]>();

/**
 * A browser context logged in as `who`, whose pages define `x()` (the nickname payloads call it) to set the sentinel,
 * and record every dialog.
 */
async function open(
  browser: Browser,
  who: Session | null,
  options: Parameters<Browser['newContext']>[0] = {},
): Promise<Page> {
  const context = await browser.newContext(options);
  if (who) await signIn(context, who);
  await context.addInitScript(() => {
    (window as unknown as { x: () => void }).x = () => {
      (window as unknown as { __xss: number }).__xss = 1;
    };
  });
  const seen: string[] = [];
  dialogs.set(context, seen);
  context.on('page', (page) =>
    page.on('dialog', (d) => {
      seen.push(`${d.type()}: ${d.message()}`);
      void d.dismiss().catch(() => {});
    }),
  );
  return context.newPage();
}

/** Asserts that nothing stored became markup or ran on `page` so far. */
async function assertInert(page: Page, where: string): Promise<void> {
  const found = await page.evaluate(
    (markers) => {
      const describe = (e: Element) => e.outerHTML.slice(0, 160);
      const executable = (s: HTMLScriptElement) =>
        ['', 'text/javascript', 'module', 'application/javascript'].includes(s.type.toLowerCase());
      return {
        sentinel: (window as unknown as { __xss?: unknown }).__xss,
        elements: [
          ...document.querySelectorAll(
            'img[src="x"], svg[onload], [onerror], [onload], a[href^="javascript:" i], iframe[src^="javascript:" i]',
          ),
        ].map(describe),
        scripts: [...document.scripts].filter((s) => executable(s) && s.text.includes('__xss')).map(describe),
        bold: [...document.querySelectorAll('b')].filter((b) => markers.includes(b.textContent ?? '')).map(describe),
      };
    },
    [...BOLD_MARKERS],
  );
  expect(found, `${where}: nothing stored became markup`).toEqual({
    sentinel: undefined,
    elements: [],
    scripts: [],
    bold: [],
  });
  expect(dialogs.get(page.context()) ?? [], `${where}: no dialog`).toEqual([]);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Text shown literally: the whole stored string is in `scope`'s text, with its spaces as the page collapses them. */
const literal = (scope: Locator, text: string) => expect(scope).toContainText(text.replace(/\s+/g, ' '));

test('profile pages, the 关注 feed, the work page, 朋友 and 粉丝: nickname, bio and title read literally; the 编辑资料 dialog too', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const page = await open(browser, viewer);
  const main = page.getByRole('main');
  await page.goto(`/user/${author.user.sec_uid}`);
  await expect(main.getByRole('heading', { level: 1 })).toHaveText(NICK_H);
  await expect(page).toHaveTitle(new RegExp(`^${escape(NICK_H)}`));
  for (const line of SIG_H.split('\n')) await literal(main, line);
  // The author's works, with the work's title: the work is friends-only, and a profile is a page every viewer shares,
  // so its author's own page (/user/self, rendered for them) lists it.
  const authorPage = await open(browser, author);
  await authorPage.goto('/user/self');
  await literal(authorPage.getByRole('main'), TITLE_WORD);
  await expect(authorPage.getByRole('main').locator(`a[href="/video/${work.id}"]`).first()).toBeVisible();
  await assertInert(authorPage, 'own profile');
  await authorPage.context().close();
  await assertInert(page, 'profile');

  // 关注: the followed author's work, its title and @nickname.
  await page.goto('/follow');
  const card = page.locator('#follow-grid article', { has: page.locator(`a[href="/video/${work.id}"]`) }).first();
  await literal(card, TITLE.trim());
  await literal(card, `@${NICK_H}`);
  await assertInert(page, '关注 feed');

  // The work's own page, rendered for this friend (a friends-only work is no page every viewer shares).
  await page.goto(`/video/${work.id}`);
  await literal(main, TITLE.trim());
  await literal(main, NICK_H);
  await assertInert(page, 'video page');

  // 朋友: the mutual follow by nickname.
  await page.goto('/friend');
  await expect(
    page.getByRole('region', { name: '我的朋友' }).getByRole('link', { name: NICK_H, exact: true }),
  ).toBeVisible();
  await assertInert(page, '朋友');

  // The owner's own page and the 编辑资料 dialog, whose bio box is a textarea.
  const own = await open(browser, author);
  await own.goto('/user/self');
  await expect(own.getByRole('main').getByRole('heading', { level: 1 })).toHaveText(NICK_H);
  // The 粉丝 list: the viewer's nickname and bio.
  await own
    .getByRole('main')
    .getByRole('button', { name: /^粉丝\s*\d/ })
    .click();
  const fans = own.getByRole('dialog', { name: `${NICK_H}的粉丝` });
  const fan = fans.getByRole('listitem').filter({ hasText: `W${RUN}i` });
  await literal(fan, NICK_V);
  await literal(fan, hostile('W'));
  await assertInert(own, '粉丝');
  await own.keyboard.press('Escape');
  await expect(fans).toBeHidden();
  await own.getByRole('main').getByRole('button', { name: '编辑资料' }).click();
  const dialog = own.getByRole('dialog', { name: '编辑资料' });
  await expect(dialog.getByLabel('昵称')).toHaveValue(NICK_H);
  await expect(dialog.getByLabel('简介')).toHaveValue(SIG_H);
  await assertInert(own, '编辑资料');
  await page.context().close();
  await own.context().close();
});

test('video page: title, hashtags, comment, @mention, reply and danmaku read literally', async ({ browser }) => {
  test.setTimeout(60_000);
  // Still danmaku hold their lane for 4 s: time enough to look at them.
  const page = await open(browser, viewer, { reducedMotion: 'reduce' });
  await page.goto(`/video/${work.id}`);
  const heading = page.getByRole('heading', { level: 1 });
  await literal(heading, TITLE.trim());
  await expect(page).toHaveTitle(new RegExp(`^${escape(TITLE.trim().replace(/\s+/g, ' '))}`));
  for (const tag of work.hashtags) {
    await expect(heading.getByRole('link', { name: `#${tag}`, exact: true })).toHaveAttribute(
      'href',
      `/search/${encodeURIComponent(tag)}`,
    );
  }
  expect(work.hashtags).toEqual([`<svg/onload=x()>${RUN}`, `javascript:x()${RUN}`]);

  await assertInert(page, 'video page as rendered');
  // The comment column comes with its count only and loads its comments once it wakes: pointed at, or when the player
  // has woken and the column is on screen.
  const column = page.locator(`[data-comments="${work.id}"]`);
  await column.scrollIntoViewIfNeeded();
  await column.getByRole('heading').hover();
  await expect(page.locator('astro-island', { has: column })).not.toHaveAttribute('ssr', '');
  const mine = column.locator('article', { hasText: `C${RUN}i` }).first();
  await literal(mine, COMMENT);
  await expect(mine.getByRole('link', { name: `@${NICK_H}`, exact: true })).toHaveAttribute(
    'href',
    `/user/${author.user.sec_uid}`,
  );
  await mine.getByRole('button', { name: '展开1条回复' }).click();
  // A reply's article sits inside its thread's: the last match is the innermost.
  const reply = column.locator('article', { hasText: `R${RUN}i` }).last();
  await literal(reply, REPLY);
  await literal(reply, NICK_H);

  // Danmaku over the playing video.
  await page.locator('[data-player]').hover();
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr] [data-player]'));
  await page.keyboard.press('b');
  await expect(page.getByRole('switch', { name: '弹幕' })).toHaveAttribute('aria-checked', 'true');
  // From the start once the layer has the video's rows: a row whose time passed before they came is not shown.
  await expect(page.locator('[data-player] .danmaku-layer[data-loaded]')).toBeAttached();
  await page.locator('[data-player] video').evaluate((v: HTMLVideoElement) => {
    v.currentTime = 0;
    return v.play();
  });
  for (const text of DANMAKU)
    await expect(page.locator('.danmaku-item', { hasText: text })).toHaveText(text, { timeout: 10_000 });
  await assertInert(page, 'video page with comments and danmaku');
  await page.context().close();
});

test('live room: chat lines read literally, as rendered and as pushed', async ({ browser }) => {
  const room = await roomOnAir();
  const page = await open(browser, viewer);
  await page.goto(`/live/${room}`);
  const log = page.getByRole('log');
  for (const line of CHAT) await literal(log, line);
  await literal(log, `${NICK_H}：`);
  await expect(page.locator('[data-stream="open"]')).toBeVisible();
  await post(author, '/live/room/chat', { room_id: room, text: CHAT_LIVE });
  await literal(log, CHAT_LIVE);
  await assertInert(page, 'live room');
  await page.context().close();
});

test('私信: each side reads the other’s messages, the quote and the nickname literally', async ({ browser }) => {
  test.setTimeout(60_000);
  for (const [me, peer, theirs] of [
    [viewer, author, DM_H],
    [author, viewer, DM_V],
  ] as const) {
    const page = await open(browser, me);
    await page.goto('/discover');
    await page.getByRole('navigation', { name: '快捷入口' }).getByRole('button', { name: /^私信/ }).click();
    const panel = page.locator('#pop-message');
    const row = panel.locator('[data-conversation]', { hasText: peer.user.nickname }).first();
    await literal(row, peer.user.nickname);
    await row.click();
    const log = panel.locator('[data-chat]').getByRole('log', { name: '聊天记录' });
    await literal(log.locator('[data-message]', { hasText: theirs.slice(-12) }).first(), theirs);
    // The viewer's message quotes the author's: both texts on the author's side.
    if (me === author) await literal(log.locator('[data-message]', { hasText: DM_V.slice(-12) }).first(), DM_H);
    await assertInert(page, `私信 of ${me === viewer ? 'the viewer' : 'the author'}`);
    await page.context().close();
  }
});

test('通知: comments, mentions, replies, danmaku and a mentioning title are quoted literally, with the actor’s nickname', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  for (const [me, peer, quoted] of [
    // A second danmaku on the same work replaces the first one's notification.
    [author, viewer, [COMMENT, DANMAKU.at(-1)!]],
    // The reply to the viewer's comment, and the work's title, which @mentions the viewer.
    [viewer, author, [REPLY, TITLE.trim()]],
  ] as const) {
    const page = await open(browser, me);
    await page.goto('/discover');
    await page.getByRole('navigation', { name: '快捷入口' }).getByRole('button', { name: /^通知/ }).click();
    const pop = page.locator('#pop-notice');
    await expect(pop.getByRole('heading', { name: '互动消息' })).toBeVisible();
    for (const text of quoted) {
      const item = pop.locator('[data-notice]', { hasText: text.slice(-12) }).first();
      await literal(item, text);
      await literal(item, peer.user.nickname);
    }
    await assertInert(page, `通知 of ${me === viewer ? 'the viewer' : 'the author'}`);
    await page.context().close();
  }
});

test('studio: the work list and the edit form show the title and hashtags literally; a file name too', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const page = await open(browser, author);
  await page.goto('/post/manage');
  const row = page.locator(`[data-work-id="${work.id}"]`);
  await literal(row, TITLE.trim());
  await assertInert(page, '视频管理');
  await row.getByRole('button', { name: /^编辑/ }).click();
  const dialog = page.getByRole('dialog', { name: '编辑作品' });
  await expect(dialog.getByRole('combobox', { name: '作品描述' })).toHaveValue(work.title, { timeout: 15_000 });
  expect(work.title.trim()).toBe(TITLE.trim());
  await expect(dialog.getByRole('list', { name: '已添加话题' }).getByRole('listitem')).toHaveText(
    work.hashtags.map((h) => `#${h}`),
  );
  await assertInert(page, '编辑作品');

  // 作品数据: the work chooser lists the work by its title.
  await page.goto('/post/data');
  await literal(page.getByLabel('作品', { exact: true }).locator(`option[value="${work.id}"]`), TITLE.trim());
  await assertInert(page, '作品数据');

  // A file picked for upload: its name on the upload card, and in the title the form suggests from it.
  await page.goto('/post');
  const name = `<img src=x onerror=x()></textarea><b>F${RUN}b</b>`;
  BOLD_MARKERS.add(`F${RUN}b`);
  await page
    .getByLabel('选择要上传的视频文件')
    .setInputFiles({ name: `${name}.mp4`, mimeType: 'video/mp4', buffer: readFileSync(clip) });
  await expect(page.getByRole('region', { name: `${name}.mp4` })).toBeVisible();
  await expect(page.getByRole('combobox', { name: '作品描述' })).toHaveValue(name);
  await assertInert(page, '发布视频');
  await page.context().close();
});

test('search: a hostile query’s results page, users with their bio, 历史记录 and 热搜 read literally', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const page = await open(browser, viewer);
  await page.goto('/discover');
  const box = page.getByRole('combobox', { name: '搜索你感兴趣的内容' });
  await box.click();
  await box.fill(QUERY);
  const [results] = await Promise.all([page.context().waitForEvent('page'), box.press('Enter')]);
  await results.waitForLoadState('domcontentloaded');
  await expect(results).toHaveTitle(new RegExp(`^${escape(QUERY)} - 搜索结果`));
  await expect(results.getByRole('combobox', { name: '搜索你感兴趣的内容' })).toHaveValue(QUERY);
  await assertInert(results, 'search results for a hostile query');

  // The author among users, the nickname highlighted, with the bio. (The work is friends-only: search, the same for
  // everyone, leaves it out; its cards are checked on the profile and in the 关注 feed.)
  await results.goto(`/search/${encodeURIComponent(NICK_H)}?type=user`);
  const user = results.getByRole('list', { name: '用户' }).getByRole('listitem').filter({ hasText: NICK_H }).first();
  await literal(user, NICK_H);
  await literal(user, SIG_H.split('\n')[0]!);
  await assertInert(results, 'search results');
  await results.close();

  // 历史记录, in the box's panel.
  await box.fill('');
  await box.click();
  const panel = page.getByRole('dialog', { name: '搜索推荐' });
  const history = panel.locator('section', { has: page.getByRole('heading', { name: '历史记录' }) });
  await expect(history.getByRole('button', { name: QUERY, exact: true })).toBeVisible();
  await assertInert(page, '历史记录');

  // 热搜, which every visitor sees: searched just often enough to pass the sixth word, and far less often than the
  // search spec searches the word it expects on top.
  const hot = (await (await api.get('/api/aweme/v1/web/hot/search/list/?count=6')).json()).data.word_list as {
    word: string;
    hot_value: number;
  }[];
  const times = hot.some((w) => w.word === QUERY) ? 0 : Math.ceil(hot[5]!.hot_value / 10_000) + 2;
  expect(times, `the sixth hot word's heat ${hot[5]!.hot_value}`).toBeLessThanOrEqual(30);
  for (let i = 0; i < times; i++) {
    expect(
      (await api.get('/api/aweme/v1/web/general/search/single/', { params: { keyword: QUERY, count: 1 } })).status(),
    ).toBe(200);
  }
  const word = panel.locator('button[data-rank]', { hasText: `Q${RUN}b` });
  await expect(async () => {
    await page.reload();
    await box.click();
    await expect(word).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await literal(word, QUERY);
  await assertInert(page, '热搜');
  await page.context().close();
});
