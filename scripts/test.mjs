/**
 * `npm test`: unit tests (Vitest), the gates (astro check, tsc, ESLint, the restore drills; each counts as one test), a
 * fresh build, then the browser tests (Playwright), and one closing line `N passed, N failed` for all of them (also
 * written to .test-summary.json for .ci/run). `npm test -- --unit-only` runs only Vitest's server project (the second
 * pass against an external PostgreSQL; the gates and the browser-side unit tests do not use it, so they run once, in
 * the full run: the drills start servers of their own).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unexpectedTests } from './test-report.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RESULTS = path.join(ROOT, 'test-results');
const VITEST_JSON = path.join(RESULTS, 'vitest.json');
const PLAYWRIGHT_JSON = path.join(RESULTS, 'playwright.json');
const SUMMARY = path.join(ROOT, '.test-summary.json');
const bin = (pkg, file) => path.join(ROOT, 'node_modules', pkg, file);

const args = process.argv.slice(2);
const unitOnly = args.includes('--unit-only');
const unknown = args.filter((a) => a !== '--unit-only');
if (unknown.length > 0) {
  console.error(`unknown option(s): ${unknown.join(' ')} (only --unit-only is understood)`);
  process.exit(2);
}

/** Runs a Node CLI with this same Node, output to the console; returns its exit status. */
function run(label, script, scriptArgs, env = {}) {
  console.log(`\n▶ ${label}`);
  const started = performance.now();
  const child = spawnSync(process.execPath, [script, ...scriptArgs], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (child.error) console.error(child.error.message);
  console.log(`■ ${label}: exit ${child.status ?? 1} after ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return child.status ?? 1;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Counts from Vitest's JSON report; a file that failed to load counts as one failure. */
function vitestCounts(status) {
  const report = readJson(VITEST_JSON);
  if (!report) return { name: 'vitest', passed: 0, failed: 1, skipped: 0, status, note: 'no JSON report' };
  const brokenFiles = (report.testResults ?? []).filter(
    (file) => file.status === 'failed' && !(file.assertionResults ?? []).some((t) => t.status === 'failed'),
  ).length;
  const counts = {
    name: 'vitest',
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + brokenFiles,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    status,
    failures: (report.testResults ?? []).flatMap((file) => {
      const where = path.relative(ROOT, file.name ?? '');
      const failedTests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      if (file.status === 'failed' && failedTests.length === 0)
        return [`${where}: ${String(file.message ?? 'failed to load').split('\n')[0]}`];
      return failedTests.map((t) => `${where} › ${t.fullName ?? t.title}`);
    }),
  };
  // A non-zero exit with nothing failed (an unhandled error between tests) is still a failure.
  if (status !== 0 && counts.failed === 0) counts.failed = 1;
  // Passed on a retry (CI runs a failed test once more): counted as passed, and named.
  counts.flaky = (report.testResults ?? []).flatMap((file) =>
    (file.assertionResults ?? [])
      .filter((t) => t.status === 'passed' && (t.failureMessages ?? []).length > 0)
      .map((t) => `${path.relative(ROOT, file.name ?? '')} › ${t.fullName ?? t.title}`),
  );
  return counts;
}

/** Counts from Playwright's JSON report; flaky (passed on retry) counts as passed, global errors as failures. */
function playwrightCounts(status) {
  const report = readJson(PLAYWRIGHT_JSON);
  if (!report) return { name: 'playwright', passed: 0, failed: 1, skipped: 0, status, note: 'no JSON report' };
  const stats = report.stats ?? {};
  const counts = {
    name: 'playwright',
    passed: (stats.expected ?? 0) + (stats.flaky ?? 0),
    failed: (stats.unexpected ?? 0) + (report.errors ?? []).length,
    skipped: stats.skipped ?? 0,
    status,
    failures: [
      ...unexpectedTests(report.suites ?? []),
      ...(report.errors ?? []).map((e) => `error: ${String(e.message ?? e).split('\n')[0]}`),
    ],
  };
  if (status !== 0 && counts.failed === 0) counts.failed = 1;
  return counts;
}

/**
 * Runs one gate and then echoes its output in one piece (gates run side by side); it passes on exit 0 and, when
 * `mustPrint` is given, only if the output matches it (astro check without @astrojs/check exits 0 having checked
 * nothing).
 */
function gate(name, script, scriptArgs, mustPrint) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...scriptArgs], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let spawnError = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (error) => (spawnError = error.message));
    child.on('close', (code) => {
      const status = code ?? 1;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const silent = status === 0 && mustPrint !== undefined && !mustPrint.test(out);
      const ok = status === 0 && !silent;
      console.log(`\n▶ Gate: ${name}`);
      process.stdout.write(out);
      if (spawnError) console.error(spawnError);
      console.log(`${ok ? '✓' : '✗'} ${name} (${seconds} s)`);
      const note = silent ? `exited ${status} without printing ${mustPrint}` : undefined;
      resolve({
        name,
        passed: ok ? 1 : 0,
        failed: ok ? 0 : 1,
        skipped: 0,
        status,
        seconds: Number(seconds),
        failures: ok ? [] : [note ?? `exited ${status}`],
        ...(note ? { note } : {}),
      });
    });
  });
}

/** Runs `jobs` (functions returning promises) `width` at a time; the results keep the jobs' order. */
async function sideBySide(jobs, width) {
  const results = new Array(jobs.length);
  let next = 0;
  const lane = async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, jobs.length) }, lane));
  return results;
}

const parts = [];

if (!unitOnly) {
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    console.error(
      `Chromium is missing at ${chromium}: the browser tests need it.\n` +
        `Install it with: sudo apt-get install -y chromium fonts-noto-cjk\n` +
        `(or point CHROMIUM_PATH at a Chromium binary).`,
    );
    writeFileSync(
      SUMMARY,
      `${JSON.stringify({ passed: 0, failed: 1, skipped: 0, parts: [], error: 'chromium missing' }, null, 2)}\n`,
    );
    console.log('0 passed, 1 failed');
    process.exit(1);
  }
}

mkdirSync(RESULTS, { recursive: true });
rmSync(VITEST_JSON, { force: true });
rmSync(PLAYWRIGHT_JSON, { force: true });
// A fresh build for the browser tests: made by Vitest's global setup (tests/setup/build.ts builds when dist/ holds
// none), which the server-starting unit tests need first anyway, rather than a second time after them.
if (!unitOnly) rmSync(path.join(ROOT, 'dist'), { recursive: true, force: true });

const vitestStatus = run('Unit tests (Vitest)', bin('vitest', 'vitest.mjs'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${VITEST_JSON}`,
  ...(unitOnly ? ['--project', 'server'] : []),
]);
parts.push(vitestCounts(vitestStatus));

if (!unitOnly) {
  // The same commands as `npm run check`, `npm run typecheck`, `npm run lint`, `npm run format:check`,
  // `npm run graph` and `npm run test:backup`, read from package.json.
  const scripts = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
  const argsOf = (script) => scripts[script].split(/\s+/).slice(1);
  // Two at a time: each is mostly one thread, and astro check alone takes as long as the next three.
  const gatesStarted = performance.now();
  parts.push(
    ...(await sideBySide(
      [
        () => gate('npm run check', bin('astro', 'bin/astro.mjs'), argsOf('check'), /\b0 errors\b/),
        () => gate('npm run typecheck', bin('typescript', 'bin/tsc'), argsOf('typecheck')),
        () => gate('npm run lint', bin('eslint', 'bin/eslint.js'), argsOf('lint')),
        () => gate('npm run format:check', bin('prettier', 'bin/prettier.cjs'), argsOf('format:check')),
        () => gate('npm run graph', path.join(ROOT, argsOf('graph')[0]), []),
        // The restore drills start their own PostgreSQL servers (Debian's with pgBackRest, and the embedded one).
        () => gate('npm run test:backup', path.join(ROOT, argsOf('test:backup')[0]), [], /\b2 passed, 0 failed\b/),
      ],
      2,
    )),
  );
  console.log(`■ Gates: ${((performance.now() - gatesStarted) / 1000).toFixed(1)} s`);

  const built = existsSync(path.join(ROOT, 'dist', 'server', 'entry.mjs'));
  const buildStatus = built ? 0 : run('Build (astro build)', bin('astro', 'bin/astro.mjs'), ['build']);
  if (built) console.log("\n▶ Build: made by the unit tests' global setup in this run");
  if (buildStatus !== 0) {
    parts.push({
      name: 'build',
      passed: 0,
      failed: 1,
      skipped: 0,
      status: buildStatus,
      note: 'astro build failed; browser tests not run',
      failures: ['astro build failed'],
    });
  } else {
    const pwStatus = run('Browser tests (Playwright)', bin('@playwright/test', 'cli.js'), ['test'], {
      PLAYWRIGHT_JSON_OUTPUT_FILE: PLAYWRIGHT_JSON,
    });
    parts.push(playwrightCounts(pwStatus));
  }
}

const total = (key) => parts.reduce((sum, part) => sum + part[key], 0);
const failures = parts.flatMap((part) => (part.failures ?? []).map((failure) => `${part.name}: ${failure}`));
const summary = {
  passed: total('passed'),
  failed: total('failed'),
  skipped: total('skipped'),
  unitOnly,
  failures,
  parts,
};
writeFileSync(SUMMARY, `${JSON.stringify(summary, null, 2)}\n`);

for (const part of parts) {
  if (part.note) console.error(`${part.name}: ${part.note}`);
}
for (const part of parts) for (const test of part.flaky ?? []) console.log(`flaky (passed on its retry): ${test}`);
for (const failure of failures) console.log(`✘ ${failure}`);
console.log(
  `${summary.passed} passed, ${summary.failed} failed${summary.skipped ? `, ${summary.skipped} skipped` : ''}`,
);
process.exit(summary.failed > 0 ? 1 : 0);
