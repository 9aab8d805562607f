import { describe, expect, it, vi } from 'vitest';
import { pagedList, phaseOf, type FetchedPage } from './paged-list.ts';

type Row = { id: string };
const rows = (...ids: string[]): Row[] => ids.map((id) => ({ id }));
const page = (cursor: number, hasMore: boolean, ...ids: string[]): FetchedPage<Row> => ({
  items: rows(...ids),
  cursor,
  hasMore,
});
const ids = (list: { $items: { get(): Row[] } }) => list.$items.get().map((r) => r.id);

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('pagedList', () => {
  it('loads the first page on reset, then the next ones from the cursor, until the end', async () => {
    const fetchPage = vi
      .fn()
      .mockResolvedValueOnce(page(2, true, 'a', 'b'))
      .mockResolvedValueOnce(page(3, false, 'c'));
    const list = pagedList<Row>({ keyOf: (r) => r.id, fetchPage });
    expect(phaseOf(list.$state.get())).toBe('idle');
    await list.load();
    expect(fetchPage).not.toHaveBeenCalled();
    await list.load(true);
    await list.load();
    await list.load();
    expect(fetchPage.mock.calls).toEqual([[0], [2]]);
    expect(ids(list)).toEqual(['a', 'b', 'c']);
    expect(phaseOf(list.$state.get())).toBe('done');
  });

  it('goes on after a first page it was started with, skipping what the server rendered, what it showed and what was removed', async () => {
    const fetchPage = vi
      .fn()
      .mockResolvedValueOnce(page(4, true, 'b', 'c', 'd', 'e'))
      .mockResolvedValueOnce(page(6, true, 'a', 'f', 'f'));
    const list = pagedList<Row>({
      keyOf: (r) => r.id,
      fetchPage,
      start: { items: rows('a'), cursor: 2, hasMore: true },
    });
    list.skip(['b']);
    await list.load();
    list.remove('a');
    await list.load();
    expect(fetchPage.mock.calls).toEqual([[2], [4]]);
    expect(ids(list)).toEqual(['c', 'd', 'e', 'f']);
  });

  it('joins pages its own way when told (the feed spreads authors)', async () => {
    const fetchPage = vi.fn().mockResolvedValueOnce(page(1, true, 'b', 'c'));
    const list = pagedList<Row>({
      keyOf: (r) => r.id,
      fetchPage,
      start: { items: rows('a'), cursor: 0, hasMore: true },
      join: (known, fresh) => [...fresh, ...known],
    });
    await list.load();
    expect(ids(list)).toEqual(['b', 'c', 'a']);
  });

  it('ends at an empty page even when the server says there is more', async () => {
    const list = pagedList<Row>({
      keyOf: (r) => r.id,
      fetchPage: async () => page(5, true),
      start: { cursor: 5, hasMore: true },
    });
    await list.load();
    expect(list.$state.get()).toMatchObject({ hasMore: false, loaded: true });
    expect(phaseOf(list.$state.get())).toBe('done');
  });

  it('keeps its place after a failure, so the next load asks again', async () => {
    const fetchPage = vi
      .fn()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce(page(4, true, 'x'));
    const list = pagedList<Row>({ keyOf: (r) => r.id, fetchPage, start: { cursor: 2, hasMore: true } });
    await list.load();
    expect(phaseOf(list.$state.get())).toBe('error');
    await list.load();
    expect(fetchPage.mock.calls).toEqual([[2], [2]]);
    expect(ids(list)).toEqual(['x']);
  });

  it('asks once at a time, and drops an answer overtaken by a reset', async () => {
    const slow = deferred<FetchedPage<Row>>();
    const fetchPage = vi
      .fn()
      .mockReturnValueOnce(slow.promise)
      .mockResolvedValueOnce(page(1, true, 'new'));
    const list = pagedList<Row>({ keyOf: (r) => r.id, fetchPage, start: { cursor: 3, hasMore: true } });
    const first = list.load();
    expect(phaseOf(list.$state.get())).toBe('loading');
    await list.load();
    expect(fetchPage).toHaveBeenCalledTimes(1);
    await list.load(true);
    slow.resolve(page(9, false, 'old'));
    await first;
    expect(ids(list)).toEqual(['new']);
    expect(list.$state.get()).toMatchObject({ cursor: 1, hasMore: true });
  });

  it('a reset starts the seen keys over, and empties the list first when asked to', async () => {
    const fetchPage = vi
      .fn()
      .mockResolvedValueOnce(page(1, true, 'a'))
      .mockResolvedValueOnce(page(1, true, 'a'));
    const list = pagedList<Row>({ keyOf: (r) => r.id, fetchPage, clearOnReset: true });
    await list.load(true);
    const again = list.load(true);
    expect(ids(list)).toEqual([]);
    await again;
    expect(ids(list)).toEqual(['a']);
  });
});
