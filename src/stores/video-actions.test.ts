import { beforeEach, describe, expect, it, vi } from 'vitest';

const { installStorages } = await import('../../tests/unit/memory-storage.ts');
const { local } = installStorages();
vi.mock('../client/api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));
vi.mock('../client/toast.ts', () => ({ toast: vi.fn() }));
const { apiPost } = await import('../client/api.ts');
const f = await import('./video-actions.ts');
const { $stats, statsOf } = await import('./video-stats.ts');
const { $loginOpen } = await import('./auth.ts');
const { testAweme } = await import('../../tests/unit/aweme.ts');
const { fromAweme } = await import('../shared/video-item.ts');
const post = vi.mocked(apiPost);

const item = fromAweme(testAweme());
const login = () => local.setItem('sy.user', JSON.stringify({ token: 't0k', userInfo: null }));

beforeEach(() => {
  local.clear();
  $stats.set({});
  $loginOpen.set(false);
  vi.clearAllMocks();
});

describe('actions', () => {
  it('an anonymous like opens the login dialog and changes nothing', async () => {
    expect(await f.toggleLike(item)).toBe(false);
    expect($loginOpen.get()).toBe(true);
    expect(post).not.toHaveBeenCalled();
    expect(statsOf(item).digg).toBe(10);
  });

  it('a like shows at once and settles on the server’s count', async () => {
    login();
    const plain = { ...item, liked: false };
    let resolve!: (v: unknown) => void;
    post.mockReturnValueOnce(new Promise((r) => (resolve = r)));
    const done = f.toggleLike(plain);
    await vi.waitFor(() =>
      expect(post).toHaveBeenCalledWith('/aweme/v1/web/commit/item/digg/', { aweme_id: '42', type: 1 }),
    );
    expect(statsOf(plain)).toMatchObject({ liked: true, digg: 11 });
    resolve({ user_digged: 1, digg_count: 15 });
    expect(await done).toBe(true);
    expect(statsOf(plain)).toMatchObject({ liked: true, digg: 15 });
  });

  it('a refused collect is rolled back; a double-click never unlikes', async () => {
    login();
    post.mockRejectedValueOnce(new Error('500'));
    expect(await f.toggleCollect(item)).toBe(false);
    expect(statsOf(item)).toMatchObject({ collected: false, collect: 2 });
    expect(await f.toggleLike(item, true)).toBe(true);
    expect(post).toHaveBeenCalledTimes(1);
    expect(statsOf(item).liked).toBe(true);
  });

  it('watch later adds, then removes', async () => {
    login();
    post.mockResolvedValueOnce({ in_watch_later: 1 }).mockResolvedValueOnce({ in_watch_later: 0 });
    await f.toggleWatchLater(item);
    expect(post).toHaveBeenLastCalledWith('/aweme/v1/web/aweme/watchlater/add/', { aweme_id: '42' });
    expect(statsOf(item).later).toBe(true);
    await f.toggleWatchLater(item);
    expect(post).toHaveBeenLastCalledWith('/aweme/v1/web/aweme/watchlater/remove/', { aweme_id: '42' });
    expect(statsOf(item).later).toBe(false);
  });

  it('不感兴趣 is recorded before the feed drops the video', async () => {
    login();
    post.mockResolvedValueOnce({});
    expect(await f.markNotInterested(item)).toBe(true);
    expect(post).toHaveBeenCalledWith('/aweme/v1/web/commit/dislike/item/', { aweme_id: '42' });
  });

  it('a share link points at the video page', () => {
    expect(f.shareUrl(item, 'https://shanying.example')).toBe('https://shanying.example/video/42');
  });
});
