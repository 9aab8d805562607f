import { beforeEach, describe, expect, it, vi } from 'vitest';

const env = await vi.hoisted(async () => {
  const { installStorages } = await import('../../tests/unit/memory-storage.ts');
  return installStorages();
});

vi.mock('./api.ts', () => ({ apiPost: vi.fn() }));

const { apiPost } = await import('./api.ts');
const { $loginOpen } = await import('./auth.ts');
const {
  $followerCounts,
  $followPending,
  $followStatus,
  $myFollowingCount,
  FOLLOW_EVENT,
  FOLLOW_HYDRATE_EVENT,
  seedFollowStatus,
  toggleFollow,
} = await import('./follow.ts');

const post = vi.mocked(apiPost);
const events: unknown[] = [];
const wakeUps: string[] = [];
vi.stubGlobal('dispatchEvent', (event: CustomEvent) => {
  if (event.type === FOLLOW_EVENT) events.push(event.detail);
  if (event.type === FOLLOW_HYDRATE_EVENT) wakeUps.push(event.type);
  return true;
});

const logIn = () => env.local.setItem('sy.user', JSON.stringify({ token: 'tok', userInfo: null }));

beforeEach(() => {
  env.local.clear();
  $followStatus.set({});
  $followPending.set({});
  $loginOpen.set(false);
  $followerCounts.set({});
  $myFollowingCount.set(null);
  post.mockReset();
  events.length = 0;
  wakeUps.length = 0;
});

describe('toggleFollow', () => {
  it('asks an anonymous visitor to log in and changes nothing', async () => {
    await toggleFollow('u1', 0);
    expect($loginOpen.get()).toBe(true);
    expect(post).not.toHaveBeenCalled();
    expect($followStatus.get().u1).toBeUndefined();
  });

  it('follows at once, then takes the server status and counts and tells the page', async () => {
    logIn();
    let answer!: (v: unknown) => void;
    post.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
    const done = toggleFollow('u1', 0);
    await vi.waitFor(() =>
      expect(post).toHaveBeenCalledWith('/aweme/v1/web/commit/follow/user/', { sec_user_id: 'u1', type: 1 }),
    );
    expect($followStatus.get().u1).toBe(1);
    expect($followPending.get().u1).toBe(true);
    // The profile's counts island is woken before the answer, so it sees the new counts in the store.
    expect(wakeUps).toHaveLength(1);
    answer({ follow_status: 2, follower_count: 8, following_count: 16 });
    await done;
    expect($followStatus.get().u1).toBe(2);
    expect($followPending.get().u1).toBe(false);
    expect($followerCounts.get().u1).toBe(8);
    expect($myFollowingCount.get()).toBe(16);
    expect(events).toEqual([{ secUid: 'u1', status: 2, following: true, followerCount: 8, followingCount: 16 }]);
  });

  it('unfollows from the status shown and rolls back when the server refuses', async () => {
    logIn();
    seedFollowStatus('u2', 2);
    post.mockRejectedValueOnce(new Error('500'));
    await toggleFollow('u2', 2);
    expect(post).toHaveBeenCalledWith('/aweme/v1/web/commit/follow/user/', { sec_user_id: 'u2', type: 0 });
    expect($followStatus.get().u2).toBe(2);
    expect($followerCounts.get().u2).toBeUndefined();
    expect(events).toEqual([]);
  });

  it('ignores a second click while the first is in flight', async () => {
    logIn();
    post.mockReturnValue(new Promise(() => {}));
    void toggleFollow('u3', 0);
    await vi.waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    await toggleFollow('u3', 1);
    expect(post).toHaveBeenCalledTimes(1);
  });
});

describe('seedFollowStatus', () => {
  it('keeps what the page already learned', () => {
    $followStatus.setKey('u4', 1);
    seedFollowStatus('u4', 0);
    expect($followStatus.get().u4).toBe(1);
  });
});
