/** A list a store pages through by cursor: its items, where it stands, and one `load` that takes the next page. */
import { atom, map } from 'nanostores';

export interface PageState {
  loading: boolean;
  loaded: boolean;
  hasMore: boolean;
  cursor: number;
  error: boolean;
}

export interface FetchedPage<T> {
  items: T[];
  cursor: number;
  hasMore: boolean;
}

interface Options<T> {
  keyOf: (item: T) => string;
  fetchPage: (cursor: number) => Promise<FetchedPage<T>>;
  /** Empty the list while a reset loads (a new filter); otherwise the old list stays until the new one arrives (a live refresh). */
  clearOnReset?: boolean;
}

/**
 * `load(true)` fetches the first page again, `load()` the next one (nothing while loading or at the end). An answer
 * overtaken by a later request is dropped, and items already shown are not repeated.
 */
export function pagedList<T>({ keyOf, fetchPage, clearOnReset = false }: Options<T>) {
  const $items = atom<T[]>([]);
  const $state = map<PageState>({ loading: false, loaded: false, hasMore: false, cursor: 0, error: false });
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
      const known = reset ? [] : $items.get();
      const keys = new Set(known.map(keyOf));
      $items.set([...known, ...page.items.filter((item) => !keys.has(keyOf(item)))]);
      $state.set({ loading: false, loaded: true, hasMore: page.hasMore, cursor: page.cursor, error: false });
    } catch {
      if (ticket === request) $state.set({ ...$state.get(), loading: false, loaded: true, error: true });
    }
  }

  return { $items, $state, load };
}
