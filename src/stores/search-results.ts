/** The results page's further pages of videos and users, after the first the server rendered. */
import { apiGet } from './api.ts';
import type { Aweme, FollowStatus, SearchUser } from '../shared/api-shapes.ts';
import { fromAweme, type VideoItem } from '../shared/video-item.ts';
import { pagedList, type FetchedPage, type ListCursor } from './paged-list.ts';

/** A user row of the results page. */
export interface UserHitView {
  secUid: string;
  nickname: string;
  avatar: string;
  signature: string;
  followerCount: number;
  totalFavorited: number;
  followStatus: FollowStatus;
}

/** A page of results, as the server renders the first and the store fetches the rest. */
export type HitPage<T> = FetchedPage<T>;

type SearchHit = VideoItem | UserHitView;

const W = '/aweme/v1/web';

/** A further page of video results (errors are toasted: the visitor asked for it by scrolling). */
async function fetchVideoHits(
  keyword: string,
  offset: number,
  count: number,
  filters: [string, string][],
): Promise<HitPage<VideoItem>> {
  const body = await apiGet<{ data: { aweme_info: Aweme }[]; cursor: number; has_more: 0 | 1 }>(
    `${W}/general/search/single/`,
    { keyword, offset, count, ...Object.fromEntries(filters) },
  );
  return {
    items: body.data.map(({ aweme_info }) => fromAweme(aweme_info)),
    cursor: body.cursor,
    hasMore: body.has_more === 1,
  };
}

/** A further page of user results. */
async function fetchUserHits(keyword: string, offset: number, count: number): Promise<HitPage<UserHitView>> {
  const body = await apiGet<{ user_list: { user_info: SearchUser }[]; cursor: number; has_more: 0 | 1 }>(
    `${W}/discover/search/`,
    { keyword, type: 'user', offset, count },
  );
  return {
    items: body.user_list.map(({ user_info: u }) => ({
      secUid: u.sec_uid,
      nickname: u.nickname,
      avatar: u.avatar_thumb.url_list[0] ?? '',
      signature: u.signature,
      followerCount: u.follower_count,
      totalFavorited: u.total_favorited,
      followStatus: u.follow_status,
    })),
    cursor: body.cursor,
    hasMore: body.has_more === 1,
  };
}

/** Whether a hit is a video (users are keyed by sec_uid). */
export const isVideoHit = (hit: SearchHit): hit is VideoItem => 'id' in hit;

/**
 * The results of `kind` for `keyword` after the server's first page (its keys to be given to `skip`), from offset
 * `cursor`; videos under the page's 筛选 (`filters`, as its address names them).
 */
export function searchPages(
  kind: 'video' | 'user',
  keyword: string,
  cursor: ListCursor,
  count: number,
  filters: [string, string][] = [],
) {
  return pagedList<SearchHit>({
    keyOf: (hit) => (isVideoHit(hit) ? hit.id : hit.secUid),
    start: { cursor, hasMore: true },
    // Search's cursor is an offset (its answer's `cursor` is the next one).
    fetchPage: (from) =>
      kind === 'video'
        ? fetchVideoHits(keyword, Number(from), count, filters)
        : fetchUserHits(keyword, Number(from), count),
  });
}
