import { beforeEach, describe, expect, it, vi } from 'vitest';
import { testAweme, testUser } from '../../tests/unit/aweme.ts';
import type { Aweme, VideoB } from '../shared/api-shapes.ts';

vi.mock('../client/api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));

const { apiGet, apiPost } = await import('../client/api.ts');
const { loadVideos, videoPages } = await import('./video-pages.ts');

const get = vi.mocked(apiGet);
const post = vi.mocked(apiPost);

const aweme = (id: number, secUid = 'sec-a'): Aweme => {
  const base = testAweme();
  return testAweme({
    aweme_id: String(id),
    desc: `video ${id}`,
    create_time: 1_700_000_000 + id,
    text_extra: [],
    author: testUser({
      uid: '1',
      sec_uid: secUid,
      nickname: 'A',
      avatar_thumb: { uri: 'a.webp', url_list: ['/media/a.webp'] },
    }),
    statistics: {
      ...base.statistics,
      digg_count: id * 10,
      comment_count: 0,
      collect_count: 0,
      share_count: 0,
      play_count: 0,
    },
    user_digged: 0,
    video: {
      ...base.video,
      play_addr: { ...base.video.play_addr, url_list: [`/media/c${id}.mp4`] },
      bit_rate: [],
      cover: { ...base.video.cover, url_list: [`/media/p${id}.webp`] },
      duration: 8000,
    },
  });
};
const videoB = (id: number): VideoB => ({
  id,
  desc: `video ${id}`,
  cover: `/media/p${id}.webp`,
  playUrl: `/media/c${id}.mp4`,
  duration: 7000,
  width: 540,
  height: 960,
  createTime: 1_700_000_000_000 + id,
  channelId: 300201,
  diggCount: id,
  commentCount: 0,
  collectCount: 0,
  shareCount: 0,
  playCount: 0,
  isLiked: false,
  isCollected: false,
  author: { id: 2, secUid: 'sec-b', nickname: 'B', avatar: '/media/b.webp' },
});

beforeEach(() => {
  get.mockReset();
  post.mockReset();
});

describe('loadVideos', () => {
  it('maps awemes to videos and follows max_cursor and has_more', async () => {
    get.mockResolvedValueOnce({ aweme_list: [aweme(1), aweme(2)], max_cursor: 26, has_more: 1 });
    const page = await loadVideos('post', 24, 24, { secUid: 'sec-a' });
    expect(get).toHaveBeenCalledWith(
      '/aweme/v1/web/aweme/post/',
      { sec_user_id: 'sec-a', max_cursor: 24, count: 24 },
      { signal: undefined },
    );
    expect(page.cursor).toBe(26);
    expect(page.hasMore).toBe(true);
    expect(page.items).toMatchObject([
      {
        id: '1',
        desc: 'video 1',
        poster: '/media/p1.webp',
        digg: 10,
        duration: 8000,
        author: { secUid: 'sec-a', nickname: 'A' },
        createdAt: 1_700_000_001_000,
      },
      {
        id: '2',
        desc: 'video 2',
        poster: '/media/p2.webp',
        digg: 20,
        duration: 8000,
        author: { secUid: 'sec-a', nickname: 'A' },
        createdAt: 1_700_000_002_000,
      },
    ]);
  });

  it('asks each list its own endpoint and cursor name', async () => {
    get.mockResolvedValue({ aweme_list: [], cursor: 24, has_more: 0 });
    await loadVideos('like', 24, 24, { secUid: 'sec-a' });
    await loadVideos('favorite_collection', 24, 24, { secUid: 'sec-a' });
    await loadVideos('record', 24, 24);
    await loadVideos('channel', 24, 24, { channelId: 300203 });
    await loadVideos('hot', 24, 24);
    await loadVideos('friend', 24, 24);
    expect(get.mock.calls.map(([path, query]) => [path, query])).toEqual([
      ['/aweme/v1/web/aweme/favorite/', { sec_user_id: 'sec-a', max_cursor: 24, count: 24 }],
      ['/aweme/v1/web/aweme/listcollection/', { sec_user_id: 'sec-a', cursor: 24, count: 24 }],
      ['/aweme/v1/web/history/read/', { max_cursor: 24, count: 24 }],
      ['/aweme/v1/web/channel/feed/', { tag_id: 300203, cursor: 24, count: 24 }],
      ['/aweme/v1/web/hot/aweme/list/', { tag_id: undefined, cursor: 24, count: 24 }],
      ['/aweme/v1/web/friend/feed/', { tag_id: undefined, cursor: 24, count: 24 }],
    ]);
  });

  it('keeps the heat of 热点 videos', async () => {
    get.mockResolvedValueOnce({ aweme_list: [{ ...aweme(1), hot_value: 980 }], cursor: 25, has_more: 1 });
    const page = await loadVideos('hot', 24, 24);
    expect(page.items[0]).toMatchObject({ id: '1', heat: 980 });
    expect(page.cursor).toBe(25);
  });

  it('turns the watch-later offset into a page number', async () => {
    get.mockResolvedValueOnce({ code: '200', data: { videosList: [videoB(3)], hasMore: false } });
    const page = await loadVideos('watch_later', 48, 24);
    expect(get).toHaveBeenCalledWith(
      '/video/self',
      { showTab: 'watch_later', page: 3, size: 24 },
      { signal: undefined },
    );
    expect(page.cursor).toBe(49);
    expect(page.hasMore).toBe(false);
    expect(page.items[0]).toMatchObject({
      id: '3',
      poster: '/media/p3.webp',
      author: { secUid: 'sec-b' },
      createdAt: 1_700_000_000_003,
    });
  });

  it('reads a full 关注 or 首页 page as maybe more, a short one as the end', async () => {
    post.mockResolvedValueOnce({ data: [videoB(1), videoB(2)] }).mockResolvedValueOnce({ data: [videoB(3)] });
    expect((await loadVideos('follow', 0, 2)).hasMore).toBe(true);
    const last = await loadVideos('follow', 2, 2);
    expect(post).toHaveBeenLastCalledWith('/video/myAttentionVideos', { cursor: 2, size: 2 }, { signal: undefined });
    expect(last).toMatchObject({ cursor: 3, hasMore: false });
    post.mockResolvedValueOnce({ data: [videoB(4)] });
    expect(await loadVideos('discover', 24, 24)).toMatchObject({ cursor: 25, hasMore: false, items: [{ id: '4' }] });
    expect(post).toHaveBeenLastCalledWith('/video/getVideosByCursor', { cursor: 24, size: 24 }, { signal: undefined });
  });
});

describe('videoPages', () => {
  it('goes on after the server’s cards, never repeating one the server or an earlier page showed', async () => {
    const pages = videoPages('channel', 2, 2, { channelId: 300201 });
    pages.skip(['1', '2']);
    get.mockResolvedValueOnce({ aweme_list: [aweme(2), aweme(3)], cursor: 4, has_more: 1 });
    await pages.load();
    get.mockResolvedValueOnce({ aweme_list: [aweme(3), aweme(4)], cursor: 6, has_more: 0 });
    await pages.load();
    expect(pages.$items.get().map((v) => v.id)).toEqual(['3', '4']);
    expect(get.mock.calls.map(([, query]) => (query as { cursor: number }).cursor)).toEqual([2, 4]);
    expect(pages.$state.get()).toMatchObject({ hasMore: false, cursor: 6 });
    await pages.load();
    expect(get).toHaveBeenCalledTimes(2);
  });
});
