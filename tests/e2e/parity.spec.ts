/**
 * What douyin.com users expect of search, the player, 合集, the comment box and sharing: 筛选 changes the results as it
 * says; 倍速 holds from video to video and across a reload, never in a live room; 连播 moves on at the end, and not when
 * off; a 合集 page plays its episodes in order and continues where a member stopped; the comment box's @ picker inserts
 * a mention that notifies; the share panel's QR code decodes to the video's address.
 */
import type { APIRequestContext, BrowserContext, Locator, Page } from '@playwright/test';
import jsQR from 'jsqr';
import pg from 'pg';
import sharp from 'sharp';
import {
  e2eDatabaseUrl,
  endBroadcast,
  expect,
  holdEachVideo,
  newAccount,
  seedRoomOnAir,
  signIn,
  test,
} from './support.ts';

let api: APIRequestContext;
let db: pg.Client;

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  db = new pg.Client({ connectionString: e2eDatabaseUrl()! });
  await db.connect();
});

test.afterAll(async () => {
  await db?.end();
  await api?.dispose();
});

/** Waits until no island of the page still shows the server's markup around `selector`. */
async function hydrated(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((s) => !document.querySelector(`astro-island[ssr] ${s}`), selector);
}

const active = (page: Page) => page.locator('article[data-active="true"]');
const rate = (video: Locator) => video.evaluate((v: HTMLVideoElement) => v.playbackRate);

