import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { phaseOf, type PagedList } from '../stores/paged-list.ts';
import { announceLazyImages } from './announceLazyImages.ts';

interface Options<T> {
  /** The store that pages the list (its `start` is where the server's markup ends). */
  pages: PagedList<T>;
  /** The server-rendered list that new items join (looked up once, after hydration). */
  findList: () => HTMLElement | null;
  /** Keys of the items the server rendered in `list`. */
  shownKeys: (list: HTMLElement) => Iterable<string>;
}

// Start loading a screen ahead of the end, so scrolling rarely waits.
const AHEAD = '800px 0px';

/**
 * Shows a store's pages after a server-rendered list: the next page loads while `sentinel`, placed under the list,
 * is near the viewport, or on `load`; the store skips the items the server rendered. The list is aria-busy meanwhile,
 * and lazy posters of new items are watched. `load(true)` (加载更多, a keyboard or screen-reader user) then moves
 * focus to the link of the first new `li[data-more]`.
 */
export function useInfiniteList<T>(options: Options<T>) {
  // The island's props do not change after hydration: the first options serve for good.
  const { pages, findList, shownKeys } = useRef(options).current;
  const [list, setList] = useState<HTMLElement | null>(null);
  const items = useStore(pages.$items);
  const phase = phaseOf(useStore(pages.$state));
  const sentinel = useRef<HTMLDivElement>(null);
  const nearEnd = useRef(false);
  const focusFrom = useRef<number | null>(null);

  useEffect(() => {
    const el = findList();
    if (el) pages.skip(shownKeys(el));
    setList(el);
  }, [pages, findList, shownKeys]);

  const load = useCallback(
    async (byButton = false) => {
      const before = pages.$items.get().length;
      if (byButton) focusFrom.current = before;
      await pages.load();
      // Nothing new (already loading, or an empty page): no focus to move later.
      if (pages.$items.get().length === before && focusFrom.current === before) focusFrom.current = null;
    },
    [pages],
  );

  useEffect(() => {
    const el = sentinel.current;
    if (!el || !list || !('IntersectionObserver' in window)) return;
    const io = new IntersectionObserver(
      ([entry]) => {
        nearEnd.current = entry?.isIntersecting ?? false;
        if (nearEnd.current) void load();
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
    announceLazyImages(list);
    if (focusFrom.current === null) return;
    const first = list.querySelectorAll('li[data-more]')[focusFrom.current]?.querySelector<HTMLElement>('a');
    focusFrom.current = null;
    first?.focus();
  }, [items, list]);

  return { list, items, phase, sentinel, load };
}
