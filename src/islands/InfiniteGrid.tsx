import { useCallback, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { CardData } from '../client/video-pages.ts';
import { formatCount, formatDuration, formatRelative, t } from '../i18n/t.ts';
import { riHeart3Line } from '../shared/icons.ts';
import { Icon } from './Icon.tsx';

/** The lists this island continues: 首页, a channel, 热点 (ranked rows) and 朋友. */
export type GridSource = 'discover' | 'channel' | 'hot' | 'friend';

/** A card, with its heat on the 热点 list. */
export type GridItem = CardData & { heat?: number };

interface Props {
  source: GridSource;
  /** The channel id (source 'channel'). */
  channelId?: number;
  /** Offset of the first item the server did not render. */
  cursor: number;
  /** Id of the element holding the server-rendered list (`ul.card-grid`, or the ranked `ol`); new items join it. */
  listId: string;
  pageSize?: number;
}

type Phase = 'idle' | 'loading' | 'error' | 'done';

interface Aweme {
  aweme_id: string;
  desc: string;
  create_time: number;
  author: { sec_uid: string; nickname: string };
  statistics: { digg_count: number };
  video: { cover: { url_list: string[] }; duration: number };
  hot_value?: number;
}

interface VideoB {
  id: number;
  desc: string;
  cover: string;
  duration: number;
  createTime: number;
  diggCount: number;
  author: { secUid: string; nickname: string };
}

const fromAweme = (a: Aweme): GridItem => ({
  id: a.aweme_id,
  desc: a.desc,
  cover: a.video.cover.url_list[0] ?? '',
  diggCount: a.statistics.digg_count,
  durationMs: a.video.duration,
  authorSecUid: a.author.sec_uid,
  authorNickname: a.author.nickname,
  createdAt: a.create_time * 1000,
  heat: a.hot_value,
});

/** One page of `source` from offset `cursor`. */
async function loadPage(source: GridSource, cursor: number, count: number, channelId?: number): Promise<{ items: GridItem[]; cursor: number; hasMore: boolean }> {
  // Loaded with the first page asked for, so the cards (also used by Related) stay light.
  const { apiGet, apiPost } = await import('../client/api.ts');
  if (source === 'discover') {
    const body = await apiPost<{ data: VideoB[] }>('/video/getVideosByCursor', { cursor, size: count });
    const items = body.data.map((v) => ({
      id: String(v.id),
      desc: v.desc,
      cover: v.cover,
      diggCount: v.diggCount,
      durationMs: v.duration,
      authorSecUid: v.author.secUid,
      authorNickname: v.author.nickname,
      createdAt: v.createTime,
    }));
    // Family B says nothing of more: a full page means there may be.
    return { items, cursor: cursor + items.length, hasMore: items.length === count };
  }
  const path = source === 'channel' ? '/aweme/v1/web/channel/feed/' : source === 'hot' ? '/aweme/v1/web/hot/aweme/list/' : '/aweme/v1/web/friend/feed/';
  const body = await apiGet<{ aweme_list: Aweme[]; cursor: number; has_more: 0 | 1 }>(path, { tag_id: channelId, cursor, count });
  return { items: body.aweme_list.map(fromAweme), cursor: body.cursor, hasMore: body.has_more === 1 };
}

/** A card with the markup and classes of VideoCard.astro. */
export function GridCard({ video, now }: { video: CardData; now?: number }) {
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
          {formatRelative(created, now === undefined ? undefined : new Date(now))}
        </time>
      </div>
    </article>
  );
}

/** A row of the 热点 list: rank (1-3 highlighted), poster, title, author and heat. Also rendered statically by hot.astro. */
export function HotRow({ video, rank, eager = false }: { video: GridItem; rank: number; eager?: boolean }) {
  return (
    <a href={`/video/${video.id}`} className="focus-ring flex items-center gap-4 rounded-xl p-2 hover:bg-hover">
      <span className={`w-8 shrink-0 text-center text-lg font-bold ${rank <= 3 ? 'text-accent' : 'text-muted'}`} data-rank={rank}>
        {rank}
      </span>
      <span className="relative h-24 w-18 shrink-0 overflow-hidden rounded-lg bg-raised">
        <img src={video.cover} alt="" width={72} height={96} loading={eager ? 'eager' : 'lazy'} decoding="async" className="h-24 w-18 object-cover" />
        <span className="absolute bottom-1 right-1 text-[10px] text-white drop-shadow">{formatDuration(video.durationMs)}</span>
      </span>
      <span className="min-w-0 flex-1">
        <span className="line-clamp-2 text-sm text-primary">{video.desc}</span>
        <span className="mt-1 block text-xs text-muted">@{video.authorNickname}</span>
      </span>
      <span className="shrink-0 text-sm text-secondary">{t('hot.heat', { value: formatCount(video.heat ?? 0) })}</span>
    </a>
  );
}

