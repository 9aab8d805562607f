import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { CardData } from '../client/card-data.ts';
import { fetchUserHits, fetchVideoHits, type UserHitView } from '../client/search-api.ts';
import { t } from '../i18n/t.ts';
import { FollowButton } from './FollowButton.tsx';
import { UserHitRow, VideoHitCard } from './SearchHits.tsx';

interface Props {
  kind: 'video' | 'user';
  keyword: string;
  /** Offset of the first page the server did not render. */
  cursor: number;
  /** Id of the server-rendered list (its items carry data-key) that new items are appended to. */
  listId: string;
  pageSize?: number;
}

type Phase = 'idle' | 'loading' | 'error' | 'done';
type Hit = CardData | UserHitView;

// Start loading a screen ahead of the end, so scrolling rarely waits.
const AHEAD = '800px 0px';
const keyOf = (hit: Hit) => ('id' in hit ? hit.id : hit.secUid);

/** Infinite scroll of search results: further pages append to the server-rendered list as its end nears, or on 加载更多. */
export function SearchMore({ kind, keyword, cursor, listId, pageSize = 24 }: Props) {
  const [list, setList] = useState<HTMLElement | null>(null);
  const [items, setItems] = useState<Hit[]>([]);
  const [phase, setPhase] = useState<Phase>('idle');
  const next = useRef(cursor);
  const seen = useRef(new Set<string>());
  const busy = useRef(false);
  const nearEnd = useRef(false);
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = document.getElementById(listId);
    el?.querySelectorAll<HTMLElement>(':scope > [data-key]').forEach((li) => seen.current.add(li.dataset.key!));
    setList(el);
  }, [listId]);

  const load = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setPhase('loading');
    try {
      const page = kind === 'video' ? await fetchVideoHits(keyword, next.current, pageSize) : await fetchUserHits(keyword, next.current, pageSize);
      next.current = page.cursor;
      // Rankings can move between requests: an item already shown is not shown twice.
      const fresh = (page.items as Hit[]).filter((hit) => !seen.current.has(keyOf(hit)));
      for (const hit of fresh) seen.current.add(keyOf(hit));
      setItems((before) => [...before, ...fresh]);
      setPhase(page.hasMore && page.items.length > 0 ? 'idle' : 'done');
    } catch {
      setPhase('error');
    } finally {
      busy.current = false;
    }
  }, [kind, keyword, pageSize]);

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
    if (phase === 'loading') list?.setAttribute('aria-busy', 'true');
    else list?.removeAttribute('aria-busy');
  }, [list, phase]);

  return (
    <>
      {list &&
        createPortal(
          items.map((hit) =>
            'id' in hit ? (
              <li key={hit.id} data-key={hit.id}>
                <VideoHitCard video={hit} keyword={keyword} />
              </li>
            ) : (
              <li key={hit.secUid} data-key={hit.secUid}>
                <UserHitRow user={hit} keyword={keyword}>
                  <FollowButton secUid={hit.secUid} status={hit.followStatus} size="sm" />
                </UserHitRow>
              </li>
            ),
          ),
          list,
        )}
      <div ref={sentinel} className="flex min-h-16 flex-col items-center justify-center gap-2 py-6 text-sm text-secondary">
        <p role="status" aria-live="polite" className={phase === 'idle' ? 'sr-only' : undefined}>
          {phase === 'loading' ? t('common.loading') : phase === 'done' ? t('profile.list.end') : phase === 'error' ? t('profile.list.failed') : ''}
        </p>
        {(phase === 'idle' || phase === 'error') && (
          <button type="button" className="btn-ghost border border-line" onClick={() => void load()}>
            {phase === 'error' ? t('profile.list.retry') : t('common.loadMore')}
          </button>
        )}
      </div>
    </>
  );
}
