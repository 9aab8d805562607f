import { useState } from 'react';
import { createPortal } from 'react-dom';
import { videoPages, type VideoSource } from '../stores/video-pages.ts';
import { ListEnd } from './ListEnd.tsx';
import { useInfiniteList } from './useInfiniteList.ts';
import { VideoCardSkeleton, VideoCardView, videoIdsIn } from './VideoCardView.tsx';

/** The lists this island continues: a profile's tabs and the 关注 feed. */
type ListSource = Exclude<VideoSource, 'discover' | 'channel' | 'hot' | 'friend'>;

interface Props {
  source: ListSource;
  /** The profile's sec_uid (post, like and collection lists). */
  secUid?: string;
  /** Offset of the first page not rendered by the server. */
  /** The cursor the server's first page answered. */
  cursor: string;
  /** Id of the element holding the server-rendered `ul.card-grid`; new cards are appended to that list. */
  gridId: string;
  pageSize?: number;
}

const SKELETONS = 8;

/**
 * Continues a server-rendered grid: pages load as a sentinel nears the viewport or
 * on 加载更多, appear in the same list with skeletons meanwhile, and stop when the server says there is no more.
 */
export function InfiniteVideos({ source, secUid, cursor, gridId, pageSize = 24 }: Props) {
  const [pages] = useState(() => videoPages(source, cursor, pageSize, { secUid }));
  const { list, items, phase, sentinel, load } = useInfiniteList({
    pages,
    findList: () => document.getElementById(gridId)?.querySelector<HTMLElement>('ul.card-grid') ?? null,
    shownKeys: videoIdsIn,
  });

  return (
    <>
      {list &&
        createPortal(
          <>
            {items.map((v) => (
              <li key={v.id} data-more="">
                <VideoCardView video={v} />
              </li>
            ))}
            {phase === 'loading' && Array.from({ length: SKELETONS }, (_, i) => <VideoCardSkeleton key={`s${i}`} />)}
          </>,
          list,
        )}
      <ListEnd phase={phase} sentinel={sentinel} onMore={() => void load(true)} />
    </>
  );
}
