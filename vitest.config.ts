import { defineConfig } from 'vitest/config';

// Unit tests run against one PostgreSQL per run (tests/setup/global-db.ts): a fresh clone of a seeded template per test file.
export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'tests/unit/**/*.test.ts',
      'tests/api/**/*.test.ts',
      'tests/hardening/**/*.test.ts',
      'tests/scale/**/*.test.ts',
    ],
    exclude: ['tests/e2e/**', 'node_modules/**', 'dist/**'],
    globalSetup: ['tests/setup/global-db.ts'],
    setupFiles: ['tests/setup/env.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