/** Starts keeping every text the player's note says (a note stays 2 s: a busy machine may look later). */
async function recordNotes(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __notes: string[] };
    w.__notes = [];
    new MutationObserver(() => {
      for (const el of document.querySelectorAll(
        'article[data-active="true"] [role="status"], [data-player] [role="status"]',
      ))
        if (el.textContent) w.__notes.push(el.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}
const notes = (page: Page) => page.evaluate(() => (window as unknown as { __notes: string[] }).__notes);

/** The most used hashtag: enough results to page through. */
async function busyTag(): Promise<string> {
  const { rows } = await db.query<{ name: string }>(
    `select h.name from hashtags h join video_hashtags vh on vh.hashtag_id = h.id join videos v on v.id = vh.video_id
     where v.deleted_at is null and v.visibility = 'public' group by h.name order by count(*) desc, h.name limit 1`,
  );
  return rows[0]!.name;
}

/** The ids and dates of the result cards, in page order. */
async function cards(page: Page): Promise<{ id: string; at: number }[]> {
  return page.locator('#search-video-grid > li').evaluateAll((items) =>
    items.map((li) => ({
      id: (li as HTMLElement).dataset.key!,
      at: Date.parse(li.querySelector('time')?.getAttribute('datetime') ?? ''),
    })),
  );
}

test.describe('search filters', () => {
  test('最新发布 orders newest first across pages, 视频时长 keeps only that length, each in the address', async ({
    page,
  }) => {
    const tag = await busyTag();
    await page.goto(`/search/${encodeURIComponent(tag)}?type=video`);
    await page.getByText('筛选', { exact: true }).click();
    await page.getByRole('link', { name: '最新发布' }).click();
    await expect(page).toHaveURL(/[?&]sort_type=2/);
    await expect(page.getByRole('link', { name: '最新发布' })).toHaveAttribute('aria-current', 'true');
    // Further pages come by scrolling, under the same order.
    const first = await cards(page);
    expect(first.length).toBeGreaterThan(0);
    await page.locator('#search-video-grid > li').last().scrollIntoViewIfNeeded();
    await expect.poll(async () => (await cards(page)).length, { timeout: 15_000 }).toBeGreaterThan(first.length);
    const all = await cards(page);
    expect(new Set(all.map((c) => c.id)).size).toBe(all.length);
    expect(all.map((c) => c.at)).toEqual([...all.map((c) => c.at)].sort((a, b) => b - a));

    // Two results made 3 and 8 minutes long: 1-5分钟 shows the one, 5分钟以上 the other.
    const [mid, long] = all.slice(0, 2).map((c) => Number(c.id));
    const { rows } = await db.query<{ id: number; duration_ms: number }>(
      'select id, duration_ms from videos where id = any($1)',
      [[mid, long]],
    );
    try {
      await db.query('update videos set duration_ms = 180000 where id = $1', [mid]);
      await db.query('update videos set duration_ms = 480000 where id = $1', [long]);
      // The panel stays open while a filter is on.
      await expect(page.locator('details.search-filters')).toHaveAttribute('open', '');
      await page.getByRole('link', { name: '1-5分钟' }).click();
      await expect(page).toHaveURL(/filter_duration=1-5/);
      await expect(page).toHaveURL(/sort_type=2/);
      expect((await cards(page)).map((c) => Number(c.id))).toEqual([mid]);
      await page.getByRole('link', { name: '5分钟以上' }).click();
      expect((await cards(page)).map((c) => Number(c.id))).toEqual([long]);
      await page.getByRole('link', { name: '1分钟以下' }).click();
      const short = (await cards(page)).map((c) => Number(c.id));
      expect(short).not.toContain(mid);
      expect(short).not.toContain(long);
      expect(short.length).toBeGreaterThan(0);
    } finally {
      for (const r of rows) await db.query('update videos set duration_ms = $2 where id = $1', [r.id, r.duration_ms]);
    }
  });
});

/** Puts a video 0.3 s before its end. */
const nearEnd = (v: HTMLVideoElement) => (v.currentTime = Math.max(0, v.duration - 0.3));

/**
 * The video in front, put near its end, came back and plays: it looped rather than ending. Anywhere short of the last
 * half second counts, a window of most of the video: "within a second of the start" could pass between two polls.
 */
const loopedBack = (page: Page) =>
  expect
    .poll(() =>
      active(page)
        .locator('video')
        .evaluate((v: HTMLVideoElement) => v.currentTime < v.duration - 0.5 && !v.paused && !v.ended),
    )
    .toBe(true);

test.describe('倍速 and 连播', () => {
  test('倍速 set on one video holds on the next and after a reload, and is said over the video', async ({ page }) => {
    // At 2x a seeded video ends within seconds.
    await holdEachVideo(page);
    await page.goto('/');
    await page.locator('section[aria-roledescription="carousel"]').hover();
    await hydrated(page, '[data-active]');
    const bar = active(page).getByRole('group', { name: '播放控制' });
    await recordNotes(page);
    await bar.getByRole('button', { name: '倍速 倍速' }).click();
    await bar.getByRole('menuitemradio', { name: '1.5x' }).click();
    await expect.poll(() => notes(page)).toContain('已切换至1.5x倍速');
    await expect.poll(() => rate(active(page).locator('video'))).toBe(1.5);
    // The menu keeps the focus on 1.5x (↓ moves within it), so the next video comes by its button.
    await page.getByRole('button', { name: '下一个视频' }).click();
    await expect(active(page)).toHaveAttribute('data-index', '1');
    await expect.poll(() => rate(active(page).locator('video'))).toBe(1.5);
    // The keys step it: > to 2x.
    await page.keyboard.press('Shift+Period');
    await expect.poll(() => rate(active(page).locator('video'))).toBe(2);
    await page.reload();
    await page.locator('section[aria-roledescription="carousel"]').hover();
    await hydrated(page, '[data-active]');
    await expect.poll(() => rate(active(page).locator('video'))).toBe(2);
    await expect(active(page).getByRole('button', { name: '倍速 2x' })).toBeVisible();
  });

  test('a live room plays at its own pace: no 倍速 menu, and the keys leave it at 1x', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('sy.player', JSON.stringify({ rate: 2 })));
    const room = await seedRoomOnAir(db);
    try {
      await page.goto(`/live/${room}`);
      const player = page.locator(`[data-live-player="${room}"]`);
      await player.hover();
      await expect(player.getByRole('button', { name: '全屏' })).toBeVisible();
      await expect(player.getByRole('button', { name: /^倍速/ })).toHaveCount(0);
      await page.keyboard.press('Shift+Period');
      await page.keyboard.press('Shift+Period');
      await expect.poll(() => rate(player.locator('video'))).toBe(1);
    } finally {
      await endBroadcast(db, room);
    }
  });

  test('连播 is on by default beside 清晰度: at the end the feed moves on; off (K), the video loops', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await page.goto('/');
    await page.locator('section[aria-roledescription="carousel"]').hover();
    await hydrated(page, '[data-active]');
    const autoNext = active(page).getByRole('switch', { name: '自动连播' });
    await expect(autoNext).toHaveAttribute('aria-checked', 'true');
    await expect(autoNext).toHaveText('连播');
    await active(page).locator('video').evaluate(nearEnd);
    await expect(active(page)).toHaveAttribute('data-index', '1', { timeout: 5000 });

    await recordNotes(page);
    await page.keyboard.press('k');
    await expect.poll(() => notes(page)).toContain('已关闭自动连播');
    await expect(active(page).getByRole('switch', { name: '自动连播' })).toHaveAttribute('aria-checked', 'false');
    await expect
      .poll(() =>
        active(page)
          .locator('video')
          .evaluate((v: HTMLVideoElement) => v.loop),
      )
      .toBe(true);
    // The slide in front now (a slow step may have let the second video end while 连播 was still on).
    const at = (await active(page).getAttribute('data-index'))!;
    await active(page).locator('video').evaluate(nearEnd);
    // It loops: back near the start, still the same slide.
    await loopedBack(page);
    await expect(active(page)).toHaveAttribute('data-index', at);
    // Remembered for the next visit.
    await page.reload();
    await page.locator('section[aria-roledescription="carousel"]').hover();
    await hydrated(page, '[data-active]');
    await expect(active(page).getByRole('switch', { name: '自动连播' })).toHaveAttribute('aria-checked', 'false');
  });

  test('连播 waits while the comments are open: the video loops, and moves on again once they close', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await page.goto('/');
    await page.locator('section[aria-roledescription="carousel"]').hover();
    await hydrated(page, '[data-active]');
    await expect(active(page).getByRole('switch', { name: '自动连播' })).toHaveAttribute('aria-checked', 'true');
    await active(page).getByRole('list', { name: '视频操作' }).getByRole('button', { name: /评论/ }).click();
    const panel = page.locator('section[data-comments]').filter({ visible: true });
    await expect(panel.getByRole('heading', { name: /评论/ })).toBeVisible();
    // The slide in front once the comments are open: on a loaded machine the steps above can outlast the first video,
    // which then rightly moved on before the comments opened.
    const at = Number(await active(page).getAttribute('data-index'));
    await active(page).locator('video').evaluate(nearEnd);
    await loopedBack(page);
    await expect(active(page)).toHaveAttribute('data-index', String(at));
    await expect(panel.getByRole('heading', { name: /评论/ })).toBeVisible();

    await panel.getByRole('button', { name: '关闭评论' }).click();
    await active(page).locator('video').evaluate(nearEnd);
    await expect(active(page)).toHaveAttribute('data-index', String(at + 1));
  });
});

