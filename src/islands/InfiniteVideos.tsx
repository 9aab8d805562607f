import { createPortal } from 'react-dom';
import type { CardData } from '../client/card-data.ts';
import { loadCards, type VideoSource } from '../client/video-pages.ts';
import { ListEnd } from './ListEnd.tsx';
import { useInfiniteList } from './useInfiniteList.ts';
import { VideoCardSkeleton, VideoCardView, videoIdsIn } from './VideoCardView.tsx';

interface Props {
  source: VideoSource;
  /** The profile's sec_uid (post, like and collection lists). */
  secUid?: string;
  /** Offset of the first page not rendered by the server. */
  cursor: number;
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
  const { list, items, phase, sentinel, load } = useInfiniteList<CardData>({
    findList: () => document.getElementById(gridId)?.querySelector<HTMLElement>('ul.card-grid') ?? null,
    shownKeys: videoIdsIn,
    keyOf: (v) => v.id,
    cursor,
    loadPage: (from) => loadCards(source, from, pageSize, secUid),
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
