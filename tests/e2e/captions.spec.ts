import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { makeClip } from '../setup/clips.ts';
import { expect, newAccount, signIn, test, type Session } from './support.ts';

let dir: string;
let clip: string;
const SHOTS = path.resolve('test-results/screens');
/** A line only the captions say: no title, hashtag or nickname of the site holds it. */
const SPOKEN = '鲸鱼在月光下唱歌';

test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'captions-e2e-'));
  clip = makeClip(dir, '海风.mp4', { seconds: 4, width: 360, height: 640 });
  writeFileSync(
    path.join(dir, 'bad.srt'),
    '1\n00:00:00,200 --> 00:00:01,500\n第一句\n\n2\n00:00:02,000 --> 00:00:09,000\n这一句超出了视频\n',
  );
  writeFileSync(
    path.join(dir, 'good.srt'),
    `1\n00:00:00,100 --> 00:00:01,800\n<i>海风吹过沙滩</i>\n\n2\n00:00:01,800 --> 00:00:03,800\n${SPOKEN}\n`,
  );
});

test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function pageAs(browser: Browser, session: Session | null, options: { dark?: boolean; phone?: boolean } = {}) {
  const context = await browser.newContext(
    options.phone ? { viewport: { width: 390, height: 844 }, hasTouch: true } : {},
  );
  if (session) await signIn(context, session);
  if (options.dark) await context.addInitScript(() => localStorage.setItem('theme', 'dark'));
  return context.newPage();
}

/** Opens the work's page and wakes its player (the first hover hydrates it). */
async function openWork(page: Page, workId: number): Promise<void> {
  await page.goto(`/video/${workId}`);
  const video = page.locator('video').first();
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 })
    .toBeGreaterThan(1);
  await video.hover();
  await page.waitForFunction(() => !document.querySelector('astro-island[ssr] [data-player]'));
}

/** Stops the video at `seconds` and expects `text` drawn over it then. */
async function expectCaption(page: Page, seconds: number, text: string): Promise<void> {
  await page
    .locator('video')
    .first()
    .evaluate((v: HTMLVideoElement, at) => {
      v.pause();
      v.currentTime = at;
    }, seconds);
  await expect(page.locator('[data-captions-shown]')).toHaveText(text);
}

test('captions: the engine writes them for a new upload, a bad file names its line, a good one replaces them, CC shows each cue at its time, and a caption line finds the work', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const me = await newAccount(request, 'captions');
  const studio = await pageAs(browser, me);
  await studio.goto('/post');
  await studio.getByLabel('选择要上传的视频文件').setInputFiles(clip);
  const title = studio.getByRole('combobox', { name: '作品描述' });
  await expect(title).toHaveValue('海风', { timeout: 15_000 });
  await title.fill('海边的风 #字幕测试');
  await studio.getByRole('group', { name: '作品分类' }).getByText('美食', { exact: true }).click();
  const publish = studio.getByRole('button', { name: '发布', exact: true });
  await expect(publish).toBeEnabled({ timeout: 60_000 });
  await publish.click();
  await expect(studio).toHaveURL(/\/post\/manage\?published=\d+$/);
  const workId = Number(new URL(studio.url()).searchParams.get('published'));
  const row = studio.locator(`[data-work-id="${workId}"]`);
  await expect(row.getByText('已发布')).toBeVisible({ timeout: 120_000 });

  // The engine's captions arrive without the creator doing anything.
  await expect
    .poll(
      async () => {
        const answer = await request.get(`/api/studio/captions?workId=${workId}`, { headers: { Token: me.token } });
        return (await answer.json()).data?.source ?? null;
      },
      { timeout: 60_000 },
    )
    .toBe('auto');
  await row.getByRole('button', { name: /^编辑/ }).click();
  const dialog = studio.getByRole('dialog', { name: '编辑作品' });
  const list = dialog.getByRole('list', { name: '字幕列表' });
  await expect(dialog.getByText(/自动生成 · 共 2 条/)).toBeVisible({ timeout: 15_000 });
  await expect(list.getByRole('textbox').first()).toHaveValue('自动字幕：引擎听到的第一句话');

  // A file with a cue past the end is refused, naming its line; nothing changes.
  const picker = dialog.getByLabel('替换字幕');
  await picker.setInputFiles(path.join(dir, 'bad.srt'));
  await expect(dialog.getByRole('alert')).toHaveText(/^第 6 行：字幕时间超出了视频长度/);
  await dialog.getByRole('alert').scrollIntoViewIfNeeded();
  await expect(dialog.getByText(/自动生成 · 共 2 条/)).toBeVisible();
  await studio.screenshot({ path: path.join(SHOTS, 'studio-captions-error-1440.png') });

  // The good one replaces them; a cue's text is edited in place.
  await picker.setInputFiles(path.join(dir, 'good.srt'));
  await expect(dialog.getByText(/创作者上传 · 共 2 条/)).toBeVisible();
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  const first = list.getByRole('textbox', { name: /0:00\.1 的字幕/ });
  await expect(first).toHaveValue('海风吹过沙滩');
  await first.fill('海风轻轻吹过沙滩');
  await first.press('Enter');
  await expect(studio.getByText('这条字幕已修改')).toBeVisible();
  await studio.screenshot({ path: path.join(SHOTS, 'studio-captions-1440.png') });
  await dialog.getByRole('button', { name: '取消' }).click();

  // A viewer turns CC on: each cue shows at its time, above the controls, in both themes and on a phone.
  for (const [name, options] of [
    ['light-1440', {}],
    ['dark-1440', { dark: true }],
    ['light-390', { phone: true }],
    ['dark-390', { dark: true, phone: true }],
  ] as const) {
    const viewer = await pageAs(browser, null, options);
    await openWork(viewer, workId);
    const controls = viewer.getByRole('group', { name: '播放控制' });
    if ('phone' in options) await controls.getByRole('button', { name: '更多' }).click();
    const cc = controls.getByRole('switch', { name: '字幕' });
    await expect(cc).toHaveAttribute('aria-checked', 'false');
    await cc.click();
    await expect(cc).toHaveAttribute('aria-checked', 'true');
    await expectCaption(viewer, 0.8, '海风轻轻吹过沙滩');
    await expectCaption(viewer, 2.5, SPOKEN);
    // Drawn above the control bar, not under it.
    const [cue, bar] = await Promise.all([
      viewer.locator('[data-captions-shown]').boundingBox(),
      viewer.locator('.player-bar').first().boundingBox(),
    ]);
    expect(cue!.y + cue!.height).toBeLessThanOrEqual(bar!.y + 40);
    await viewer.screenshot({ path: path.join(SHOTS, `video-captions-${name}.png`) });
    // The choice is remembered on the next page.
    await viewer.reload();
    await openWork(viewer, workId);
    await expectCaption(viewer, 2.5, SPOKEN);
    await viewer.context().close();
  }

  // A line only the captions say finds the work in search.
  const search = await pageAs(browser, null);
  await search.goto(`/search/${encodeURIComponent(SPOKEN)}`);
  await expect(search.locator(`a[href="/video/${workId}"]`).first()).toBeVisible();
  const api = await (await request.get(`/api/aweme/v1/web/aweme/detail/?aweme_id=${workId}`)).json();
  expect(api.aweme_detail.video.caption_infos[0]).toMatchObject({ caption_format: 'webvtt', is_auto_generated: 0 });
  await search.context().close();
  await studio.context().close();
});
