/**
 * The one signal that what anonymous visitors see has changed: a write in this process (the API router raises it
 * after every logged-in write that others can see, registry.ts's `changesSharedContent`), with the pages of what it
 * wrote to when it names them (a like names its video's page). Every cache of anonymous answers listens to it: the
 * API's hot reads (anon-cache.ts) and rendered pages (page-cache.ts). Writes made through another app server reach
 * this one only when its entries expire (a few seconds), which is what bounds their lifetime.
 */
type Listener = (pages: readonly string[]) => void;

const listeners = new Set<Listener>();

/** Calls `listener` after every write; returns what stops it. */
export function onAnonymousContentChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells every anonymous cache that a write changed what it may hold; `pages` are the paths of the pages it wrote to. */
export function anonymousContentChanged(pages: readonly string[] = []): void {
  for (const listener of listeners) listener(pages);
}
