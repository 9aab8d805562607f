/**
 * The Content-Security-Policy allows inline scripts only by the hashes astro.config.mjs computes from
 * src/components/inline/*.js: an inline script written anywhere else, or an event-handler attribute, would be blocked
 * in the browser. This keeps them out at the source.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve('src');

function astroFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return astroFiles(full);
    return entry.name.endsWith('.astro') ? [full] : [];
  });
}

describe('inline scripts', () => {
  const files = astroFiles(SRC).map((file) => ({ file: path.relative(SRC, file), text: readFileSync(file, 'utf8') }));

  it('are all placed from src/components/inline with set:html', () => {
    // A data block (type="application/json") is never run, so the policy does not concern it; it must go through
    // pageDataJson, whose escaping keeps the data from ending the block.
    const dataBlock = (attrs: string) =>
      /\btype="application\/json"/.test(attrs) && /\bset:html=\{pageDataJson\(/.test(attrs);
    const offenders = files.flatMap(({ file, text }) =>
      [...text.matchAll(/<script\b([^>]*)>/g)]
        .filter(
          (m) => /\bis:inline\b|\bdefine:vars\b/.test(m[1]!) && !/\bset:html=\{\w+\}/.test(m[1]!) && !dataBlock(m[1]!),
        )
        .map(() => file),
    );
    expect(offenders).toEqual([]);
    for (const { file, text } of files) {
      for (const m of text.matchAll(/import (\w+) from '([^']+\.js)\?raw';/g)) {
        expect(
          path.resolve(SRC, path.dirname(file), m[2]!).startsWith(path.join(SRC, 'components', 'inline')),
          `${file}: ${m[2]}`,
        ).toBe(true);
      }
    }
  });

  it('never come as event-handler attributes or javascript: links', () => {
    const offenders = files
      .filter(({ text }) => /<[a-z][^>]*\son[a-z]+="/i.test(text) || /href="javascript:/i.test(text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });
});
