import { rmSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumProject } from './tests/chromium.ts';

// E2E_PORT lets two runs (say, CI in a clone and a developer) share a machine.
const PORT = Number(process.env.E2E_PORT ?? 4329);
const BASE_URL = `http://127.0.0.1:${PORT}`;
const DATA_DIR = path.resolve(process.env.E2E_DATA_DIR ?? '.e2e-data');

// The runner loads this file once, then each worker loads it again: only the runner starts afresh.
if (!process.env.TEST_WORKER_INDEX) {
  rmSync(DATA_DIR, { recursive: true, force: true });
  // The browser tests cover the default set-up, the embedded database (the webServer inherits this env).
  delete process.env.DATABASE_URL;
}

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results/playwright',
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  // Under CI two browsers share two cores with the server and PostgreSQL, and a step that takes a second here can take
  // several there: a test that waits for the state it needs gets twice the time, and one that hangs still ends.
  timeout: process.env.CI ? 60_000 : 30_000,
  expect: { timeout: process.env.CI ? 10_000 : 5_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    baseURL: BASE_URL,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    headless: true,
    // Recording a trace (a screencast and a DOM snapshot at every step) costs a run half again as long on two cores:
    // under CI only a retry records one, so a test that fails twice leaves the trace of its second failure.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [chromiumProject],
  webServer: {
    command: `"${process.execPath}" server.ts`,
    url: `${BASE_URL}/readyz`,
    // Every spec logs in from 127.0.0.1: per-IP login limits scale up here; the limits themselves are unit-tested.
    // The caption engine is a stand-in script that "hears" two lines in any audio (tests/fixtures).
    // RTMP ingest beside it, in the run's own port range (the live tests read the address from the studio).
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR,
      RATE_LIMIT_IP_FACTOR: '100',
      // The specs' API clients (Node's http, unlike a browser) do not send a request again when the server closed its
      // idle keep-alive socket just as they reused it: on a busy machine that race was an ECONNRESET now and then. An
      // idle socket is kept a minute here, as a proxy in front of the server would keep its own.
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '60000',
      CAPTION_ENGINE: `${process.execPath} ${path.resolve('tests/fixtures/fake-caption-engine.mjs')}`,
      RTMP_PORT: process.env.E2E_RTMP_PORT ?? String(PORT + 50),
    },
    timeout: 120_000,
    reuseExistingServer: false,
    // SIGTERM to the process group: server.ts drains and stops PostgreSQL; postgres itself only starts a smart shutdown.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
