// `npm run lint`: one of the gates `npm test` runs before the build.
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { defineConfig } from 'eslint/config';

export default defineConfig(
  {
    ignores: [
      'dist/',
      '.astro/',
      'node_modules/',
      'data/',
      'public/',
      'test-results/',
      'playwright-report/',
      '.e2e-data/',
    ],
  },
  {
    files: ['**/*.{js,mjs,ts,tsx}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // Inline head scripts wrap storage access in try/catch and keep the default when it is blocked.
      'no-empty': ['error', { allowEmptyCatch: true }],
      // A leading underscore marks a parameter a signature needs but the body does not.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Benchmarks pass functions to page.evaluate, which run in the browser.
    files: ['bench/**/*.mjs'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // src/components/inline/*.js are inline page scripts, allowed by their hashes (astro.config.mjs).
    files: ['src/**/*.{js,ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/**/*.tsx'],
    extends: [reactHooks.configs.flat.recommended],
    plugins: { 'jsx-a11y': jsxA11y },
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // React Compiler diagnostics: the islands are not compiled by it, and these flag idioms used on purpose
      // (a hydrated flag set in an effect, a ref holding the latest state, media elements mutated in effects).
      'react-hooks/set-state-in-effect': 'off',
      'react-hooks/refs': 'off',
      'react-hooks/immutability': 'off',
      'react-hooks/purity': 'off',
    },
  },
  {
    files: ['tests/**/*.ts'],
    // API tests read fields off answers that ok() has already checked against the route's zod schema.
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Settings are read and checked in one module (src/server/config.ts); everything else calls config().
    files: ['src/**/*.{js,ts,tsx,astro}', 'server.ts', 'worker.ts'],
    ignores: ['src/server/config.ts', 'src/**/*.test.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read settings through config() (src/server/config.ts).' },
      ],
    },
  },
  ...astro.configs.recommended,
  // The plugin's a11y block has no `files`: keep it to .astro (the .tsx block above has its own).
  ...astro.configs['jsx-a11y-recommended'].map((c) => (c.files || !c.rules ? c : { ...c, files: ['**/*.astro'] })),
  {
    files: ['**/*.astro'],
    rules: {
      // A region that scrolls (a wide table on a phone) takes the focus so a keyboard can scroll it: role="region",
      // a name and tabindex="0", as axe's scrollable-region-focusable asks.
      'astro/jsx-a11y/no-noninteractive-tabindex': [
        'error',
        { tags: [], roles: ['tabpanel', 'region'], allowExpressionValues: true },
      ],
    },
  },
);
