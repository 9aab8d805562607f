/**
 * The configuration module is the only reader of the environment, and README's settings table is made from it: a new
 * `process.env` read anywhere else in the server, or a setting added without its row, fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { END, README, START, withSettingsTable } from '../../scripts/settings-readme.ts';
import { SETTING_NAMES } from '../../src/server/config.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE = /\.(ts|tsx|mts|js|mjs|astro)$/;
/** `process.env`, `process['env']` and a destructured `{ env } = process`. */
const READS = /\bprocess\s*(\.\s*env\b|\[\s*['"`]env['"`]\s*\])|\{[^}]*\benv\b[^}]*\}\s*=\s*process\b/;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? walk(full) : SOURCE.test(entry.name) ? [full] : [];
  });
}

/** `file:line` of every environment read in the server's code outside the configuration module and the tests. */
export function environmentReads(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const rel = path.relative(ROOT, file).split(path.sep).join('/');
    if (rel === 'src/server/config.ts' || /\.test\.tsx?$/.test(rel)) continue;
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (READS.test(line)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe('the environment', () => {
  it('is read by src/server/config.ts alone', () => {
    const files = [...walk(path.join(ROOT, 'src')), path.join(ROOT, 'server.ts'), path.join(ROOT, 'worker.ts')];
    expect(files.length).toBeGreaterThan(100);
    expect(environmentReads(files)).toEqual([]);
  });

  it('finds a read however it is written', () => {
    expect(READS.test('const port = process.env.PORT;')).toBe(true);
    expect(READS.test("const port = process['env'].PORT;")).toBe(true);
    expect(READS.test('const { env } = process;')).toBe(true);
    expect(READS.test('const env = config();')).toBe(false);
  });
});

describe("README's settings table", () => {
  it('is the one src/server/config.ts makes (npm run settings:readme writes it)', () => {
    const readme = readFileSync(README, 'utf8');
    expect(readme).toContain(START);
    expect(readme).toContain(END);
    expect(readme).toBe(withSettingsTable(readme));
  });
});

describe('.env.example', () => {
  it('names only settings the configuration reads', () => {
    const text = readFileSync(path.join(ROOT, '.env.example'), 'utf8');
    const named = [...text.matchAll(/^#\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((name) => !(SETTING_NAMES as string[]).includes(name))).toEqual([]);
  });
});
