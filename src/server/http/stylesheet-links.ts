/**
 * A page's stylesheets (files under /_astro/, kept by the browser) as preloads that a small inline script in <head>
 * (src/components/inline/stylesheets.js) turns into render-blocking stylesheets. As the links Astro writes, each would
 * also block every inline script after it in the page (the island runtime, the sidebar's default-page check), and with
 * them the parser: a cold visit of the feed reached its <video> only once the stylesheets had come, and began fetching
 * the video that much later. Only the <head> is rewritten; the rest of the page streams through as it comes.
 * The script's text is the page layer's (src/middleware.ts passes it in), so the server imports no UI code.
 */

const HEAD_END = new TextEncoder().encode('</head>');
const STYLESHEET = /<link rel="stylesheet" href="(\/_astro\/[\w.-]+\.css)">/g;

/** `head` (up to, not including, `</head>`) with its stylesheet links as preloads and `loaderScript`, which applies them. */
export function rewriteHead(head: string, loaderScript: string): string {
  const hrefs: string[] = [];
  const rewritten = head.replace(STYLESHEET, (_, href: string) => {
    hrefs.push(href);
    // Unquoted: the href is a path of the build's (no space, quote or >), and the bytes count against every page.
    return `<link rel=preload as=style href=${href}>`;
  });
  // No <noscript> copy of the links: every page needs scripts (its islands) anyway, and the copies cost each page
  // 50-60 bytes a stylesheet against its HTML budget.
  return hrefs.length === 0 ? head : `${rewritten}<script>${loaderScript}</script>`;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** The HTML stream `body` with its <head> rewritten by rewriteHead; a page without </head> passes through as it is. */
export function withStylesheetPreloads(
  body: ReadableStream<Uint8Array>,
  loaderScript: string,
): ReadableStream<Uint8Array> {
  let pending: Uint8Array | null = new Uint8Array(0);
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (pending === null) return controller.enqueue(chunk);
        const joined = new Uint8Array(pending.length + chunk.length);
        joined.set(pending);
        joined.set(chunk, pending.length);
        const end = indexOf(joined, HEAD_END);
        if (end === -1) {
          pending = joined;
          return;
        }
        pending = null;
        const head = new TextDecoder().decode(joined.subarray(0, end));
        controller.enqueue(new TextEncoder().encode(rewriteHead(head, loaderScript)));
        controller.enqueue(joined.subarray(end));
      },
      flush(controller) {
        if (pending?.length) controller.enqueue(pending);
      },
    }),
  );
}
