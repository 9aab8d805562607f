import { useRef } from 'react';
import { createPortal } from 'react-dom';
import { cardFromAweme, cardFromVideoB, type AwemeCard, type CardData, type VideoBCard } from '../client/card-data.ts';
import { formatCount, formatDuration, t } from '../i18n/t.ts';
import { ListEnd } from './ListEnd.tsx';
import { useInfiniteList, type ListPage } from './useInfiniteList.ts';
import { VideoCardSkeleton, VideoCardView, videoIdsIn } from './VideoCardView.tsx';

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

/** 热点's awemes also carry their heat. */
type HotAweme = AwemeCard & { hot_value?: number };

/** One page of `source` from offset `cursor`. */
async function loadPage(source: GridSource, cursor: number, count: number, channelId?: number): Promise<ListPage<GridItem>> {
  // The API client loads with the first page asked for, not with the island.
  const { apiGet, apiPost } = await import('../client/api.ts');
  if (source === 'discover') {
    const body = await apiPost<{ data: VideoBCard[] }>('/video/getVideosByCursor', { cursor, size: count });
    const items = body.data.map(cardFromVideoB);
    // Family B says nothing of more: a full page means there may be.
    return { items, cursor: cursor + items.length, hasMore: items.length === count };
  }
  const path = source === 'channel' ? '/aweme/v1/web/channel/feed/' : source === 'hot' ? '/aweme/v1/web/hot/aweme/list/' : '/aweme/v1/web/friend/feed/';
  const body = await apiGet<{ aweme_list: HotAweme[]; cursor: number; has_more: 0 | 1 }>(path, { tag_id: channelId, cursor, count });
  return { items: body.aweme_list.map((a) => ({ ...cardFromAweme(a), heat: a.hot_value })), cursor: body.cursor, hasMore: body.has_more === 1 };
}

/** A row of the 热点 list: rank (1-3 highlighted), poster, title, author and heat. Also rendered statically by hot.astro. */
export function HotRow({ video, rank, eager = false }: { video: GridItem; rank: number; eager?: boolean }) {
  return (
    <a href={`/video/${video.id}`} className="focus-ring flex items-center gap-4 rounded-xl p-2 hover:bg-hover">
      <span className={`w-8 shrink-0 text-center text-lg font-bold ${rank <= 3 ? 'text-accent-text' : 'text-muted'}`} data-rank={rank}>
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

/**
 * Continues a server-rendered grid or ranked list by cursor (首页, channels, 热点, 朋友): the next page loads as the end
 * nears or on 加载更多, with skeletons meanwhile, skips videos already shown, and says when the list is over.
 */
export function InfiniteGrid({ source, channelId, cursor, listId, pageSize = 24 }: Props) {
  const ranked = source === 'hot';
  const shownBefore = useRef(0);
  const { list, items, phase, sentinel, load } = useInfiniteList<GridItem>({
    findList: () => {
      const el = document.getElementById(listId)?.querySelector<HTMLElement>(ranked ? 'ol' : 'ul.card-grid') ?? null;
      shownBefore.current = el?.children.length ?? 0;
      return el;
    },
    shownKeys: videoIdsIn,
    keyOf: (v) => v.id,
    cursor,
    loadPage: (from) => loadPage(source, from, pageSize, channelId),
  });

  const Skeleton = ranked ? SkeletonRow : VideoCardSkeleton;
  return (
    <>
      {list &&
        createPortal(
          <>
            {items.map((v, i) => (
              <li key={v.id} data-more="">
                {ranked ? <HotRow video={v} rank={shownBefore.current + i + 1} /> : <VideoCardView video={v} />}
              </li>
            ))}
            {phase === 'loading' && Array.from({ length: ranked ? 4 : SKELETONS }, (_, i) => <Skeleton key={`s${i}`} />)}
          </>,
          list,
        )}
      <ListEnd phase={phase} sentinel={sentinel} onMore={() => void load(true)} />
    </>
  );
}
