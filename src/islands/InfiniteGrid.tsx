import { useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { formatDuration, t } from '../i18n/t.ts';
import { formatHeatWith } from '../shared/format-count.ts';
import type { VideoCardItem } from '../shared/video-item.ts';
import { videoPages, type VideoSource } from '../stores/video-pages.ts';
import { ListEnd } from './ListEnd.tsx';
import { useInfiniteList } from './useInfiniteList.ts';
import { VideoCardSkeleton, VideoCardView, videoIdsIn } from './VideoCardView.tsx';

/** The lists this island continues: 首页, a channel, 热点 (ranked rows) and 朋友. */
export type GridSource = Extract<VideoSource, 'discover' | 'channel' | 'hot' | 'friend'>;

interface Props {
  source: GridSource;
  /** The channel id (source 'channel'). */
  channelId?: number;
  /** Offset of the first item the server did not render. */
  /** The cursor the server's first page answered. */
  cursor: string;
  /** Id of the element holding the server-rendered list (`ul.card-grid`, or the ranked `ol`); new items join it. */
  listId: string;
  pageSize?: number;
}

/** A row of the 热点 list: rank (1-3 highlighted), poster, title, author and heat. Also rendered statically by hot.astro. */
export function HotRow({
  video,
  rank,
  eager = false,
}: {
  video: VideoCardItem & { heat?: number };
  rank: number;
  eager?: boolean;
}) {
  return (
    // Shortcut classes (uno.config.ts): the 热点榜 repeats this row fifty times in its HTML.
    <a href={`/video/${video.id}`} className="hot-row" data-mute={video.author.secUid}>
      <span className={`hot-rank ${rank <= 3 ? 'text-accent-text' : 'text-muted'}`} data-rank={rank}>
        {rank}
      </span>
      <span className="hot-poster">
        <img src={video.poster} alt="" width={72} height={96} loading={eager ? 'eager' : 'lazy'} className="hot-img" />
        <span className="hot-dur">{formatDuration(video.duration)}</span>
      </span>
      <span className="min-w-0 flex-1">
        <span className="hot-title">{video.desc}</span>
        <span className="hot-by">@{video.author.nickname}</span>
      </span>
      <span className="hot-heat">
        {t('hot.heat', { value: formatHeatWith(video.heat ?? 0, t('count.tenThousand')) })}
      </span>
    </a>
  );
}

/**
 * The 热点 list's first page as hot.astro renders it, without hydration: the rows in one React render rather than one
 * per row (each is a render to a stream of its own, about 0.1 ms apiece).
 */
export function HotRows({ videos }: { videos: (VideoCardItem & { heat?: number })[] }) {
  return (
    <>
      {videos.map((video, i) => (
        <li key={video.id}>
          <HotRow video={video} rank={i + 1} eager={i < 8} />
        </li>
      ))}
    </>
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
  const [pages] = useState(() => videoPages(source, cursor, pageSize, { channelId }));
  const { list, items, phase, sentinel, load } = useInfiniteList({
    pages,
    findList: () => {
      const el = document.getElementById(listId)?.querySelector<HTMLElement>(ranked ? 'ol' : 'ul.card-grid') ?? null;
      shownBefore.current = el?.children.length ?? 0;
      return el;
    },
    shownKeys: videoIdsIn,
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
            {phase === 'loading' &&
              Array.from({ length: ranked ? 4 : SKELETONS }, (_, i) => <Skeleton key={`s${i}`} />)}
          </>,
          list,
        )}
      <ListEnd phase={phase} sentinel={sentinel} onMore={() => void load(true)} />
    </>
  );
}
