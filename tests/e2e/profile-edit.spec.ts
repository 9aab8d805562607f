import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, newAccount, signIn, test, type Session } from './support.ts';

// The dialog's look is checked by eye from these (1440x900 and 390x844, light and dark).
const SHOTS = path.resolve('test-results', 'profile-edit');

test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let editor: Session & { email: string };

test.beforeAll(async ({ playwright }, info) => {
  api = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
  editor = await newAccount(api, 'editor');
  mkdirSync(SHOTS, { recursive: true });
});

test.afterAll(async () => {
  await api.dispose();
});

const picture = async (width: number, height: number, colour: string) => ({
  name: 'me.png',
  mimeType: 'image/png',
  buffer: await sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer(),
});

async function openDialog(page: Page) {
  await page.goto('/user/self');
  await page.getByRole('main').getByRole('button', { name: '编辑资料' }).click();
  const dialog = page.getByRole('dialog', { name: '编辑资料' });
  await expect(dialog.getByLabel('昵称')).toBeVisible();
  return dialog;
}

test('a user edits nickname, bio and avatar; another visitor sees them at once', async ({ browser }) => {
  const mine = await browser.newContext();
  await signIn(mine, editor);
  const page = await mine.newPage();
  const dialog = await openDialog(page);
  // Focus moves into the modal dialog.
  await expect.poll(() => page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);

  await dialog.getByLabel('昵称').fill('改过名的小明');
  await dialog.getByLabel('简介').fill('第一行简介\n第二行');
  await dialog.getByLabel('更换头像').setInputFiles(await picture(640, 480, '#2a9d8f'));
  await dialog.getByLabel('更换背景图').setInputFiles(await picture(1200, 600, '#e76f51'));
  await dialog.getByText('女', { exact: true }).click();
  await dialog.getByLabel('生日').fill('1995-08-15');
  await expect(dialog.getByText('6/20')).toBeVisible();
  await dialog.getByRole('button', { name: '保存' }).click();

  // The page reloads as everyone now sees it.
  await expect(page.getByRole('heading', { level: 1, name: '改过名的小明' })).toBeVisible();
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(page.getByText('第一行简介')).toBeVisible();
  await expect(page.getByText('女', { exact: true })).toBeVisible();
  await mine.close();

  const other = await browser.newContext();
  const visitor = await other.newPage();
  await visitor.goto(`/user/${editor.user.sec_uid}`);
  await expect(visitor.getByRole('heading', { level: 1, name: '改过名的小明' })).toBeVisible();
  const avatar = visitor.locator('header img[src*="/media/profiles/"][src*="avatar-"]');
  await expect(avatar).toHaveCount(1);
  const src = await avatar.getAttribute('src');
  const file = await visitor.request.get(src!);
  expect(file.headers()['content-type']).toBe('image/webp');
  const meta = await sharp(await file.body()).metadata();
  expect([meta.width, meta.height]).toEqual([512, 512]);
  await expect(visitor.locator('header img[src*="/media/profiles/"][src*="cover-"]')).toHaveCount(1);
  await other.close();
});

test('the dialog says what is wrong, from its own checks and from the server', async ({ browser }) => {
  const context = await browser.newContext();
  await signIn(context, editor);
  const page = await context.newPage();
  const dialog = await openDialog(page);

  await dialog.getByLabel('昵称').fill('   ');
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('昵称不能为空');
  await expect(dialog.getByLabel('昵称')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('昵称')).toBeFocused();

  await dialog.getByLabel('昵称').fill('改过名的小明');
  // A text file named like a picture: refused by its content on the server.
  await dialog.getByLabel('更换头像').setInputFiles({
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: Buffer.from('just some text, not a picture\n'.repeat(8)),
  });
  await dialog.getByRole('button', { name: '保存' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('头像需为 JPG、PNG 或 WebP 图片');

  // Esc closes the dialog and gives focus back to its button.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('main').getByRole('button', { name: '编辑资料' })).toBeFocused();
  await context.close();
});

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  for (const theme of ['light', 'dark'] as const) {
    test(`the dialog at ${width}x${height}, ${theme}`, async ({ browser }) => {
      const context = await browser.newContext({ viewport: { width, height } });
      await signIn(context, editor);
      await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
      const page = await context.newPage();
      await page.goto('/user/self');
      await page.screenshot({ path: path.join(SHOTS, `profile-${width}-${theme}.png`) });
      const dialog = await openDialog(page);
      await expect(dialog.getByRole('button', { name: '保存' })).toBeVisible();
      // The dialog fits the screen; nothing scrolls sideways.
      const box = (await dialog.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.screenshot({ path: path.join(SHOTS, `dialog-${width}-${theme}.png`) });
      await context.close();
    });
  }
}
