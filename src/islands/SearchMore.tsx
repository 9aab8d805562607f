import { useState } from 'react';
import { createPortal } from 'react-dom';
import { isVideoHit, searchPages } from '../stores/search-results.ts';
import { FollowButton } from './FollowButton.tsx';
import { ListEnd } from './ListEnd.tsx';
import { UserHitRow } from './SearchHits.tsx';
import { useInfiniteList } from './useInfiniteList.ts';
import { VideoCardView } from './VideoCardView.tsx';

interface Props {
  kind: 'video' | 'user';
  keyword: string;
  /** Offset of the first page the server did not render (search pages by offset). */
  cursor: number | string;
  /** Id of the server-rendered list (its items carry data-key) that new items are appended to. */
  listId: string;
  pageSize?: number;
  /** 筛选 of the video results, as the address names them (`[['sort_type', '2']]`). */
  filters?: [string, string][];
}

/** Infinite scroll of search results: further pages append to the server-rendered list as its end nears, or on 加载更多. */
export function SearchMore({ kind, keyword, cursor, listId, pageSize = 24, filters = [] }: Props) {
  const [pages] = useState(() => searchPages(kind, keyword, cursor, pageSize, filters));
  const { list, items, phase, sentinel, load } = useInfiniteList({
    pages,
    findList: () => document.getElementById(listId),
    shownKeys: (el) => [...el.querySelectorAll<HTMLElement>(':scope > [data-key]')].map((li) => li.dataset.key!),
  });

  return (
    <>
      {list &&
        createPortal(
          items.map((hit) =>
            isVideoHit(hit) ? (
              <li key={hit.id} data-key={hit.id}>
                <VideoCardView video={hit} keyword={keyword} tone="secondary" />
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
      <ListEnd phase={phase} sentinel={sentinel} onMore={() => void load()} tone="secondary" />
    </>
  );
}
