import { beforeEach, describe, expect, it, vi } from 'vitest';
import { testAweme } from '../../tests/unit/aweme.ts';

vi.mock('./api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));
const { apiGet } = await import('./api.ts');
const { feedPages, fetchFeed } = await import('./feed-pages.ts');
const { fromAweme } = await import('../shared/video-item.ts');
const get = vi.mocked(apiGet);

const aweme = (id: string, secUid: string) => testAweme({ aweme_id: id, secUid });
const video = (id: string, secUid: string) => fromAweme(aweme(id, secUid));
const answer = (list: ReturnType<typeof aweme>[], hasMore = true, cursor = `after-${list.at(-1)?.aweme_id}`) => ({
  aweme_list: list,
  has_more: hasMore ? 1 : 0,
  cursor,
});
const ids = (feed: ReturnType<typeof feedPages>) => feed.$items.get().map((v) => v.id);

beforeEach(() => {
  get.mockReset();
});

describe('fetchFeed', () => {
  it('fetches the feed page after a cursor, and the cursor after it', async () => {
    get.mockResolvedValueOnce(answer([aweme('42', 'MS4wA')]));
    expect(await fetchFeed('c3', 5)).toEqual({ items: [fromAweme(testAweme())], hasMore: true, cursor: 'after-42' });
    expect(get).toHaveBeenCalledWith('/aweme/v1/web/tab/feed/', { count: 5, cursor: 'c3' });
  });
});

describe('feedPages', () => {
  it('asks for the page after each cursor, from the server’s page on, and stops when the server has no more', async () => {
    const feed = feedPages({ items: [video('1', 'a')], hasMore: true, cursor: 'after-1' }, 5);
    get.mockResolvedValueOnce(answer([aweme('2', 'b')])).mockResolvedValueOnce(answer([aweme('3', 'c')], false));
    await feed.load();
    await feed.load();
    await feed.load();
    expect(get.mock.calls.map(([, query]) => query)).toEqual([
      { count: 5, cursor: 'after-1' },
      { count: 5, cursor: 'after-2' },
    ]);
    expect(ids(feed)).toEqual(['1', '2', '3']);
    expect(feed.$state.get()).toMatchObject({ hasMore: false, cursor: 'after-3' });
  });

  it('drops videos already shown (the ranking moved) and those marked 不感兴趣, and spreads authors at the seam', async () => {
    const feed = feedPages({ items: [video('1', 'a'), video('2', 'b')], hasMore: true, cursor: 'after-2' }, 5);
    feed.remove('1');
    get.mockResolvedValueOnce(
      answer([aweme('1', 'a'), aweme('2', 'b'), aweme('3', 'b'), aweme('4', 'b'), aweme('5', 'c')]),
    );
    await feed.load();
    expect(ids(feed)).toEqual(['2', '5', '3', '4']);
  });

  it('a page of videos all shown moves on to the cursor after it', async () => {
    const feed = feedPages({ items: [video('1', 'a')], hasMore: true, cursor: 'after-1' }, 5);
    get.mockResolvedValueOnce(answer([aweme('1', 'a')], true, 'c3')).mockResolvedValueOnce(answer([aweme('2', 'b')]));
    await feed.load();
    expect(ids(feed)).toEqual(['1']);
    expect(feed.$state.get()).toMatchObject({ hasMore: true, cursor: 'c3' });
    await feed.load();
    expect(ids(feed)).toEqual(['1', '2']);
  });

  it('a failed page is asked for again', async () => {
    const feed = feedPages({ items: [video('1', 'a')], hasMore: true, cursor: 'after-1' }, 5);
    get.mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce(answer([aweme('2', 'b')]));
    await feed.load();
    expect(feed.$state.get()).toMatchObject({ error: true, cursor: 'after-1' });
    await feed.load();
    expect(get.mock.calls.map(([, query]) => (query as { cursor: string }).cursor)).toEqual(['after-1', 'after-1']);
    expect(ids(feed)).toEqual(['1', '2']);
  });

  it('a video the shared first page showed takes the reason the member’s own answer gives it', async () => {
    const first = {
      ...video('1', 'a'),
      reason: { code: 'popular', text: '热门', signals: [], channelId: 3, channelName: '美食' },
    };
    const feed = feedPages({ items: [first as never], hasMore: true, cursor: 'after-1' }, 5);
    const mine = { code: 'affinity', text: '你常看的美食', signals: ['channel'], channel_id: 3, channel_name: '美食' };
    get.mockResolvedValueOnce(answer([{ ...aweme('1', 'a'), recommend_reason: mine } as never, aweme('2', 'b')]));
    await feed.load();
    expect(ids(feed)).toEqual(['1', '2']);
    expect(feed.$items.get()[0]!.reason).toMatchObject({ code: 'affinity', text: '你常看的美食', channelId: 3 });
  });
});
