/** A user's 关注 or 粉丝 list, page by page, for the profile's list dialog. */
import { apiGet } from './api.ts';
import type { FollowUser } from '../shared/api-shapes.ts';
import { pagedList } from './paged-list.ts';

export type FollowListKind = 'following' | 'followers';

/** Rows per page. */
const PAGE = 20;
const PATH: Record<FollowListKind, string> = {
  following: '/aweme/v1/web/user/following/list/',
  followers: '/aweme/v1/web/user/follower/list/',
};

type ListBody = { followings?: FollowUser[]; followers?: FollowUser[]; offset: number; has_more: 0 | 1 };

/** The `kind` list of the user `secUid`, from its first page (the dialog's first `load()`). */
export function followList(kind: FollowListKind, secUid: string) {
  return pagedList<FollowUser>({
    keyOf: (u) => u.sec_uid,
    start: { cursor: 0, hasMore: true },
    fetchPage: async (offset) => {
      const body = await apiGet<ListBody>(PATH[kind], { sec_user_id: secUid, offset, count: PAGE });
      return {
        items: (kind === 'following' ? body.followings : body.followers) ?? [],
        cursor: body.offset,
        hasMore: body.has_more === 1,
      };
    },
  });
}
