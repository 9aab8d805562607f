/**
 * `npm run test:cluster`: the browser and HTTP flows of tests/cluster against the cluster of `npm run cluster`
 * (HAProxy, two app servers, PostgreSQL primary and streaming replica, PgBouncer, an S3 store, the worker), which
 * globalSetup starts under CLUSTER_DIR and stops at the end. Every request goes through HAProxy on E2E_PORT.
 */
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { chromiumProject } from './tests/chromium.ts';

const PORT = Number(process.env.E2E_PORT ?? 4339);
const CLUSTER_DIR = path.resolve(process.env.CLUSTER_DIR ?? '.cluster/test');
process.env.CLUSTER_DIR = CLUSTER_DIR;
process.env.CLUSTER_PORT = String(PORT);
// The shared helpers (tests/e2e/support.ts) read login codes from the outbox of the app servers' one DATA_DIR.
process.env.E2E_DATA_DIR = path.join(CLUSTER_DIR, 'data');

export default defineConfig({
  testDir: 'tests/cluster',
  outputDir: 'test-results/cluster',
  globalSetup: './tests/cluster/global-setup.ts',
  // One cluster, and tests that kill its parts: one test at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 5_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/cluster.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    headless: true,
    // Recording a trace (a screencast and a DOM snapshot at every step) costs a run half again as long on two cores:
    // under CI only a retry records one, so a test that fails twice leaves the trace of its second failure.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [chromiumProject],
});
