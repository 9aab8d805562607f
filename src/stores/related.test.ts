import { beforeEach, describe, expect, it, vi } from 'vitest';
import { testAweme } from '../../tests/unit/aweme.ts';

vi.mock('./api.ts', () => ({ apiGet: vi.fn(), apiPost: vi.fn() }));
const { apiGet } = await import('./api.ts');
const { relatedVideos } = await import('./related.ts');
const get = vi.mocked(apiGet);

const card = (id: string) => ({
  id,
  desc: id,
  poster: '',
  duration: 1,
  createdAt: 0,
  digg: 0,
  author: { secUid: 'a', nickname: 'A' },
});
const answer = (...ids: string[]) => ({ aweme_list: ids.map((id) => testAweme({ aweme_id: id })) });
const filters = () => get.mock.calls.map(([, query]) => (query as { filterGids?: string }).filterGids);

beforeEach(() => {
  get.mockReset();
});

describe('relatedVideos', () => {
  it('换一换 asks for videos not shown yet, then starts over (leaving out the current set) when none are left', async () => {
    const related = relatedVideos('9', [card('1'), card('2')], 2);
    get.mockResolvedValueOnce(answer('3', '4'));
    expect(await related.refresh()).toBe(true);
    expect(related.$items.get().map((v) => v.id)).toEqual(['3', '4']);
    get.mockResolvedValueOnce(answer()).mockResolvedValueOnce(answer('1', '2'));
    expect(await related.refresh()).toBe(true);
    expect(filters()).toEqual(['1,2', '1,2,3,4', '3,4']);
    expect(get).toHaveBeenLastCalledWith('/aweme/v1/web/aweme/related/', {
      aweme_id: '9',
      count: 2,
      refresh_index: 1,
      filterGids: '3,4',
    });
    expect(related.$items.get().map((v) => v.id)).toEqual(['1', '2']);
  });

  it('fills a short server-rendered set up to the count with the videos that come after it, once', async () => {
    const related = relatedVideos('9', [card('1'), card('2')], 4);
    get.mockResolvedValueOnce(answer('3', '4'));
    await related.fill();
    expect(get).toHaveBeenCalledWith('/aweme/v1/web/aweme/related/', {
      aweme_id: '9',
      count: 2,
      refresh_index: 1,
      filterGids: '1,2',
    });
    expect(related.$items.get().map((v) => v.id)).toEqual(['1', '2', '3', '4']);
    await related.fill();
    expect(get).toHaveBeenCalledTimes(1);
    // 换一换 then leaves out all four.
    get.mockResolvedValueOnce(answer('5'));
    await related.refresh();
    expect(filters().at(-1)).toBe('1,2,3,4');
  });

  it('a failed fill keeps the cards shown', async () => {
    const related = relatedVideos('9', [card('1')], 3);
    get.mockRejectedValueOnce(new Error('offline'));
    await related.fill();
    expect(related.$items.get().map((v) => v.id)).toEqual(['1']);
  });

  it('keeps the current set when the request fails or nothing comes, and asks once at a time', async () => {
    const related = relatedVideos('9', [card('1')]);
    get.mockRejectedValueOnce(new Error('offline'));
    expect(await related.refresh()).toBe(false);
    get.mockResolvedValue(answer());
    expect(await related.refresh()).toBe(false);
    expect(related.$items.get().map((v) => v.id)).toEqual(['1']);
    get.mockReset();
    get.mockResolvedValue(answer('5'));
    const first = related.refresh();
    expect(related.$loading.get()).toBe(true);
    expect(await related.refresh()).toBe(false);
    expect(await first).toBe(true);
    expect(get).toHaveBeenCalledTimes(1);
    expect(related.$loading.get()).toBe(false);
  });
});
