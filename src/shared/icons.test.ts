import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import * as icons from './icons.ts';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const set = createRequire(import.meta.url)('@iconify-json/ri/icons.json') as {
  icons: Record<string, { body: string }>;
};

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(file);
    else if (/\.(astro|tsx?)$/.test(entry.name) && !entry.name.endsWith('.test.ts')) yield file;
  }
}

it('names each icon by its Remix name, and the sprite holds its body as scripts/make-icon-module.mjs writes it', () => {
  const sprite = readFileSync(path.join(SRC, 'shared', 'icons.svg'), 'utf8');
  const symbols = new Map(
    [...sprite.matchAll(/<symbol id="([^"]+)" viewBox="0 0 24 24">(.*?)<\/symbol>/g)].map(([, id, body]) => [id, body]),
  );
  expect(Object.keys(icons).length).toBeGreaterThan(0);
  for (const [id, name] of Object.entries(icons)) {
    expect(name, id).toBe(
      id
        .slice(2)
        .replace(/(?<=.)([A-Z]|\d+)/g, '-$1')
        .toLowerCase(),
    );
    expect(symbols.get(name), id).toBe(set.icons[name]?.body);
  }
  expect([...symbols.keys()].sort()).toEqual(Object.values(icons).sort());
});

it('leaves no UnoCSS icon classes behind: they no longer render', () => {
  const left = [...sources(SRC)].filter((file) => /\bi-ri-[a-z0-9-]+/.test(readFileSync(file, 'utf8')));
  expect(left.map((file) => path.relative(SRC, file))).toEqual([]);
});
