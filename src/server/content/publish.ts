/**
 * Publishing editors' content to every app server at once: the change is announced on the real-time channel
 * (pg_notify, delivered when the saving transaction commits), and each server, this one included, drops its copy of
 * the collection, the shared pages that show it and the anonymous API answers. A notification lost while a server's
 * LISTEN connection is down costs no more than CONTENT_TTL_MS (content/store.ts).
 */
import { randomUUID } from 'node:crypto';
import type { ContentCollection } from '../../shared/staff.ts';
import { clearApiCache } from '../cache/anon-cache.ts';
import { contentPublished } from '../cache/content-published.ts';
import type { Db } from '../db/client.ts';
import { logLine } from '../log.ts';
import { hub, publish, type EventHub } from '../realtime/events.ts';

type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

/** The channel's topic of content publications. */
export const CONTENT_TOPIC = 'content';

/** This process, so that it does not drop its caches twice for its own publications. */
const PROCESS_ID = randomUUID();

/** The pages each page entry is shown on. */
const PAGE_PATHS: Record<string, string> = {
  about: '/about',
  business: '/business',
  'studio-learn': '/post/learn',
  'studio-service': '/post/service',
  'studio-live-data': '/post/live-data',
};

/** The shared pages that show an entry: its own page, or every page for what the chrome shows. */
export function pagesShowing(collection: ContentCollection, ids: readonly string[]): string[] | 'all' {
  switch (collection) {
    case 'channels':
      return ids.map((id) => `/channel/${id}`);
    case 'faq':
      return ['/faq'];
    case 'pages':
      return ids.map((id) => PAGE_PATHS[id]).filter((p): p is string => p !== undefined);
    default:
      return 'all';
  }
}

const dropListeners = new Set<(collection: ContentCollection) => void>();

/** Calls `listener` with every collection whose copy must be read again (content/store.ts). */
export function onCollectionChanged(listener: (collection: ContentCollection) => void): () => void {
  dropListeners.add(listener);
  return () => dropListeners.delete(listener);
}

function dropHere(collection: ContentCollection, ids: readonly string[]): void {
  for (const listener of dropListeners) listener(collection);
  contentPublished(pagesShowing(collection, ids));
  clearApiCache();
}

/**
 * Announces a publication inside the transaction that saved it (every server hears it on commit); `afterCommit` drops
 * this server's copies, which the caller runs once the transaction is done.
 */
export async function announcePublication(
  tx: DbOrTx,
  collection: ContentCollection,
  ids: readonly string[],
): Promise<() => void> {
  await publish(CONTENT_TOPIC, { type: 'published', data: { from: PROCESS_ID, collection, ids } }, tx);
  return () => dropHere(collection, ids);
}

/** Drops this server's copies for every publication another server announces, until the returned function is called. */
export function followContentPublications(events: EventHub = hub(), self: string = PROCESS_ID): () => void {
  return events.subscribe([CONTENT_TOPIC], (event) => {
    const data = event.data as { from?: unknown; collection?: unknown; ids?: unknown } | null;
    if (!data || data.from === self || typeof data.collection !== 'string' || !Array.isArray(data.ids)) return;
    try {
      dropHere(data.collection as ContentCollection, data.ids.map(String).slice(0, 1000));
    } catch (error) {
      logLine('warn', 'content: could not drop a publication', { error });
    }
  });
}