test.describe('合集', () => {
  test('the profile’s 合集 tab leads to the 合集 page, which plays episodes in order and continues where a member stopped', async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const { rows } = await db.query<{ id: number; sec_uid: string; n: number }>(
      `select s.id, u.sec_uid, s.item_count as n from series s join users u on u.id = s.author_id
       where s.kind = 'mix' and s.item_count >= 3 order by s.id limit 1`,
    );
    const mix = rows[0]!;
    const member = await newAccount(api, 'collection');
    const context = await browser.newContext();
    await signIn(context, member);
    const page = await context.newPage();
    await page.goto(`/user/${mix.sec_uid}`);
    await page.getByRole('link', { name: /^合集/ }).click();
    await expect(page).toHaveURL(/showTab=mix/);
    await page.locator(`a[href="/collection/${mix.id}"]`).first().click();
    await expect(page).toHaveURL(new RegExp(`/collection/${mix.id}$`));
    const list = page.getByRole('list', { name: /的选集$/ });
    await expect(list.getByRole('listitem')).toHaveCount(mix.n);
    await expect(list.locator('a[aria-current="page"]')).toContainText('第1集');

    // The first episode ends: 连播 (on) plays the second.
    const player = page.locator('[data-player]');
    await player.hover();
    await hydrated(page, '[data-player]');
    await expect(player.getByRole('switch', { name: '自动连播' })).toHaveAttribute('aria-checked', 'true');
    await player.locator('video').evaluate((v: HTMLVideoElement) => (v.currentTime = Math.max(0, v.duration - 0.3)));
    await expect(page).toHaveURL(new RegExp(`/collection/${mix.id}\\?ep=2$`), { timeout: 10_000 });
    await expect(list.locator('a[aria-current="page"]')).toContainText('第2集');

    // A few seconds into episode 2, then away: the page remembers it.
    await page.locator('[data-player] video').evaluate(async (v: HTMLVideoElement) => {
      v.currentTime = Math.min(3, v.duration / 2);
      await new Promise((r) => setTimeout(r, 200));
      v.pause();
    });
    await expect
      .poll(async () => {
        const body = await (
          await context.request.get(`/api/aweme/v1/web/mix/progress/?mix_id=${mix.id}`, {
            headers: { token: member.token },
          })
        ).json();
        return body.last?.episode;
      })
      .toBe(2);
    await page.goto(`/collection/${mix.id}`);
    const resume = page.getByRole('link', { name: '继续观看第2集' });
    await expect(resume).toBeVisible();
    // Episode 1 shows as watched to its end.
    await expect(list.getByRole('listitem').first().getByText('已看完')).toBeVisible();
    await resume.click();
    await expect(page).toHaveURL(new RegExp(`\\?ep=2$`));
    await expect
      .poll(() => page.locator('[data-player] video').evaluate((v: HTMLVideoElement) => v.currentTime))
      .toBeGreaterThan(1);
    await context.close();
  });
});

