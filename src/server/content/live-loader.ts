/**
 * The live loader of the editors' collections (src/live.config.ts): pages read entries at request time from the
 * database through Astro's live content collections, Markdown bodies rendered as HTML, checked by the collection's
 * schema on the way (content/schemas.ts).
 */
import type { LiveLoader } from 'astro/loaders';
import { MARKDOWN_COLLECTIONS, type ContentCollection } from '../../shared/staff.ts';
import { entryHtml, getEntry, listEntries, type ContentEntry } from './store.ts';

async function live(collection: ContentCollection, entry: ContentEntry) {
  return {
    id: entry.id,
    data: entry.data,
    ...(MARKDOWN_COLLECTIONS.includes(collection) ? { rendered: { html: await entryHtml(collection, entry) } } : {}),
    cacheHint: { lastModified: entry.updatedAt, tags: [`${collection}:${entry.id}`] },
  };
}

/** The loader of one collection. */
export function contentLoader(collection: ContentCollection): LiveLoader {
  return {
    name: `shanying-content:${collection}`,
    loadCollection: async () => ({
      entries: await Promise.all((await listEntries(collection)).map((e) => live(collection, e))),
    }),
    loadEntry: async ({ filter }) => {
      const entry = await getEntry(collection, String((filter as { id?: unknown }).id ?? ''));
      return entry ? live(collection, entry) : undefined;
    },
  };
}
