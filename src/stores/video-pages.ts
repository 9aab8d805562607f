/** Further pages of the server-rendered video grids, from whichever endpoint serves each list, as one paged list. */
import type { Aweme, VideoB } from '../shared/api-shapes.ts';
import { fromAweme, fromVideoB, type VideoItem } from '../shared/video-item.ts';
import { pagedList, type FetchedPage } from './paged-list.ts';

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
  max_cursor?: number;
  cursor?: number;
  has_more: 0 | 1;
};

const awemes = (body: AwemePage, next: number | undefined, from: number): FetchedPage<GridVideo> => ({
  items: body.aweme_list.map((a) =>
    a.hot_value === undefined ? fromAweme(a) : { ...fromAweme(a), heat: a.hot_value },
  ),
  cursor: next ?? from + body.aweme_list.length,
  hasMore: body.has_more === 1,
});

/** Family B's cursor lists say nothing of more: a full page means there may be. */
const videosB = (list: VideoB[], from: number, count: number): FetchedPage<GridVideo> => ({
  items: list.map(fromVideoB),
  cursor: from + list.length,
  hasMore: list.length === count,
});

/**
 * The page of `source` at offset `cursor`. Family B's watch-later list pages by number, so `cursor` must be a multiple
 * of `count` there (the server renders a first page of exactly `count`).
 */
export async function loadVideos(
  source: VideoSource,
  cursor: number,
  count: number,
  { secUid, channelId, signal }: ListOptions = {},
): Promise<FetchedPage<GridVideo>> {
  // The API client loads with the first page asked for, not with the island.
  const { apiGet, apiPost } = await import('../client/api.ts');
  const options = { signal };
  switch (source) {
    case 'post':
    case 'like': {
      const path = source === 'post' ? '/aweme/v1/web/aweme/post/' : '/aweme/v1/web/aweme/favorite/';
      const body = await apiGet<AwemePage>(path, { sec_user_id: secUid, max_cursor: cursor, count }, options);
      return awemes(body, body.max_cursor, cursor);
    }
    case 'favorite_collection': {
      const body = await apiGet<AwemePage>(
        '/aweme/v1/web/aweme/listcollection/',
        { sec_user_id: secUid, cursor, count },
        options,
      );
      return awemes(body, body.cursor, cursor);
    }
    case 'record': {
      const body = await apiGet<AwemePage>('/aweme/v1/web/history/read/', { max_cursor: cursor, count }, options);
      return awemes(body, body.max_cursor, cursor);
    }
    case 'channel':
    case 'hot':
    case 'friend': {
      const path =
        source === 'channel'
          ? '/aweme/v1/web/channel/feed/'
          : source === 'hot'
            ? '/aweme/v1/web/hot/aweme/list/'
            : '/aweme/v1/web/friend/feed/';
      const body = await apiGet<AwemePage>(path, { tag_id: channelId, cursor, count }, options);
      return awemes(body, body.cursor, cursor);
    }
    case 'watch_later': {
      const page = Math.floor(cursor / count) + 1;
      const body = await apiGet<{ data: { videosList: VideoB[]; hasMore: boolean } }>(
        '/video/self',
        { showTab: 'watch_later', page, size: count },
        options,
      );
      return {
        items: body.data.videosList.map(fromVideoB),
        cursor: cursor + body.data.videosList.length,
        hasMore: body.data.hasMore,
      };
    }
    case 'follow': {
      const body = await apiPost<{ data: VideoB[] }>('/video/myAttentionVideos', { cursor, size: count }, options);
      return videosB(body.data, cursor, count);
    }
    case 'discover': {
      const body = await apiPost<{ data: VideoB[] }>('/video/getVideosByCursor', { cursor, size: count }, options);
      return videosB(body.data, cursor, count);
    }
  }
}

/** The pages of `source` after the `cursor` videos the server rendered (their ids to be given to `skip`). */
export function videoPages(
  source: VideoSource,
  cursor: number,
  count: number,
  options: Omit<ListOptions, 'signal'> = {},
) {
  return pagedList<GridVideo>({
    keyOf: (v) => v.id,
    start: { cursor, hasMore: true },
    fetchPage: (from) => loadVideos(source, from, count, options),
  });
}
