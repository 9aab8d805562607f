/**
 * The signal that editors published content: the shared pages that show it are dropped at once (their paths), or all
 * of them when it is on every page (header and footer links, the chrome's popovers). The page door listens
 * (http/page-answers.ts); content/publish.ts raises it here and for the other app servers.
 */
type Listener = (paths: readonly string[] | 'all') => void;

const listeners = new Set<Listener>();

/** Calls `listener` after every publication; returns what stops it. */
export function onContentPublished(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells every listener which shared pages now show something else. */
export function contentPublished(paths: readonly string[] | 'all'): void {
  for (const listener of listeners) listener(paths);
}
