/**
 * Two app servers on one PostgreSQL: a second `node server.ts` on the e2e server's database, a page connected to it,
 * and a message sent through the first. LISTEN/NOTIFY carries the event between the processes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, e2eDatabaseUrl, newAccount, signIn } from './support.ts';

let second: ChildProcess | undefined;
let dataDir: string;

test.afterAll(async () => {
  if (second && second.exitCode === null) {
    const exited = new Promise((resolve) => second!.once('exit', resolve));
    second.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('a message sent through one server arrives live on a page served by another', async ({
  browser,
  playwright,
}, info) => {
  test.setTimeout(90_000);
  const url = e2eDatabaseUrl();
  expect(url, 'the e2e server runs on its embedded PostgreSQL').toBeTruthy();
  const first = info.project.use.baseURL!;
  const port = Number(new URL(first).port) + 7;
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'sy-second-'));
  second = spawn(process.execPath, ['server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: url!,
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
  const secondUrl = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (await fetch(`${secondUrl}/readyz`).catch(() => null))?.status ?? 0, {
      timeout: 60_000,
      message: stderr,
    })
    .toBe(200);

  const api = await playwright.request.newContext({ baseURL: first });
  const sender = await newAccount(api, 'two-a');
  const receiver = await newAccount(api, 'two-b');

  // The receiver's page comes from the second server, and so does its event stream.
  const context = await browser.newContext({ baseURL: secondUrl });
  await signIn(context, receiver);
  const page = await context.newPage();
  await page.goto(`${secondUrl}/discover`);
  const entry = page.getByRole('navigation', { name: '快捷入口' }).getByRole('button', { name: /^私信/ });
  await entry.click();
  await expect(page.locator('#pop-message').getByText('暂无私信')).toBeVisible();

  const sent = await api.post('/api/aweme/v1/web/im/message/send/', {
    headers: { token: sender.token },
    form: { sec_user_id: receiver.user.sec_uid, text: '从第一台服务器发来' },
  });
  expect(sent.status()).toBe(200);
  await expect(page.locator('#pop-message').getByText('从第一台服务器发来')).toBeVisible({ timeout: 2_000 });
  await expect(entry.locator('[data-badge="message"]')).toContainText('1');
  await context.close();
  await api.dispose();
});
