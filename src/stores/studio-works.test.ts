import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StudioWork } from '../shared/studio.ts';

vi.mock('./studio-api.ts', () => ({ studioGet: vi.fn(), studioPost: vi.fn() }));

const { studioGet, studioPost } = await import('./studio-api.ts');
const { $works, $worksState, deleteWork, loadWorks, saveWork, seedWorks, watchProcessing } =
  await import('./studio-works.ts');
const get = vi.mocked(studioGet);
const post = vi.mocked(studioPost);

const work = (id: number, over: Partial<StudioWork> = {}) =>
  ({ id, title: `作品${id}`, status: 'published', ...over }) as StudioWork;

beforeEach(() => {
  get.mockReset();
  post.mockReset();
  $works.set([]);
  $worksState.set({ loading: false, loaded: false, hasMore: false, cursor: '0', error: false });
});
afterEach(() => vi.useRealTimers());

describe('works', () => {
  it('starts from the server’s page and asks for the next in the server’s page size', async () => {
    seedWorks({ items: [work(3), work(2)], cursor: 'after-2', hasMore: true });
    expect($works.get().map((w) => w.id)).toEqual([3, 2]);
    // A second seed (the island rendered again) does not undo what happened since.
    seedWorks({ items: [], cursor: '0', hasMore: false });
    expect($works.get()).toHaveLength(2);
    get.mockResolvedValue({ items: [work(2), work(1)], cursor: 'after-1', hasMore: false });
    await loadWorks();
    expect(get).toHaveBeenCalledWith('/api/studio/works', { cursor: 'after-2' });
    expect($works.get().map((w) => w.id)).toEqual([3, 2, 1]);
    expect($worksState.get()).toMatchObject({ hasMore: false, cursor: 'after-1' });
  });

  it('puts a saved work in place and drops a deleted one (the cursor, the last work loaded, stays)', async () => {
    seedWorks({ items: [work(3), work(2)], cursor: 'after-2', hasMore: true });
    post.mockResolvedValueOnce(work(2, { title: '新标题' }));
    await saveWork({ workId: 2, title: '新标题' });
    expect(post).toHaveBeenCalledWith('/api/studio/work/edit', { workId: 2, title: '新标题' }, { quiet: true });
    expect($works.get()[1]!.title).toBe('新标题');
    post.mockResolvedValueOnce({ workId: 3 });
    await deleteWork(3);
    expect(post).toHaveBeenLastCalledWith('/api/studio/work/delete', { workId: 3 }, { quiet: true });
    expect($works.get().map((w) => w.id)).toEqual([2]);
    expect($worksState.get().cursor).toBe('after-2');
  });

  it('a refused delete keeps the work', async () => {
    seedWorks({ items: [work(3)], cursor: 'after-3', hasMore: false });
    post.mockRejectedValueOnce(new Error('作品不存在'));
    await expect(deleteWork(3)).rejects.toThrow('作品不存在');
    expect($works.get()).toHaveLength(1);
  });

  it('follows processing works until they are published, then stops asking', async () => {
    vi.useFakeTimers();
    seedWorks({ items: [work(5, { status: 'processing' }), work(4)], cursor: 'after-4', hasMore: false });
    get
      .mockResolvedValueOnce(work(5, { status: 'processing' }))
      .mockResolvedValueOnce(work(5, { status: 'published', cover: '/p.webp' }));
    const stop = watchProcessing(1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(get).toHaveBeenCalledWith('/api/studio/work', { workId: 5 }, { quiet: true });
    await vi.advanceTimersByTimeAsync(1000);
    expect($works.get()[0]).toMatchObject({ status: 'published', cover: '/p.webp' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(get).toHaveBeenCalledTimes(2);
    stop();
  });
});
