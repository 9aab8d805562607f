/**
 * The editors' content as files (src/content, or another directory of the same layout): read for the seed and
 * `npm run content:import`, written by `npm run content:export`. Formats as they were: channels in YAML, the other data
 * collections as JSON arrays of entries with their `id`, FAQ answers and pages as Markdown with a YAML front matter
 * (the file name is the id).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { CONTENT_COLLECTIONS, MARKDOWN_COLLECTIONS, type ContentCollection } from '../../shared/staff.ts';

/** One entry as stored: its data (checked by its collection's schema) and, for Markdown collections, its body. */
export interface ContentFileEntry {
  collection: ContentCollection;
  id: string;
  data: Record<string, unknown>;
  body: string | null;
}

/** Where each data collection lives in the directory; Markdown collections are folders of `<id>.md`. */
export const CONTENT_FILES: Record<ContentCollection, string> = {
  channels: 'channels.yaml',
  faq: 'faq',
  pages: 'pages',
  downloads: 'downloads.json',
  headerLinks: 'header-links.json',
  footerLinks: 'footer-links.json',
  topupPackages: 'topup-packages.json',
};

const CHANNELS_HEADER = "# Channel metadata shown on /channel/{id}. The seed of the editors' content (see README).\n";

/** CONTENT_DIR, else src/content beside this source, else under the cwd (the built server's chunks sit elsewhere). */
export function contentDir(): string {
  if (process.env.CONTENT_DIR) return path.resolve(process.env.CONTENT_DIR);
  const besideSource = fileURLToPath(new URL('../../content', import.meta.url));
  return existsSync(path.join(besideSource, 'channels.yaml')) ? besideSource : path.resolve('src/content');
}

/** Splits a Markdown file into its YAML front matter and its body. */
export function splitFrontMatter(text: string): { data: Record<string, unknown>; body: string } {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) return { data: {}, body: text };
  const data = parse(match[1]!) as unknown;
  return { data: typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {}, body: match[2]! };
}

/** A Markdown file of front matter and body. */
export function joinFrontMatter(data: Record<string, unknown>, body: string): string {
  return `---\n${stringify(data).trimEnd()}\n---\n${body.endsWith('\n') ? body : `${body}\n`}`;
}

/** Every entry of every collection found under `dir` (a missing file or folder is an empty collection). */
export async function readContentFiles(dir = contentDir()): Promise<ContentFileEntry[]> {
  const found: ContentFileEntry[] = [];
  for (const collection of CONTENT_COLLECTIONS) {
    const where = path.join(dir, CONTENT_FILES[collection]);
    if (!existsSync(where)) continue;
    if (MARKDOWN_COLLECTIONS.includes(collection)) {
      for (const name of (await readdir(where)).filter((n) => n.endsWith('.md')).sort()) {
        const { data, body } = splitFrontMatter(await readFile(path.join(where, name), 'utf8'));
        found.push({ collection, id: name.slice(0, -3), data, body: body.replace(/^\n+/, '') });
      }
      continue;
    }
    const text = await readFile(where, 'utf8');
    const list = (where.endsWith('.yaml') ? parse(text) : JSON.parse(text)) as unknown;
    if (!Array.isArray(list)) throw new Error(`${where}: expected a list of entries`);
    for (const item of list as Record<string, unknown>[]) {
      const { id, ...data } = item;
      found.push({ collection, id: String(id), data, body: null });
    }
  }
  return found;
}

/** Writes `entries` under `dir` in the files' formats, replacing each collection's file or folder. */
export async function writeContentFiles(entries: readonly ContentFileEntry[], dir = contentDir()): Promise<number> {
  await mkdir(dir, { recursive: true });
  for (const collection of CONTENT_COLLECTIONS) {
    const mine = entries.filter((e) => e.collection === collection);
    const where = path.join(dir, CONTENT_FILES[collection]);
    if (MARKDOWN_COLLECTIONS.includes(collection)) {
      await rm(where, { recursive: true, force: true });
      await mkdir(where, { recursive: true });
      for (const e of mine) await writeFile(path.join(where, `${e.id}.md`), joinFrontMatter(e.data, e.body ?? ''));
      continue;
    }
    const list = mine.map((e) => ({ id: e.id, ...e.data }));
    await writeFile(
      where,
      where.endsWith('.yaml') ? `${CHANNELS_HEADER}${stringify(list)}` : `${JSON.stringify(list, null, 2)}\n`,
    );
  }
  return entries.length;
}
