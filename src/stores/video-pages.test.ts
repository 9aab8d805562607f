import { beforeEach, describe, expect, it, vi } from 'vitest';
import { testAweme, testUser } from '../../tests/unit/aweme.ts';
import type { Aweme } from '../shared/api-shapes.ts';

vi.mock('./api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));

const { apiGet } = await import('./api.ts');
const { loadVideos, videoPages } = await import('./video-pages.ts');

const get = vi.mocked(apiGet);

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
beforeEach(() => {
  get.mockReset();
});

describe('loadVideos', () => {
  it('maps awemes to videos and follows max_cursor and has_more', async () => {
    get.mockResolvedValueOnce({ aweme_list: [aweme(1), aweme(2)], max_cursor: 'c26', has_more: 1 });
    const page = await loadVideos('post', 'c24', 24, { secUid: 'sec-a' });
    expect(get).toHaveBeenCalledWith(
      '/aweme/v1/web/aweme/post/',
      { sec_user_id: 'sec-a', max_cursor: 'c24', count: 24 },
      { signal: undefined },
    );
    expect(page.cursor).toBe('c26');
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

  it('asks each list its own endpoint and cursor name, passing the server’s cursor back as is', async () => {
    get.mockResolvedValue({ aweme_list: [], cursor: 'next', has_more: 0 });
    await loadVideos('like', 'c', 24, { secUid: 'sec-a' });
    await loadVideos('favorite_collection', 'c', 24, { secUid: 'sec-a' });
    await loadVideos('record', 'c', 24);
    await loadVideos('watch_later', 'c', 24);
    await loadVideos('channel', 'c', 24, { channelId: 300203 });
    await loadVideos('hot', 'c', 24);
    await loadVideos('friend', 'c', 24);
    await loadVideos('follow', 'c', 24);
    await loadVideos('discover', 'c', 24);
    expect(get.mock.calls.map(([path, query]) => [path, query])).toEqual([
      ['/aweme/v1/web/aweme/favorite/', { sec_user_id: 'sec-a', max_cursor: 'c', count: 24 }],
      ['/aweme/v1/web/aweme/listcollection/', { sec_user_id: 'sec-a', cursor: 'c', count: 24 }],
      ['/aweme/v1/web/history/read/', { max_cursor: 'c', count: 24 }],
      ['/aweme/v1/web/watchlater/list/', { offset: 'c', count: 24 }],
      ['/aweme/v1/web/channel/feed/', { tag_id: 300203, cursor: 'c', count: 24 }],
      ['/aweme/v1/web/hot/aweme/list/', { tag_id: undefined, cursor: 'c', count: 24 }],
      ['/aweme/v1/web/friend/feed/', { tag_id: undefined, cursor: 'c', count: 24 }],
      ['/aweme/v1/web/follow/feed/', { tag_id: undefined, cursor: 'c', count: 24 }],
      ['/aweme/v2/web/module/feed/', { tag_id: undefined, cursor: 'c', count: 24 }],
    ]);
  });

  it('keeps the heat of 热点 videos', async () => {
    get.mockResolvedValueOnce({ aweme_list: [{ ...aweme(1), hot_value: 980 }], cursor: 'c25', has_more: 1 });
    const page = await loadVideos('hot', 'c24', 24);
    expect(page.items[0]).toMatchObject({ id: '1', heat: 980 });
    expect(page.cursor).toBe('c25');
  });

  it('reads the end of a list from has_more', async () => {
    get.mockResolvedValueOnce({ aweme_list: [aweme(3)], offset: 'c3', has_more: 0 });
    const page = await loadVideos('watch_later', 'c2', 24);
    expect(page).toMatchObject({ cursor: 'c3', hasMore: false, items: [{ id: '3' }] });
  });
});

describe('videoPages', () => {
  it('goes on after the server’s cards, never repeating one the server or an earlier page showed', async () => {
    const pages = videoPages('channel', 'c2', 2, { channelId: 300201 });
    pages.skip(['1', '2']);
    get.mockResolvedValueOnce({ aweme_list: [aweme(2), aweme(3)], cursor: 'c4', has_more: 1 });
    await pages.load();
    get.mockResolvedValueOnce({ aweme_list: [aweme(3), aweme(4)], cursor: 'c6', has_more: 0 });
    await pages.load();
    expect(pages.$items.get().map((v) => v.id)).toEqual(['3', '4']);
    expect(get.mock.calls.map(([, query]) => (query as { cursor: string }).cursor)).toEqual(['c2', 'c4']);
    expect(pages.$state.get()).toMatchObject({ hasMore: false, cursor: 'c6' });
    await pages.load();
    expect(get).toHaveBeenCalledTimes(2);
  });
});