function SkeletonCard() {
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

function SkeletonRow() {
  return (
    <li aria-hidden="true" data-skeleton="">
      <div className="flex animate-pulse items-center gap-4 p-2">
        <div className="h-6 w-8 rounded bg-raised" />
        <div className="h-24 w-18 rounded-lg bg-raised" />
        <div className="flex flex-1 flex-col gap-2">
          <div className="h-4 w-3/4 rounded bg-raised" />
          <div className="h-3 w-1/4 rounded bg-raised" />
        </div>
      </div>
    </li>
  );
}

const SKELETONS = 8;
// Start loading a screen ahead of the end, so scrolling rarely waits.
const AHEAD = '800px 0px';
const idOf = (href: string | null) => href?.match(/^\/video\/(\d+)/)?.[1];

/**
 * Continues a server-rendered grid or ranked list by cursor (首页, channels, 热点, 朋友): the next page loads as the end
 * nears or on 加载更多, with skeletons meanwhile, skips videos already shown, and says when the list is over.
 */
export function InfiniteGrid({ source, channelId, cursor, listId, pageSize = 24 }: Props) {
  const [list, setList] = useState<HTMLElement | null>(null);
  const [items, setItems] = useState<GridItem[]>([]);
  const [phase, setPhase] = useState<Phase>('idle');
  const next = useRef(cursor);
  const seen = useRef(new Set<string>());
  const shownBefore = useRef(0);
  const sentinel = useRef<HTMLDivElement>(null);
  const nearEnd = useRef(false);
  const busy = useRef(false);
  const focusFrom = useRef<number | null>(null);
  const ranked = source === 'hot';

  useEffect(() => {
    const el = document.getElementById(listId)?.querySelector<HTMLElement>(ranked ? 'ol' : 'ul.card-grid') ?? null;
    el?.querySelectorAll('a[href^="/video/"]').forEach((a) => {
      const id = idOf(a.getAttribute('href'));
      if (id) seen.current.add(id);
    });
    shownBefore.current = el?.children.length ?? 0;
    setList(el);
  }, [listId, ranked]);

  const load = useCallback(
    async (byButton = false) => {
      if (busy.current) return;
      busy.current = true;
      setPhase('loading');
      try {
        const page = await loadPage(source, next.current, pageSize, channelId);
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
    [source, channelId, pageSize],
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

  useEffect(() => {
    if (phase === 'idle' && nearEnd.current) void load();
  }, [phase, load]);

  useEffect(() => {
    if (!list) return;
    if (phase === 'loading') list.setAttribute('aria-busy', 'true');
    else list.removeAttribute('aria-busy');
  }, [list, phase]);

  // After 加载更多 (a keyboard or screen-reader user), focus moves to the first new item.
  useEffect(() => {
    if (focusFrom.current === null || !list) return;
    const first = list.querySelectorAll('li[data-more]')[focusFrom.current]?.querySelector<HTMLElement>('a');
    focusFrom.current = null;
    first?.focus();
  }, [items, list]);

  const Skeleton = ranked ? SkeletonRow : SkeletonCard;
  return (
    <>
      {list &&
        createPortal(
          <>
            {items.map((v, i) => (
              <li key={v.id} data-more="">
                {ranked ? <HotRow video={v} rank={shownBefore.current + i + 1} /> : <GridCard video={v} />}
              </li>
            ))}
            {phase === 'loading' && Array.from({ length: ranked ? 4 : SKELETONS }, (_, i) => <Skeleton key={`s${i}`} />)}
          </>,
          list,
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
