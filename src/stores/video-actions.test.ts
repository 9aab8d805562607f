import { beforeEach, describe, expect, it, vi } from 'vitest';

const { installStorages } = await import('../../tests/unit/memory-storage.ts');
const { local } = installStorages();
vi.mock('./api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));
vi.mock('./toast.ts', () => ({ toast: vi.fn() }));
const { apiPost } = await import('./api.ts');
const f = await import('./video-actions.ts');
const { $stats, statsOf } = await import('./video-stats.ts');
const { $loginOpen } = await import('./auth.ts');
const { setMarks, $marks } = await import('./marks.ts');
const { recordIntent } = await import('./early-clicks.ts');
const { testAweme } = await import('../../tests/unit/aweme.ts');
const { fromAweme } = await import('../shared/video-item.ts');
const post = vi.mocked(apiPost);

const item = fromAweme(testAweme());
const login = () => local.setItem('sy.user', JSON.stringify({ token: 't0k', userInfo: null }));

beforeEach(() => {
  local.clear();
  $stats.set({});
  $loginOpen.set(false);
  $marks.set(null);
  vi.clearAllMocks();
});

describe('the viewer’s marks, arriving after first paint', () => {
  const viewer = { uid: '7', secUid: 'me', nickname: '我', avatar: '/a.webp' };
  const marksFor = (liked: string[]) =>
    setMarks({
      viewer,
      liked,
      collected: [],
      later: [],
      following: {},
      unread: { notice: 0, message: 0 },
      resume: null,
    });

  it('show over what a shared page was rendered with, until the viewer acts', async () => {
    login();
    const shared = { ...item, liked: false };
    marksFor([shared.id]);
    expect(statsOf(shared).liked).toBe(true);
    post.mockResolvedValueOnce({ user_digged: 0, digg_count: 9 });
    // Judged against the marks: the click takes the like back.
    expect(await f.toggleLike(shared)).toBe(true);
    expect(post).toHaveBeenCalledWith('/aweme/v1/web/commit/item/digg/', { aweme_id: '42', type: 0 });
    marksFor([shared.id]);
    expect(statsOf(shared).liked).toBe(false);
  });

  it('never turn a click made before they came the wrong way: it does what the button showed then', async () => {
    login();
    const shared = { ...item, liked: false };
    // The click came while the page showed ♥ unpressed; the marks (liked already) arrived before its replay.
    recordIntent('like', shared.id, true);
    marksFor([shared.id]);
    post.mockResolvedValueOnce({ user_digged: 1, digg_count: 10 });
    expect(await f.toggleLike(shared)).toBe(true);
    expect(post).toHaveBeenCalledWith('/aweme/v1/web/commit/item/digg/', { aweme_id: '42', type: 1 });
    // Liked already: the count does not move.
    expect(statsOf(shared)).toMatchObject({ liked: true, digg: 10 });
  });
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
