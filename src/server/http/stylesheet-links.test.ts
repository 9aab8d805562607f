import { describe, expect, it } from 'vitest';
import { rewriteHead, withStylesheetPreloads } from './stylesheet-links.ts';

const HEAD =
  '<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>推荐 - 闪映</title><script>theme()</script>' +
  '<link rel="stylesheet" href="/_astro/page-ssr.AAA.css"><link rel="stylesheet" href="/_astro/Shell.BBB.css">' +
  '<script type="module" src="/_astro/page.CCC.js"></script>';
/** Stands in for the page layer's loader script (src/components/inline/stylesheets.js). */
const LOADER = 'for(const l of document.querySelectorAll("link[rel=preload][as=style]"))l.blocking="render"';
const BODY = '<body><script>blocking()</script><video src="/media/a.mp4"></video>闪映</body></html>';

async function collect(chunks: Uint8Array[]): Promise<string> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  const parts: Uint8Array[] = [];
  for await (const part of withStylesheetPreloads(source, LOADER)) parts.push(part);
  return Buffer.concat(parts).toString('utf8');
}

describe('stylesheet preloads', () => {
  it('turns the build’s stylesheet links into preloads, applied by the inline script', () => {
    const head = rewriteHead(HEAD, LOADER);
    expect(head).toContain(
      '<link rel=preload as=style href=/_astro/page-ssr.AAA.css><link rel=preload as=style href=/_astro/Shell.BBB.css>',
    );
    expect(head).toMatch(/<script>[\s\S]*blocking[\s\S]*<\/script>$/);
    // No stylesheet link is left for the parser to wait on.
    expect(head).not.toContain('rel="stylesheet"');
  });

  it('leaves a head without the build’s stylesheets as it is', () => {
    const head = '<head><title>x</title><link rel="stylesheet" href="https://elsewhere.example/a.css">';
    expect(rewriteHead(head, LOADER)).toBe(head);
  });

  it('rewrites the streamed head however the page is cut into chunks, and passes the body through byte for byte', async () => {
    const page = new TextEncoder().encode(`${HEAD}</head>${BODY}`);
    const expected = `${rewriteHead(HEAD, LOADER)}</head>${BODY}`;
    // Every cut: inside "</head>", inside a three-byte character of the title or of the body, one byte a chunk.
    for (const cut of [1, HEAD.length - 3, page.length - 10, page.length - 6]) {
      expect(await collect([page.subarray(0, cut), page.subarray(cut)])).toBe(expected);
    }
    expect(await collect([...page].map((byte) => Uint8Array.of(byte)))).toBe(expected);
  });

  it('passes a page without </head> through unchanged', async () => {
    const text = '{"not":"a page"}';
    expect(await collect([new TextEncoder().encode(text)])).toBe(text);
  });
});
