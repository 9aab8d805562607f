/** The search endpoints as the search box and the results page use them (through the shared API client). */
import { apiGet } from './api.ts';
import { cardFromAweme, type AwemeCard, type CardData } from './card-data.ts';

const W = '/aweme/v1/web';

export interface HotItem {
  id: string;
  word: string;
}

/** A user row of the results page. */
export interface UserHitView {
  secUid: string;
  nickname: string;
  avatar: string;
  signature: string;
  followerCount: number;
  totalFavorited: number;
  followStatus: 0 | 1 | 2;
}

export interface HitPage<T> {
  items: T[];
  cursor: number;
  hasMore: boolean;
}

interface SearchUser {
  sec_uid: string;
  nickname: string;
  signature: string;
  avatar_thumb: { url_list: string[] };
  follower_count: number;
  total_favorited: number;
  follow_status: 0 | 1 | 2;
}

// The search box loads these in the background: a failure leaves its panel as it was, without a toast.
const quiet = (signal?: AbortSignal) => ({ quiet: true, ...(signal ? { signal } : {}) });

/** 热搜: the first `count` hot words. */
export async function fetchHotWords(count: number, signal?: AbortSignal): Promise<HotItem[]> {
  const body = await apiGet<{ data: { word_list: { sentence_id: string; word: string }[] } }>(`${W}/hot/search/list/`, { count }, quiet(signal));
  return body.data.word_list.map((w) => ({ id: w.sentence_id, word: w.word }));
}

/** 猜你想搜: set number `round` of `count` guesses. */
export async function fetchGuesses(round: number, count: number, signal?: AbortSignal): Promise<string[]> {
  const body = await apiGet<{ data: { words: { word: string }[] }[] }>(`${W}/api/suggest_words/`, { refresh_index: round, count }, quiet(signal));
  return body.data.flatMap((g) => g.words.map((w) => w.word));
}

/** Completions of typed text (at most 8). */
export async function fetchSuggestions(keyword: string, signal?: AbortSignal): Promise<string[]> {
  const body = await apiGet<{ sug_list: { content: string }[] }>(`${W}/search/sug/`, { keyword }, quiet(signal));
  return body.sug_list.map((s) => s.content);
}

/** A further page of video results (errors are toasted: the visitor asked for it by scrolling). */
export async function fetchVideoHits(keyword: string, offset: number, count: number): Promise<HitPage<CardData>> {
  const body = await apiGet<{ data: { aweme_info: AwemeCard }[]; cursor: number; has_more: 0 | 1 }>(`${W}/general/search/single/`, { keyword, offset, count });
  return {
    items: body.data.map(({ aweme_info }) => cardFromAweme(aweme_info)),
    cursor: body.cursor,
    hasMore: body.has_more === 1,
  };
}

/** A further page of user results. */
export async function fetchUserHits(keyword: string, offset: number, count: number): Promise<HitPage<UserHitView>> {
  const body = await apiGet<{ user_list: { user_info: SearchUser }[]; cursor: number; has_more: 0 | 1 }>(`${W}/discover/search/`, { keyword, type: 'user', offset, count });
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
