/** A list a store pages through by cursor: its items, where it stands, and one `load` that takes the next page. */
import { atom, map } from 'nanostores';

/**
 * Where a list stands: the opaque cursor the server answered (passed back as is), or an offset where an endpoint's
 * contract is one; 0 is the start of either.
 */
export type ListCursor = string | number;

export interface PageState {
  loading: boolean;
  loaded: boolean;
  hasMore: boolean;
  cursor: ListCursor;
  error: boolean;
}

export interface FetchedPage<T> {
  items: T[];
  cursor: ListCursor;
  hasMore: boolean;
}

/** Where a list stands for its island: waiting for its end to near, loading a page, failed, or over. */
export type ListPhase = 'idle' | 'loading' | 'error' | 'done';

interface Options<T> {
  keyOf: (item: T) => string;
  fetchPage: (cursor: ListCursor) => Promise<FetchedPage<T>>;
  /** Empty the list while a reset loads (a new filter); otherwise the old list stays until the new one arrives (a live refresh). */
  clearOnReset?: boolean;
  /** A list that goes on from a first page already shown (the server's): its items if the store holds them, and where the next page starts. */
  start?: { items?: T[]; cursor: ListCursor; hasMore: boolean };
  /** How a page's new items join the list (default: after it). */
  join?: (list: T[], fresh: T[]) => T[];
}

/**
 * `load(true)` fetches the first page again, `load()` the next one (nothing while loading or at the end). An answer
 * overtaken by a later request is dropped, an empty page ends the list, and no page repeats an item seen since the
 * last reset: shown, skipped or removed.
 */
export function pagedList<T>({
  keyOf,
  fetchPage,
  clearOnReset = false,
  start,
  join = (list, fresh) => [...list, ...fresh],
}: Options<T>) {
  const $items = atom<T[]>(start?.items ?? []);
  const $state = map<PageState>({
    loading: false,
    loaded: false,
    hasMore: start?.hasMore ?? false,
    cursor: start?.cursor ?? 0,
    error: false,
  });
  let seen = new Set((start?.items ?? []).map(keyOf));
  let request = 0;

  async function load(reset = false): Promise<void> {
    const s = $state.get();
    if (!reset && (s.loading || !s.hasMore)) return;
    const ticket = ++request;
    if (reset && clearOnReset) $items.set([]);
    $state.set({ ...s, loading: true, loaded: reset && clearOnReset ? false : s.loaded, error: false });
    try {
      const page = await fetchPage(reset ? 0 : s.cursor);
      if (ticket !== request) return;
      if (reset) seen = new Set();
      const fresh = page.items.filter((item) => {
        const key = keyOf(item);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      $items.set(join(reset ? [] : $items.get(), fresh));
      // A server that says there is more but sends nothing would otherwise be asked forever.
      $state.set({
        loading: false,
        loaded: true,
        hasMore: page.hasMore && page.items.length > 0,
        cursor: page.cursor,
        error: false,
      });
    } catch {
      if (ticket === request) $state.set({ ...$state.get(), loading: false, loaded: true, error: true });
    }
  }

  /** Items shown without the store (the server's markup): no page brings them again. */
  function skip(keys: Iterable<string>): void {
    for (const key of keys) seen.add(key);
  }

  /** Takes an item out of the list for good: no later page brings it back. */
  function remove(key: string): void {
    $items.set($items.get().filter((item) => keyOf(item) !== key));
  }

  return { $items, $state, load, skip, remove };
}

/** A paged list, as the islands that show one take it. */
export type PagedList<T> = ReturnType<typeof pagedList<T>>;

/** The phase an island shows for `s`: a list not loaded yet waits (its first `load()` is the island's to make). */
export function phaseOf(s: PageState): ListPhase {
  return s.loading ? 'loading' : s.error ? 'error' : s.hasMore || !s.loaded ? 'idle' : 'done';
}
