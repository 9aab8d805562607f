/** The recommend feed's pages after the server's first: by cursor, without repeats, authors spread at each join. */
import type { FeedAweme } from '../shared/api-shapes.ts';
import { spreadAuthors } from '../shared/author-spread.ts';
import { fromFeedAweme, type VideoItem } from '../shared/video-item.ts';
import { pagedList, type ListCursor } from './paged-list.ts';

interface FeedPage {
  items: VideoItem[];
  hasMore: boolean;
  /** Where the next page starts, as the server answered it. */
  cursor: string;
}

/** The page of the recommend feed after `cursor` (the previous page's answer; '0' for the first). */
export async function fetchFeed(cursor: ListCursor, count: number): Promise<FeedPage> {
  // The API client loads with the first page asked for, not with the player.
  const { apiGet } = await import('./api.ts');
  const body = await apiGet<{ aweme_list: FeedAweme[]; has_more: 0 | 1; cursor: string }>('/aweme/v1/web/tab/feed/', {
    count,
    cursor,
  });
  return { items: body.aweme_list.map(fromFeedAweme), hasMore: body.has_more === 1, cursor: body.cursor };
}

/** A page joined to the feed: no author twice in a row where another is at hand, seam included (as the server spreads a page). */
const appendSpread = (list: VideoItem[], next: VideoItem[]): VideoItem[] =>
  spreadAuthors(next, (v) => v.author.secUid, list);

/**
 * The feed of one player, starting from the page the server rendered (`count` videos and the cursor after them):
 * `load()` asks for the next page, which joins without the videos already shown nor those taken out by `remove`
 * (不感兴趣).
 */
export function feedPages(first: FeedPage, count: number) {
  const list = pagedList<VideoItem>({
    keyOf: (v) => v.id,
    start: { items: first.items, cursor: first.cursor, hasMore: first.hasMore },
    join: appendSpread,
    fetchPage: async (cursor) => {
      const page = await fetchFeed(cursor, count);
      adoptReasons(list.$items, page.items);
      return page;
    },
  });
  return list;
}

/**
 * A video the shared first page showed (the visitors' order, reason 热门) that the member's own answer holds too
 * takes the member's reason: 为什么推荐 says why it is in their feed.
 */
function adoptReasons($items: { get(): VideoItem[]; set(v: VideoItem[]): void }, fetched: VideoItem[]): void {
  const why = new Map(fetched.flatMap((v) => (v.reason ? [[v.id, v.reason] as const] : [])));
  const held = $items.get();
  if (!held.some((v) => why.has(v.id) && why.get(v.id)!.text !== v.reason?.text)) return;
  $items.set(held.map((v) => (why.has(v.id) ? { ...v, reason: why.get(v.id) } : v)));
}
