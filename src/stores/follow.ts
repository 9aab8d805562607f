import { atom, map } from 'nanostores';
import type { FollowStatus } from '../shared/api-shapes.ts';
import { requireLogin } from './auth.ts';

export type { FollowStatus };

/** What `sy:follow-changed` carries, so counts elsewhere on the page can follow. */
export interface FollowChange {
  secUid: string;
  status: FollowStatus;
  following: boolean;
  /** The followed user's follower_count after the change. */
  followerCount: number;
  /** The viewer's following_count after the change. */
  followingCount: number;
}

/** DOM event dispatched on `window` after each confirmed follow or unfollow. */
export const FOLLOW_EVENT = 'sy:follow-changed';

/** Follow status by sec_uid, shared by every follow button on the page (a header button and a list row stay in step). */
export const $followStatus = map<Record<string, FollowStatus>>({});

/** sec_uids with a request in flight. */
export const $followPending = map<Record<string, boolean>>({});

/** Follower counts the server reported after a follow or unfollow on this page, by sec_uid. */
export const $followerCounts = map<Record<string, number>>({});

/** The viewer's own following count after their latest follow or unfollow on this page (null until then). */
export const $myFollowingCount = atom<number | null>(null);

/** Window event that wakes `client:interact="follow"` islands (the profile's counts) as a follow starts. */
export const FOLLOW_HYDRATE_EVENT = 'sy:hydrate-follow';

/** Records what the server rendered, unless this page already knows better. */
export function seedFollowStatus(secUid: string, status: FollowStatus): void {
  if ($followStatus.get()[secUid] === undefined) $followStatus.setKey(secUid, status);
}

interface FollowAnswer {
  follow_status: FollowStatus;
  follower_count: number;
  following_count: number;
}

/**
 * Follows or unfollows the user shown with status `shown`: anonymous viewers get the login dialog; otherwise the
 * button changes at once and is rolled back if the server refuses (the API client has already shown the error).
 */
export async function toggleFollow(secUid: string, shown: FollowStatus = 0): Promise<void> {
  if (!requireLogin()) return;
  if ($followPending.get()[secUid]) return;
  const before = $followStatus.get()[secUid] ?? shown;
  const follow = before === 0;
  globalThis.dispatchEvent?.(new Event(FOLLOW_HYDRATE_EVENT));
  $followPending.setKey(secUid, true);
  $followStatus.setKey(secUid, follow ? 1 : 0);
  try {
    // The API client loads on the first follow, not with the page.
    const { apiPost } = await import('./api.ts');
    const answer = await apiPost<FollowAnswer>('/aweme/v1/web/commit/follow/user/', {
      sec_user_id: secUid,
      type: follow ? 1 : 0,
    });
    $followStatus.setKey(secUid, answer.follow_status);
    $followerCounts.setKey(secUid, answer.follower_count);
    $myFollowingCount.set(answer.following_count);
    const detail: FollowChange = {
      secUid,
      status: answer.follow_status,
      following: answer.follow_status !== 0,
      followerCount: answer.follower_count,
      followingCount: answer.following_count,
    };
    globalThis.dispatchEvent?.(new CustomEvent<FollowChange>(FOLLOW_EVENT, { detail }));
  } catch {
    $followStatus.setKey(secUid, before);
  } finally {
    $followPending.setKey(secUid, false);
  }
}
