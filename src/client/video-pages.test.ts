import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));

const { apiGet, apiPost } = await import('./api.ts');
const { loadCards } = await import('./video-pages.ts');

const get = vi.mocked(apiGet);
const post = vi.mocked(apiPost);

const aweme = (id: number) => ({
  aweme_id: String(id),
  desc: `video ${id}`,
  create_time: 1_700_000_000 + id,
  author: { sec_uid: 'sec-a', nickname: 'A' },
  statistics: { digg_count: id * 10 },
  video: { cover: { url_list: [`/media/p${id}.webp`] }, duration: 8000 },
});
const videoB = (id: number) => ({
  id,
  desc: `video ${id}`,
  cover: `/media/p${id}.webp`,
  duration: 7000,
  createTime: 1_700_000_000_000 + id,
  diggCount: id,
  author: { secUid: 'sec-b', nickname: 'B' },
});

beforeEach(() => {
  get.mockReset();
  post.mockReset();
});

describe('loadCards', () => {
  it('maps awemes to cards and follows max_cursor and has_more', async () => {
    get.mockResolvedValueOnce({ aweme_list: [aweme(1), aweme(2)], max_cursor: 26, has_more: 1 });
    const page = await loadCards('post', 24, 24, 'sec-a');
    expect(get).toHaveBeenCalledWith('/aweme/v1/web/aweme/post/', { sec_user_id: 'sec-a', max_cursor: 24, count: 24 }, { signal: undefined });
    expect(page).toEqual({
      cursor: 26,
      hasMore: true,
      items: [
        { id: '1', desc: 'video 1', cover: '/media/p1.webp', diggCount: 10, durationMs: 8000, authorSecUid: 'sec-a', authorNickname: 'A', createdAt: 1_700_000_001_000 },
        { id: '2', desc: 'video 2', cover: '/media/p2.webp', diggCount: 20, durationMs: 8000, authorSecUid: 'sec-a', authorNickname: 'A', createdAt: 1_700_000_002_000 },
      ],
    });
  });

  it('asks each list its own endpoint and cursor name', async () => {
    get.mockResolvedValue({ aweme_list: [], has_more: 0 });
    await loadCards('like', 24, 24, 'sec-a');
    await loadCards('favorite_collection', 24, 24, 'sec-a');
    await loadCards('record', 24, 24);
    expect(get.mock.calls.map(([path, query]) => [path, query])).toEqual([
      ['/aweme/v1/web/aweme/favorite/', { sec_user_id: 'sec-a', max_cursor: 24, count: 24 }],
      ['/aweme/v1/web/aweme/listcollection/', { sec_user_id: 'sec-a', cursor: 24, count: 24 }],
      ['/aweme/v1/web/history/read/', { max_cursor: 24, count: 24 }],
    ]);
  });

  it('turns the watch-later offset into a page number', async () => {
    get.mockResolvedValueOnce({ code: '200', data: { videosList: [videoB(3)], hasMore: false } });
    const page = await loadCards('watch_later', 48, 24);
    expect(get).toHaveBeenCalledWith('/video/self', { showTab: 'watch_later', page: 3, size: 24 }, { signal: undefined });
    expect(page.cursor).toBe(49);
    expect(page.hasMore).toBe(false);
    expect(page.items[0]).toMatchObject({ id: '3', cover: '/media/p3.webp', authorSecUid: 'sec-b', createdAt: 1_700_000_000_003 });
  });

  it('reads a full 关注 page as maybe more, a short one as the end', async () => {
    post.mockResolvedValueOnce({ data: [videoB(1), videoB(2)] }).mockResolvedValueOnce({ data: [videoB(3)] });
    expect((await loadCards('follow', 0, 2)).hasMore).toBe(true);
    const last = await loadCards('follow', 2, 2);
    expect(post).toHaveBeenLastCalledWith('/video/myAttentionVideos', { cursor: 2, size: 2 }, { signal: undefined });
    expect(last).toMatchObject({ cursor: 3, hasMore: false });
  });
});
