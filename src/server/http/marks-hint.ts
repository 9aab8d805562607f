/**
 * Names, on a shared page's root element, what its member's marks call asks for (src/shared/marks-query.ts): the
 * chrome's script then makes the call as soon as it has loaded, while the rest of the page is still being read, instead
 * of after the whole document (a module script's turn): on a video page that is 100-200 ms after first paint. The
 * targets are read from the rendered HTML the way the browser reads them from the page (src/client/marks.ts
 * markTargets): the JSON blocks marked `data-marks` (their `items` or `item`, each with its author), then every element
 * with `data-mark` (its `data-video` and `data-user` lists), the page's `data-marks-series` and `data-marks-visit`.
 */
import { MARKS_QUERY_ATTR, marksQuery, type MarkTargets } from '../../shared/marks-query.ts';

const JSON_BLOCK = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;
const MARKED = /<[a-zA-Z][\w-]*\s[^>]*\bdata-mark="[^"]*"[^>]*>/g;
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

interface Shown {
  id?: string | number;
  author?: { secUid?: string };
}

/** The marks targets of a page's HTML, in the order the browser finds them. */
export function marksTargetsOf(html: string): MarkTargets {
  const videos = new Set<string>();
  const users = new Set<string>();
  const list = (value: string | undefined, into: Set<string>) => {
    for (const v of (value ?? '').split(',')) if (v.trim()) into.add(v.trim());
  };
  for (const [, attributes = '', text = ''] of html.matchAll(JSON_BLOCK)) {
    if (!/\stype="application\/json"/.test(attributes) || !/\sdata-marks(?=[\s=>]|$)/.test(attributes)) continue;
    try {
      const data = JSON.parse(text) as { items?: Shown[]; item?: Shown } | null;
      for (const v of [...(data?.items ?? []), ...(data?.item ? [data.item] : [])]) {
        if (v.id !== undefined) videos.add(String(v.id));
        if (v.author?.secUid) users.add(v.author.secUid);
      }
    } catch {
      // As in the browser: a block that does not parse names nothing.
    }
  }
  for (const [tag] of html.matchAll(MARKED)) {
    list(attr(tag, 'data-video'), videos);
    list(attr(tag, 'data-user'), users);
  }
  const series = attr(html, 'data-marks-series');
  const visit = attr(html, 'data-marks-visit');
  return { videos: [...videos], users: [...users], ...(series ? { series } : {}), ...(visit ? { visit } : {}) };
}

const escapeAttr = (value: string) => value.replaceAll('&', '&amp;').replaceAll('"', '&quot;');

/**
 * The chrome's script (src/components/chrome/ChromeRuntime.astro, built as one file that imports nothing), which a
 * named page lets run as soon as it has loaded rather than once the whole page has been read, as a module script
 * otherwise does: it starts the marks call, draws the answer on what has been read, and wires the rest of the chrome
 * once the page is complete (src/client/chrome/main.ts).
 */
const CHROME_SCRIPT = /(<script type="module")( src="\/_astro\/ChromeRuntime\.[\w.-]+\.js"><\/script>)/;

/**
 * `body` (a rendered page) with its marks query on its <html> element and the chrome's script `async`; a page that
 * names no target is left as it is.
 */
export function withMarksHint(body: Buffer): Buffer {
  const html = body.toString('utf8');
  const root = html.indexOf('<html');
  if (root === -1) return body;
  const query = marksQuery(marksTargetsOf(html));
  if (!query) return body;
  const at = root + '<html'.length;
  const named = `${html.slice(0, at)} ${MARKS_QUERY_ATTR}="${escapeAttr(query)}"${html.slice(at)}`;
  return Buffer.from(named.replace(CHROME_SCRIPT, '$1 async$2'));
}
