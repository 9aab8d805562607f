/**
 * The one signal that what anonymous visitors see has changed: a write (the API router raises it through
 * shared-writes.ts after every logged-in write that others can see, registry.ts's `changesSharedContent`, here and on
 * every other app server on the database), with the videos it wrote to when it names them (a like, a comment, a
 * danmaku, a studio edit). Every cache of anonymous answers listens to it: the API's hot reads (anon-cache.ts) and
 * rendered pages (page-cache.ts). A notification from another server lost on the way costs no more than the entries'
 * own expiry (a few seconds), which still bounds their lifetime.
 */
type Listener = (videos: readonly number[]) => void;

const listeners = new Set<Listener>();

/** Calls `listener` after every write; returns what stops it. */
export function onAnonymousContentChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells every anonymous cache that a write changed what it may hold; `videos` are the ids of the videos it wrote to. */
export function anonymousContentChanged(videos: readonly number[] = []): void {
  for (const listener of listeners) listener(videos);
}

/**
 * How old a kept anonymous answer must be before a write about something else ends it: what the caches hold about the
 * written video goes at once, everything else within this. Under steady writes (tens a second on a busy site) a hot
 * page or read is then made again about once per REFRESH_MIN_MS instead of once per write, and a count on a list lags
 * a write by at most that long.
 */
export const REFRESH_MIN_MS = 1_000;

/** When an answer made at `madeAt`, due to end at `ends`, ends after a write at `now` about something else. */
export function endAfterWrite(ends: number, madeAt: number, now: number, minMs = REFRESH_MIN_MS): number {
  return Math.min(ends, Math.max(now, madeAt + minMs));
}
