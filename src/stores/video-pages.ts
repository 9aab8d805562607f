/** Further pages of the server-rendered video grids, from whichever endpoint serves each list, as one paged list. */
import type { Aweme } from '../shared/api-shapes.ts';
import { fromAweme, type VideoItem } from '../shared/video-item.ts';
import { pagedList, type FetchedPage, type ListCursor } from './paged-list.ts';

/** The lists a grid can continue: 首页, a channel, 热点, 朋友, 关注 and a profile's tabs. */
export type VideoSource =
  | 'discover'
  | 'channel'
  | 'hot'
  | 'friend'
  | 'follow'
  | 'post'
  | 'like'
  | 'favorite_collection'
  | 'record'
  | 'watch_later';

/** A video of a grid, with its heat on the 热点 list. */
type GridVideo = VideoItem & { heat?: number };

interface ListOptions {
  /** The profile's sec_uid (post and like). */
  secUid?: string;
  /** The channel id (channel). */
  channelId?: number;
  signal?: AbortSignal;
}

type AwemePage = {
  aweme_list: (Aweme & { hot_value?: number })[];
  max_cursor?: string;
  cursor?: string;
  offset?: string;
  has_more: 0 | 1;
};

const awemes = (body: AwemePage, next: string | undefined): FetchedPage<GridVideo> => ({
  items: body.aweme_list.map((a) =>
    a.hot_value === undefined ? fromAweme(a) : { ...fromAweme(a), heat: a.hot_value },
  ),
  cursor: next ?? '0',
  hasMore: body.has_more === 1,
});

/** The page of `source` after `cursor`, the cursor the server answered with the page before (passed back as is). */
export async function loadVideos(
  source: VideoSource,
  cursor: ListCursor,
  count: number,
  { secUid, channelId, signal }: ListOptions = {},
): Promise<FetchedPage<GridVideo>> {
  // The API client loads with the first page asked for, not with the island.
  const { apiGet } = await import('./api.ts');
  const options = { signal };
  const W = '/aweme/v1/web';
  switch (source) {
    case 'post':
    case 'like': {
      const path = source === 'post' ? `${W}/aweme/post/` : `${W}/aweme/favorite/`;
      const body = await apiGet<AwemePage>(path, { sec_user_id: secUid, max_cursor: cursor, count }, options);
      return awemes(body, body.max_cursor);
    }
    case 'favorite_collection': {
      const body = await apiGet<AwemePage>(
        `${W}/aweme/listcollection/`,
        { sec_user_id: secUid, cursor, count },
        options,
      );
      return awemes(body, body.cursor);
    }
    case 'record': {
      const body = await apiGet<AwemePage>(`${W}/history/read/`, { max_cursor: cursor, count }, options);
      return awemes(body, body.max_cursor);
    }
    case 'watch_later': {
      const body = await apiGet<AwemePage>(`${W}/watchlater/list/`, { offset: cursor, count }, options);
      return awemes(body, body.offset);
    }
    case 'channel':
    case 'hot':
    case 'friend':
    case 'follow':
    case 'discover': {
      const path = {
        channel: `${W}/channel/feed/`,
        hot: `${W}/hot/aweme/list/`,
        friend: `${W}/friend/feed/`,
        follow: `${W}/follow/feed/`,
        discover: '/aweme/v2/web/module/feed/',
      }[source];
      const body = await apiGet<AwemePage>(path, { tag_id: channelId, cursor, count }, options);
      return awemes(body, body.cursor);
    }
  }
}

/** The pages of `source` after the server's first page, which answered `cursor` (its ids to be given to `skip`). */
export function videoPages(
  source: VideoSource,
  cursor: ListCursor,
  count: number,
  options: Omit<ListOptions, 'signal'> = {},
) {
  return pagedList<GridVideo>({
    keyOf: (v) => v.id,
    start: { cursor, hasMore: true },
    fetchPage: (from) => loadVideos(source, from, count, options),
  });
}