test.describe('comment box and share', () => {
  test('the @ picker offers the people I follow first; the mention it inserts notifies them under @我的', async ({
    browser,
  }) => {
    const friend = await newAccount(api, 'mention');
    const writer = await newAccount(api, 'writer');
    // A name of its own, so that typing its start finds it.
    const nickname = `提及好友${Date.now() % 100_000}`;
    const renamed = await api.post('/api/aweme/v1/web/commit/user/', {
      form: { nickname },
      headers: { token: friend.token },
    });
    expect(renamed.status()).toBe(200);
    friend.user.nickname = nickname;
    await api.post('/api/aweme/v1/web/commit/follow/user/', {
      form: { sec_user_id: friend.user.sec_uid, type: 1 },
      headers: { token: writer.token },
    });
    const feed = await (await api.get('/api/aweme/v1/web/tab/feed/?count=1&refresh_index=3')).json();
    const id = feed.aweme_list[0].aweme_id;
    const context: BrowserContext = await browser.newContext();
    await signIn(context, writer);
    const page = await context.newPage();
    await page.goto(`/video/${id}`);
    const column = page.locator(`[data-comments="${id}"]`);
    await column.scrollIntoViewIfNeeded();
    await column.getByRole('heading').hover();
    await expect(page.locator('astro-island', { has: column })).not.toHaveAttribute('ssr', '');
    const box = column.getByRole('textbox');
    await box.click();
    // Typing the start of the friend's name: the followed one comes first.
    await box.pressSequentially(`看看这个 @${nickname.slice(0, 4)}`);
    const picker = column.getByRole('listbox', { name: '选择要@的人' });
    await expect(picker.getByRole('option').first()).toContainText(friend.user.nickname);
    await expect(picker.getByRole('option').first()).toContainText('已关注');
    await box.press('Enter');
    await expect(box).toHaveValue(`看看这个 @${friend.user.nickname} `);
    // The emoji panel inserts at the caret.
    await column.getByRole('button', { name: '表情' }).click();
    await column.getByRole('group', { name: '表情' }).getByRole('button', { name: '👍' }).click();
    await expect(box).toHaveValue(`看看这个 @${friend.user.nickname} 👍`);
    await box.press('Enter');
    // The comment in the list (the box may still hold the text for a moment after the comment shows).
    await expect(column.getByRole('article').getByText(`看看这个 @${friend.user.nickname} 👍`)).toBeVisible();
    await expect(box).toHaveValue('');
    await expect
      .poll(async () => {
        const body = await (
          await api.get('/api/aweme/v1/web/notice/?notice_group=at', { headers: { token: friend.token } })
        ).json();
        return body.notice_list.map((n: { type: string }) => n.type);
      })
      .toEqual(['mention']);
    await context.close();
  });

  test('the share panel’s QR code decodes to the video’s address', async ({ page, baseURL }) => {
    const feed = await (await api.get('/api/aweme/v1/web/tab/feed/?count=1&refresh_index=2')).json();
    const id = feed.aweme_list[0].aweme_id;
    await page.goto(`/video/${id}`);
    await page.locator('[data-player]').hover();
    await hydrated(page, '[data-player]');
    await page.getByRole('main').getByRole('button', { name: /^分享/ }).first().hover();
    const qr = page.locator('svg[data-share-qr]');
    await expect(qr).toBeVisible();
    const png = await qr.screenshot();
    const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const found = jsQR(new Uint8ClampedArray(data), info.width, info.height);
    expect(found?.data).toBe(`${baseURL}/video/${id}`);
  });
});
