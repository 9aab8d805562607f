import { beforeEach, describe, expect, it, vi } from 'vitest';

const { installStorages } = await import('../../tests/unit/memory-storage.ts');
const { local } = installStorages();
vi.mock('../client/api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));
vi.mock('../client/toast.ts', () => ({ toast: vi.fn() }));
const { apiGet, apiPost } = await import('../client/api.ts');
const f = await import('./feed.ts');
const { $loginOpen } = await import('./auth.ts');
const get = vi.mocked(apiGet);
const post = vi.mocked(apiPost);

const aweme: import('./feed.ts').Aweme = {
  aweme_id: '42',
  desc: '今天的美食探店 #美食',
  author: { sec_uid: 'MS4wA', nickname: '跑步的大叔', avatar_thumb: { url_list: ['/media/avatars/a.webp'] }, follow_status: 2 },
  statistics: { digg_count: 10, comment_count: 3, collect_count: 2, share_count: 1 },
  user_digged: 1,
  collect_stat: 0,
  video: { play_addr: { url_list: ['/media/clips/c01.mp4'] }, cover: { url_list: ['/media/posters/c01.webp'] }, duration: 8000 },
};
const item = f.fromAweme(aweme);
const login = () => local.setItem('sy.user', JSON.stringify({ token: 't0k', userInfo: null }));

beforeEach(() => {
  local.clear();
  f.$stats.set({});
  $loginOpen.set(false);
  vi.clearAllMocks();
});

describe('videos as the player holds them', () => {
  it('maps an aweme and a page card to the same item', () => {
    expect(item).toEqual({
      id: '42',
      desc: '今天的美食探店 #美食',
      src: '/media/clips/c01.mp4',
      poster: '/media/posters/c01.webp',
      duration: 8000,
      author: { secUid: 'MS4wA', nickname: '跑步的大叔', avatar: '/media/avatars/a.webp', follow: 2 },
      digg: 10,
      comment: 3,
      collect: 2,
      share: 1,
      liked: true,
      collected: false,
    });
    const card = {
      id: 42,
      desc: item.desc,
      media: 'clips/c01.mp4',
      poster: 'posters/c01.webp',
      durationMs: 8000,
      diggCount: 10,
      commentCount: 3,
      collectCount: 2,
      shareCount: 1,
      author: { id: 5, secUid: 'MS4wA', nickname: '跑步的大叔', avatar: 'avatars/a.webp' },
    };
    expect(f.fromCard(card, { liked: true, follow: 2 }, (p) => `/media/${p}`)).toEqual(item);
  });
});

describe('actions', () => {
  it('an anonymous like opens the login dialog and changes nothing', async () => {
    expect(await f.toggleLike(item)).toBe(false);
    expect($loginOpen.get()).toBe(true);
    expect(post).not.toHaveBeenCalled();
    expect(f.statsOf(item).digg).toBe(10);
  });

  it('a like shows at once and settles on the server’s count', async () => {
    login();
    const plain = { ...item, liked: false };
    let resolve!: (v: unknown) => void;
    post.mockReturnValueOnce(new Promise((r) => (resolve = r)));
    const done = f.toggleLike(plain);
    await vi.waitFor(() => expect(post).toHaveBeenCalledWith('/aweme/v1/web/commit/item/digg/', { aweme_id: '42', type: 1 }));
    expect(f.statsOf(plain)).toMatchObject({ liked: true, digg: 11 });
    resolve({ user_digged: 1, digg_count: 15 });
    expect(await done).toBe(true);
    expect(f.statsOf(plain)).toMatchObject({ liked: true, digg: 15 });
  });

  it('a refused collect is rolled back; a double-click never unlikes', async () => {
    login();
    post.mockRejectedValueOnce(new Error('500'));
    expect(await f.toggleCollect(item)).toBe(false);
    expect(f.statsOf(item)).toMatchObject({ collected: false, collect: 2 });
    expect(await f.toggleLike(item, true)).toBe(true);
    expect(post).toHaveBeenCalledTimes(1);
    expect(f.statsOf(item).liked).toBe(true);
  });

  it('watch later adds, then removes', async () => {
    login();
    post.mockResolvedValueOnce({ in_watch_later: 1 }).mockResolvedValueOnce({ in_watch_later: 0 });
    await f.toggleWatchLater(item);
    expect(post).toHaveBeenLastCalledWith('/aweme/v1/web/aweme/watchlater/add/', { aweme_id: '42' });
    expect(f.statsOf(item).later).toBe(true);
    await f.toggleWatchLater(item);
    expect(post).toHaveBeenLastCalledWith('/aweme/v1/web/aweme/watchlater/remove/', { aweme_id: '42' });
    expect(f.statsOf(item).later).toBe(false);
  });

  it('不感兴趣 is recorded before the feed drops the video', async () => {
    login();
    post.mockResolvedValueOnce({});
    expect(await f.markNotInterested(item)).toBe(true);
    expect(post).toHaveBeenCalledWith('/aweme/v1/web/commit/dislike/item/', { aweme_id: '42' });
  });

  it('fetches a feed page by refresh_index', async () => {
    get.mockResolvedValueOnce({ aweme_list: [aweme], has_more: 1 });
    expect(await f.fetchFeed(3, 5)).toEqual({ items: [item], hasMore: true });
    expect(get).toHaveBeenCalledWith('/aweme/v1/web/tab/feed/', { count: 5, refresh_index: 3 });
  });

  it('joins a next page without one author twice in a row at the seam', () => {
    const by = (id: string, secUid: string) => ({ ...item, id, author: { ...item.author, secUid } });
    const joined = f.appendSpread([by('1', 'a'), by('2', 'b')], [by('3', 'b'), by('4', 'b'), by('5', 'c')]);
    expect(joined.map((x) => x.id)).toEqual(['1', '2', '5', '3', '4']);
    expect(f.appendSpread([by('1', 'a')], [by('2', 'a')]).map((x) => x.id)).toEqual(['1', '2']);
    expect(f.appendSpread([], [by('1', 'a')]).map((x) => x.id)).toEqual(['1']);
  });

  it('a share link points at the video page', () => {
    expect(f.shareUrl(item, 'https://shanying.example')).toBe('https://shanying.example/video/42');
  });
});

describe('watch history', () => {
  it('writes only for a logged-in viewer, at most every 10 s while playing, always when leaving a video', async () => {
    expect(f.reportProgress('42', 1)).toBe(false);
    login();
    post.mockResolvedValue({ play_count: 1 });
    expect(f.reportProgress('7', 1.2, 'tick', 100_000)).toBe(true);
    expect(f.reportProgress('7', 3, 'tick', 105_000)).toBe(false);
    expect(f.reportProgress('7', 6, 'tick', 111_000)).toBe(true);
    expect(f.reportProgress('7', 6.5, 'final', 111_500)).toBe(true);
    expect(f.reportProgress('7', 6.5, 'final', 111_600)).toBe(false);
    await vi.waitFor(() => expect(post).toHaveBeenCalledTimes(3));
    expect(post).toHaveBeenNthCalledWith(1, '/aweme/v1/web/history/write/', { aweme_id: '7', progress: 1200 }, { quiet: true });
    expect(post).toHaveBeenLastCalledWith('/aweme/v1/web/history/write/', { aweme_id: '7', progress: 6500 }, { quiet: true });
  });

  it('leaving the page sends a keepalive request with the Token header', () => {
    login();
    const fetchMock = vi.fn(async () => new Response('{}'));
    vi.stubGlobal('fetch', fetchMock);
    expect(f.reportProgress('8', 2.5, 'unload')).toBe(true);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/aweme/v1/web/history/write/');
    expect(init.keepalive).toBe(true);
    expect((init.headers as Record<string, string>).Token).toBe('t0k');
    expect(String(init.body)).toBe('aweme_id=8&progress=2500');
    vi.unstubAllGlobals();
  });
});
