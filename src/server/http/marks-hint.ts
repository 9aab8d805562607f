/**
 * Names, on a shared page's root element, what its member's marks call asks for (src/shared/marks-query.ts): the
 * chrome's script then makes the call as soon as it has loaded, while the rest of the page is still being read, instead
 * of after the whole document (a module script's turn): on a video page that is 100-200 ms after first paint. The
 * targets are read from the rendered HTML as the browser reads them from the page (src/client/marks.ts markTargets),
 * both through targetsFrom: the JSON blocks marked `data-marks`, every element with `data-mark`, the page's
 * `data-marks-series` and `data-marks-visit`.
 */
import { MARKS_QUERY_ATTR, marksQuery, targetsFrom, type MarkTargets } from '../../shared/marks-query.ts';

const JSON_BLOCK = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;
const MARKED = /<[a-zA-Z][\w-]*\s[^>]*\bdata-mark="[^"]*"[^>]*>/g;
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** The marks targets of a page's HTML, in the order the browser finds them. */
export function marksTargetsOf(html: string): MarkTargets {
  const blocks = [...html.matchAll(JSON_BLOCK)]
    .filter(([, attributes = '']) => /\stype="application\/json"/.test(attributes))
    .filter(([, attributes = '']) => /\sdata-marks(?=[\s=>]|$)/.test(attributes))
    .map(([, , text = '']) => text);
  const marked = [...html.matchAll(MARKED)].map(([tag]) => ({
    video: attr(tag, 'data-video'),
    user: attr(tag, 'data-user'),
  }));
  return targetsFrom({
    blocks,
    marked,
    series: attr(html, 'data-marks-series'),
    visit: attr(html, 'data-marks-visit'),
  });
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
  // Every way of naming a target has this in it; most pages that name none are passed over without a read.
  if (!body.includes('data-mark')) return body;
  const html = body.toString('utf8');
  const root = html.indexOf('<html');
  if (root === -1) return body;
  const query = marksQuery(marksTargetsOf(html));
  if (!query) return body;
  const at = root + '<html'.length;
  const named = `${html.slice(0, at)} ${MARKS_QUERY_ATTR}="${escapeAttr(query)}"${html.slice(at)}`;
  return Buffer.from(named.replace(CHROME_SCRIPT, '$1 async$2'));
}
