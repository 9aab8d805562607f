/**
 * `npm run test:cluster`: builds when needed, then runs tests/cluster with Playwright (playwright.cluster.config.ts:
 * its globalSetup starts the cluster of `npm run cluster` and stops it at the end), and closes with one line
 * `N passed, N failed` (also written to .test-summary-cluster.json for .ci/run).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfNeeded } from './build-if-needed.mjs';
import { unexpectedTests } from './test-report.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPORT = path.join(ROOT, 'test-results', 'cluster.json');
const SUMMARY = path.join(ROOT, '.test-summary-cluster.json');

buildIfNeeded();
mkdirSync(path.dirname(REPORT), { recursive: true });
rmSync(REPORT, { force: true });
const started = performance.now();
const child = spawnSync(
  process.execPath,
  [
    path.join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js'),
    'test',
    '-c',
    'playwright.cluster.config.ts',
    ...process.argv.slice(2),
  ],
  { cwd: ROOT, stdio: 'inherit', env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: REPORT } },
);
const status = child.status ?? 1;

let report;
try {
  report = JSON.parse(readFileSync(REPORT, 'utf8'));
} catch {
  report = undefined;
}
const stats = report?.stats ?? {};
const summary = {
  passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
  failed: report ? (stats.unexpected ?? 0) + (report.errors ?? []).length : 1,
  skipped: stats.skipped ?? 0,
  seconds: Math.round((performance.now() - started) / 1000),
  failures: unexpectedTests(report?.suites ?? []).map((failure) => `cluster: ${failure}`),
};
// A non-zero exit with nothing counted as failed (the cluster did not start) is still a failure.
if (status !== 0 && summary.failed === 0) summary.failed = 1;
writeFileSync(SUMMARY, `${JSON.stringify(summary, null, 2)}\n`);
for (const failure of summary.failures) console.log(`✘ ${failure}`);
console.log(`cluster: ${summary.seconds} s`);
console.log(
  `${summary.passed} passed, ${summary.failed} failed${summary.skipped ? `, ${summary.skipped} skipped` : ''}`,
);
process.exit(summary.failed > 0 ? 1 : 0);
