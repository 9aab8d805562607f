import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { loadCards, type CardData, type VideoSource } from '../client/video-pages.ts';
import { formatCount, formatDuration, formatRelative, t } from '../i18n/t.ts';
import { riHeart3Line } from '../shared/icons.ts';
import { Icon } from './Icon.tsx';

interface Props {
  source: VideoSource;
  /** The profile's sec_uid (post and like lists). */
  secUid?: string;
  /** Offset of the first page not rendered by the server. */
  cursor: number;
  /** Id of the element holding the server-rendered `ul.card-grid`; new cards are appended to that list. */
  gridId: string;
  pageSize?: number;
}

type Phase = 'idle' | 'loading' | 'error' | 'done';

const SKELETONS = 8;
// Start loading a screen ahead of the sentinel, so scrolling rarely waits.
const AHEAD = '800px 0px';

/** A card with the markup and classes of VideoCard.astro. */
function Card({ video }: { video: CardData }) {
  const href = `/video/${video.id}`;
  const created = new Date(video.createdAt);
  return (
    <article className="video-card group flex flex-col gap-2">
      <a href={href} className="focus-ring relative block overflow-hidden rounded-xl bg-raised aspect-[3/4]">
        <img
          src={video.cover}
          alt={video.desc}
          width={540}
          height={720}
          loading="lazy"
          decoding="async"
          className="absolute inset-0 w-full h-full object-cover transition-transform duration-300 group-hover:scale-105"
        />
        <span className="absolute left-2 bottom-2 flex items-center gap-1 text-xs text-white drop-shadow">
          <Icon svg={riHeart3Line} />
          <span>
            <span className="sr-only">{t('video.likes')}</span>
            {formatCount(video.diggCount)}
          </span>
        </span>
        <span className="absolute right-2 bottom-2 text-xs text-white drop-shadow">{formatDuration(video.durationMs)}</span>
      </a>
      <a href={href} className="focus-ring line-clamp-2 text-sm leading-5 text-primary hover:text-accent">
        {video.desc}
      </a>
      <div className="flex items-center gap-1 text-xs text-muted min-w-0">
        <a href={`/user/${video.authorSecUid}`} className="focus-ring truncate hover:text-primary">
          @{video.authorNickname}
        </a>
        <span aria-hidden="true">·</span>
        <time dateTime={created.toISOString()} className="shrink-0">
          {formatRelative(created)}
        </time>
      </div>
    </article>
  );
}

function Skeleton() {
  return (
    <li aria-hidden="true" data-skeleton="">
      <div className="flex flex-col gap-2 animate-pulse">
        <div className="rounded-xl bg-raised aspect-[3/4]" />
        <div className="h-4 w-4/5 rounded bg-raised" />
        <div className="h-3 w-1/2 rounded bg-raised" />
      </div>
    </li>
  );
}

const idOf = (href: string | null) => href?.match(/^\/video\/(\d+)/)?.[1];

/**
 * Continues a server-rendered grid (spec point 4's infinite lists): pages load as a sentinel nears the viewport or
 * on 加载更多, appear in the same list with skeletons meanwhile, and stop when the server says there is no more.
 */
export function InfiniteVideos({ source, secUid, cursor, gridId, pageSize = 24 }: Props) {
  const [grid, setGrid] = useState<HTMLUListElement | null>(null);
  const [items, setItems] = useState<CardData[]>([]);
  const [phase, setPhase] = useState<Phase>('idle');
  const next = useRef(cursor);
  const seen = useRef(new Set<string>());
  const sentinel = useRef<HTMLDivElement>(null);
  const nearEnd = useRef(false);
  const focusFrom = useRef<number | null>(null);
  const busy = useRef(false);

  useEffect(() => {
    const list = document.getElementById(gridId)?.querySelector<HTMLUListElement>('ul.card-grid') ?? null;
    list?.querySelectorAll('a[href^="/video/"]').forEach((a) => {
      const id = idOf(a.getAttribute('href'));
      if (id) seen.current.add(id);
    });
    setGrid(list);
  }, [gridId]);

  const load = useCallback(
    async (byButton = false) => {
      if (busy.current) return;
      busy.current = true;
      setPhase('loading');
      try {
        const page = await loadCards(source, next.current, pageSize, secUid);
        next.current = page.cursor;
        const fresh = page.items.filter((v) => !seen.current.has(v.id));
        for (const v of fresh) seen.current.add(v.id);
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
    [source, secUid, pageSize],
  );

  // The sentinel sits under the grid; while it stays near the viewport, keep loading.
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !grid || !('IntersectionObserver' in window)) return;
    const io = new IntersectionObserver(
      ([entry]) => {
        nearEnd.current = entry?.isIntersecting ?? false;
        if (nearEnd.current && !busy.current) void load();
      },
      { rootMargin: AHEAD },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [grid, load]);

  useEffect(() => {
    if (phase === 'idle' && nearEnd.current) void load();
  }, [phase, load]);

  useEffect(() => {
    if (!grid) return;
    if (phase === 'loading') grid.setAttribute('aria-busy', 'true');
    else grid.removeAttribute('aria-busy');
  }, [grid, phase]);

  // After 加载更多 (a keyboard or screen-reader user), move focus to the first new card.
  useEffect(() => {
    if (focusFrom.current === null || !grid) return;
    const first = grid.querySelectorAll('li[data-more]')[focusFrom.current]?.querySelector<HTMLElement>('a');
    focusFrom.current = null;
    first?.focus();
  }, [items, grid]);

  return (
    <>
      {grid &&
        createPortal(
          <>
            {items.map((v) => (
              <li key={v.id} data-more="">
                <Card video={v} />
              </li>
            ))}
            {phase === 'loading' && Array.from({ length: SKELETONS }, (_, i) => <Skeleton key={`s${i}`} />)}
          </>,
          grid,
        )}
      <div ref={sentinel} className="flex min-h-16 flex-col items-center justify-center gap-2 py-6 text-sm text-muted">
        <p role="status" aria-live="polite" className={phase === 'idle' ? 'sr-only' : undefined}>
          {phase === 'loading' ? t('common.loading') : phase === 'done' ? t('profile.list.end') : phase === 'error' ? t('profile.list.failed') : ''}
        </p>
        {(phase === 'idle' || phase === 'error') && (
          <button type="button" className="btn-ghost border border-line" onClick={() => void load(true)}>
            {phase === 'error' ? t('profile.list.retry') : t('common.loadMore')}
          </button>
        )}
      </div>
    </>
  );
}
