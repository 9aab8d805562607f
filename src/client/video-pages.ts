/** Further pages of the server-rendered video grids, from whichever endpoint serves each list, in one card shape. */
import { apiGet, apiPost } from './api.ts';
import { cardFromAweme, cardFromVideoB, type AwemeCard, type CardData, type VideoBCard } from './card-data.ts';

/** The lists a grid can continue: a profile's tabs and the 关注 feed. */
export type VideoSource = 'post' | 'like' | 'favorite_collection' | 'record' | 'watch_later' | 'follow';

export interface CardPage {
  items: CardData[];
  /** Offset of the page after this one. */
  cursor: number;
  hasMore: boolean;
}

type AwemePage = { aweme_list: AwemeCard[]; max_cursor?: number; cursor?: number; has_more: 0 | 1 };

const awemes = (body: AwemePage, next: number | undefined, from: number): CardPage => ({
  items: body.aweme_list.map(cardFromAweme),
  cursor: next ?? from + body.aweme_list.length,
  hasMore: body.has_more === 1,
});

/**
 * The page of `source` at offset `cursor`. Family B's watch-later list pages by number, so `cursor` must be a multiple
 * of `count` there (the server renders a first page of exactly `count`).
 */
export async function loadCards(source: VideoSource, cursor: number, count: number, secUid?: string, signal?: AbortSignal): Promise<CardPage> {
  const options = { signal };
  switch (source) {
    case 'post':
    case 'like': {
      const path = source === 'post' ? '/aweme/v1/web/aweme/post/' : '/aweme/v1/web/aweme/favorite/';
      const body = await apiGet<AwemePage>(path, { sec_user_id: secUid, max_cursor: cursor, count }, options);
      return awemes(body, body.max_cursor, cursor);
    }
    case 'favorite_collection': {
      const body = await apiGet<AwemePage>('/aweme/v1/web/aweme/listcollection/', { sec_user_id: secUid, cursor, count }, options);
      return awemes(body, body.cursor, cursor);
    }
    case 'record': {
      const body = await apiGet<AwemePage>('/aweme/v1/web/history/read/', { max_cursor: cursor, count }, options);
      return awemes(body, body.max_cursor, cursor);
    }
    case 'watch_later': {
      const page = Math.floor(cursor / count) + 1;
      const body = await apiGet<{ data: { videosList: VideoBCard[]; hasMore: boolean } }>('/video/self', { showTab: 'watch_later', page, size: count }, options);
      return { items: body.data.videosList.map(cardFromVideoB), cursor: cursor + body.data.videosList.length, hasMore: body.data.hasMore };
    }
    case 'follow': {
      const body = await apiPost<{ data: VideoBCard[] }>('/video/myAttentionVideos', { cursor, size: count }, options);
      // This Family B list says nothing of more: a full page means there may be.
      return { items: body.data.map(cardFromVideoB), cursor: cursor + body.data.length, hasMore: body.data.length === count };
    }
  }
}
