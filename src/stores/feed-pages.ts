/** The recommend feed's pages after the server's first: by refresh_index, without repeats, authors spread at each join. */
import type { Aweme } from '../shared/api-shapes.ts';
import { spreadAuthors } from '../shared/author-spread.ts';
import { fromAweme, type VideoItem } from '../shared/video-item.ts';
import { pagedList } from './paged-list.ts';

interface FeedPage {
  items: VideoItem[];
  hasMore: boolean;
}

/** One page of the recommend feed (refresh_index is 1-based and pages by `count`). */
export async function fetchFeed(refreshIndex: number, count: number): Promise<FeedPage> {
  // The API client loads with the first page asked for, not with the player.
  const { apiGet } = await import('../client/api.ts');
  const body = await apiGet<{ aweme_list: Aweme[]; has_more: 0 | 1 }>('/aweme/v1/web/tab/feed/', {
    count,
    refresh_index: refreshIndex,
  });
  return { items: body.aweme_list.map(fromAweme), hasMore: body.has_more === 1 };
}

/** A page joined to the feed: no author twice in a row where another is at hand, seam included (as the server spreads a page). */
const appendSpread = (list: VideoItem[], next: VideoItem[]): VideoItem[] =>
  spreadAuthors(next, (v) => v.author.secUid, list);

/**
 * The feed of one player, starting from the page the server rendered (refresh_index 1, `count` videos): `load()` asks
 * for the next page, which joins without the videos already shown (rankings move between requests) nor those taken
 * out by `remove` (不感兴趣).
 */
export function feedPages(first: FeedPage, count: number) {
  return pagedList<VideoItem>({
    keyOf: (v) => v.id,
    start: { items: first.items, cursor: 2, hasMore: first.hasMore },
    join: appendSpread,
    fetchPage: async (index) => ({ ...(await fetchFeed(index, count)), cursor: index + 1 }),
  });
}
