import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** The browser side's tests: stores and islands keep their state in modules, so each file gets a fresh process. */
const CLIENT = [
  'src/stores/**/*.test.ts',
  'src/islands/**/*.test.ts',
  'src/components/**/*.test.ts',
  'src/client/**/*.test.ts',
];

const shared = {
  setupFiles: ['tests/setup/env.ts'],
  pool: 'forks' as const,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // In CI a test that fails is run once more, as the browser tests are: a machine shared by two test files, a build
  // and PostgreSQL can hold a timer or a notification past what a test allows. One that passes on its second run is
  // still named (npm test prints it as flaky), so that it gets fixed rather than forgotten.
  retry: process.env.CI ? 1 : 0,
};

// The server side's tests run against one PostgreSQL per run (tests/setup/global-db.ts): a fresh clone of a seeded
// template per test file. They share their worker processes (no isolation): importing the server's modules afresh for
// every file cost more than the tests themselves. A file points the process-wide database at its own clone
// (`useDb`), which drops what the process kept of the previous file's database (`onDbSwitch`); setupFiles run again
// before each file, so the configuration follows that file's environment.
export default defineConfig({
  test: {
    // Two files at a time at least: Vitest's default on two cores is one, and a server test spends about half its time
    // waiting on a server it started, a timer or PostgreSQL (the whole run took 654 s with one on a two-core machine,
    // 316 s with two).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { ...shared, name: 'client', include: CLIENT } },
      {
        test: {
          ...shared,
          name: 'server',
          include: [
            'src/**/*.test.ts',
            'tests/unit/**/*.test.ts',
            'tests/api/**/*.test.ts',
            'tests/hardening/**/*.test.ts',
            'tests/scale/**/*.test.ts',
          ],
          exclude: [...CLIENT, 'tests/e2e/**', 'node_modules/**', 'dist/**'],
          globalSetup: ['tests/setup/global-db.ts'],
          isolate: false,
        },
      },
    ],
  },
});
