/**
 * `npm run settings:readme`: writes the settings table of README.md from src/server/config.ts (each variable, its
 * default and its meaning), between the two `settings` marker comments. tests/unit/settings.test.ts fails while the two
 * differ.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { settingsTable } from '../src/server/config.ts';

export const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'README.md');
export const START = '<!-- settings: made from src/server/config.ts by `npm run settings:readme` -->';
export const END = '<!-- /settings -->';

/** README's text with its settings table replaced by the one the configuration makes. */
export function withSettingsTable(readme: string): string {
  const from = readme.indexOf(START);
  const to = readme.indexOf(END);
  if (from === -1 || to < from) throw new Error(`README.md has no ${START} … ${END} block`);
  return `${readme.slice(0, from + START.length)}\n${settingsTable()}\n${readme.slice(to)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(README, withSettingsTable(readFileSync(README, 'utf8')));
}
