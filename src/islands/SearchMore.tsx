import { createPortal } from 'react-dom';
import type { CardData } from '../client/card-data.ts';
import { fetchUserHits, fetchVideoHits, type UserHitView } from '../client/search-api.ts';
import { FollowButton } from './FollowButton.tsx';
import { ListEnd } from './ListEnd.tsx';
import { UserHitRow } from './SearchHits.tsx';
import { useInfiniteList, type ListPage } from './useInfiniteList.ts';
import { VideoCardView } from './VideoCardView.tsx';

interface Props {
  kind: 'video' | 'user';
  keyword: string;
  /** Offset of the first page the server did not render. */
  cursor: number;
  /** Id of the server-rendered list (its items carry data-key) that new items are appended to. */
  listId: string;
  pageSize?: number;
}

type Hit = CardData | UserHitView;

const keyOf = (hit: Hit) => ('id' in hit ? hit.id : hit.secUid);

/** Infinite scroll of search results: further pages append to the server-rendered list as its end nears, or on 加载更多. */
export function SearchMore({ kind, keyword, cursor, listId, pageSize = 24 }: Props) {
  const { list, items, phase, sentinel, load } = useInfiniteList<Hit>({
    findList: () => document.getElementById(listId),
    shownKeys: (el) => [...el.querySelectorAll<HTMLElement>(':scope > [data-key]')].map((li) => li.dataset.key!),
    keyOf,
    cursor,
    loadPage: (from): Promise<ListPage<Hit>> => (kind === 'video' ? fetchVideoHits(keyword, from, pageSize) : fetchUserHits(keyword, from, pageSize)),
  });

  return (
    <>
      {list &&
        createPortal(
          items.map((hit) =>
            'id' in hit ? (
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
