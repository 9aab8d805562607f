/**
 * The one signal that what anonymous visitors see has changed: a write in this process (the API router raises it
 * after every logged-in write that others can see, registry.ts's `changesSharedContent`). Every cache of anonymous
 * answers listens to it: the API's hot reads (anon-cache.ts) and rendered pages (page-cache.ts). Writes made through
 * another app server reach this one only when its entries expire (a few seconds), which is what bounds their lifetime.
 */
type Listener = () => void;

const listeners = new Set<Listener>();

/** Calls `listener` after every write; returns what stops it. */
export function onAnonymousContentChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells every anonymous cache that a write changed what it may hold. */
export function anonymousContentChanged(): void {
  for (const listener of listeners) listener();
}
