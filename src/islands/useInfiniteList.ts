import { useCallback, useEffect, useRef, useState } from 'react';

/** Where a continued list stands: waiting for its end to near, loading a page, failed, or over. */
export type ListPhase = 'idle' | 'loading' | 'error' | 'done';

/** One page of a list continued by offset. */
export interface ListPage<T> {
  items: T[];
  /** Offset of the page after this one. */
  cursor: number;
  hasMore: boolean;
}

interface Options<T> {
  /** The server-rendered list that new items join (looked up once, after hydration). */
  findList: () => HTMLElement | null;
  /** Keys of the items the server rendered in `list`. */
  shownKeys: (list: HTMLElement) => Iterable<string>;
  keyOf: (item: T) => string;
  /** Offset of the first item the server did not render. */
  cursor: number;
  loadPage: (cursor: number) => Promise<ListPage<T>>;
}

// Start loading a screen ahead of the end, so scrolling rarely waits.
const AHEAD = '800px 0px';
// LAZY_IMAGES_ADDED of src/client/lazy-images.ts, which the page's own script runs (see there why not imported).
const LAZY_IMAGES_ADDED = 'sy:lazy-images';

/**
 * Continues a server-rendered list: the next page loads while `sentinel`, placed under
 * the list, is near the viewport, or on `load`; items already shown are skipped, since rankings move between requests;
 * the list is aria-busy meanwhile, and lazy posters of new items are watched. `load(true)` (加载更多, a keyboard or
 * screen-reader user) then moves focus to the link of the first new `li[data-more]`.
 */
export function useInfiniteList<T>(options: Options<T>) {
  const [list, setList] = useState<HTMLElement | null>(null);
  const [items, setItems] = useState<T[]>([]);
  const [phase, setPhase] = useState<ListPhase>('idle');
  const next = useRef(options.cursor);
  const seen = useRef(new Set<string>());
  const sentinel = useRef<HTMLDivElement>(null);
  const nearEnd = useRef(false);
  const busy = useRef(false);
  const focusFrom = useRef<number | null>(null);
  // The island's props do not change after hydration: the first options serve for good.
  const { findList, shownKeys, keyOf, loadPage } = useRef(options).current;

  useEffect(() => {
    const el = findList();
    if (el) for (const key of shownKeys(el)) seen.current.add(key);
    setList(el);
  }, [findList, shownKeys]);

  const load = useCallback(
    async (byButton = false) => {
      if (busy.current) return;
      busy.current = true;
      setPhase('loading');
      try {
        const page = await loadPage(next.current);
        next.current = page.cursor;
        const fresh = page.items.filter((item) => !seen.current.has(keyOf(item)));
        for (const item of fresh) seen.current.add(keyOf(item));
        setItems((before) => {
          if (byButton && fresh.length) focusFrom.current = before.length;
          return [...before, ...fresh];
        });
        setPhase(page.hasMore && page.items.length > 0 ? 'idle' : 'done');
      } catch {
        setPhase('error');
      } finally {
        busy.current = false;
      }
    },
    [loadPage, keyOf],
  );

  useEffect(() => {
    const el = sentinel.current;
    if (!el || !list || !('IntersectionObserver' in window)) return;
    const io = new IntersectionObserver(
      ([entry]) => {
        nearEnd.current = entry?.isIntersecting ?? false;
        if (nearEnd.current && !busy.current) void load();
      },
      { rootMargin: AHEAD },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [list, load]);

  // Still near the end after a page came in (a tall screen): keep going.
  useEffect(() => {
    if (phase === 'idle' && nearEnd.current) void load();
  }, [phase, load]);

  useEffect(() => {
    if (!list) return;
    if (phase === 'loading') list.setAttribute('aria-busy', 'true');
    else list.removeAttribute('aria-busy');
  }, [list, phase]);

  useEffect(() => {
    if (!list || items.length === 0) return;
    list.dispatchEvent(new Event(LAZY_IMAGES_ADDED, { bubbles: true }));
    if (focusFrom.current === null) return;
    const first = list.querySelectorAll('li[data-more]')[focusFrom.current]?.querySelector<HTMLElement>('a');
    focusFrom.current = null;
    first?.focus();
  }, [items, list]);

  return { list, items, phase, sentinel, load };
}
