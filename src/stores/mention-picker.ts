/** The comment box's @ picker: whom a typed '@name' may mean, the people I follow first, then anyone else. */
import { apiGet } from './api.ts';
import type { FollowUser, SearchUser } from '../shared/api-shapes.ts';

export interface MentionOption {
  secUid: string;
  nickname: string;
  avatar: string | null;
  /** One the viewer follows. */
  followed: boolean;
}

/** Options shown at once. */
export const PICKER_SIZE = 8;

const W = '/aweme/v1/web';

/** Followed people whose nickname holds `query` (all of them, friends first, for ''), then others whose nickname holds it. */
export async function mentionOptions(query: string, size = PICKER_SIZE): Promise<MentionOption[]> {
  const followed = await apiGet<{ user_list: FollowUser[] }>(
    `${W}/familiar/atlist/`,
    { keyword: query || undefined, count: size },
    { quiet: true },
  );
  const mine = followed.user_list.map((u) => option(u, true));
  if (query === '' || mine.length >= size) return mine.slice(0, size);
  const found = await apiGet<{ user_list: { user_info: SearchUser }[] }>(
    `${W}/discover/search/`,
    { keyword: query, type: 'user', count: size },
    { quiet: true },
  ).catch(() => ({ user_list: [] }));
  const known = new Set(mine.map((m) => m.secUid));
  const others = found.user_list
    .map(({ user_info }) => option(user_info, user_info.follow_status !== 0))
    .filter((o) => !known.has(o.secUid));
  return [...mine, ...others].slice(0, size);
}

function option(u: Pick<SearchUser, 'sec_uid' | 'nickname' | 'avatar_thumb'>, followed: boolean): MentionOption {
  return { secUid: u.sec_uid, nickname: u.nickname, avatar: u.avatar_thumb.url_list[0] ?? null, followed };
}
