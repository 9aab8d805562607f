import { describe, expect, it } from 'vitest';
import { durationRange, filterParams, isFiltered, NO_FILTERS, parseFilters } from './search-filters.ts';

const params = (q: string) => new URLSearchParams(q);

describe('search filters', () => {
  it("reads Douyin's parameters from an address, anything unknown as the default", () => {
    expect(parseFilters(params('sort_type=2&publish_time=7&filter_duration=1-5'))).toEqual({
      sortType: 2,
      publishTime: 7,
      duration: '1-5',
    });
    expect(parseFilters(params('sort_type=9&publish_time=30&filter_duration=2-3'))).toEqual(NO_FILTERS);
    expect(parseFilters(params(''))).toEqual(NO_FILTERS);
    expect(isFiltered(NO_FILTERS)).toBe(false);
    expect(isFiltered({ ...NO_FILTERS, publishTime: 1 })).toBe(true);
  });

  it('writes only the filters that differ from the default, and reads them back', () => {
    const f = { sortType: 1, publishTime: 0, duration: '5-10000' } as const;
    expect(filterParams(f)).toEqual([
      ['sort_type', '1'],
      ['filter_duration', '5-10000'],
    ]);
    expect(parseFilters(new URLSearchParams(filterParams(f)))).toEqual(f);
    expect(filterParams(NO_FILTERS)).toEqual([]);
  });

  it('turns a duration into a range of milliseconds, the last open-ended', () => {
    expect(durationRange('0')).toEqual({ minMs: 0, maxMs: null });
    expect(durationRange('0-1')).toEqual({ minMs: 0, maxMs: 60_000 });
    expect(durationRange('1-5')).toEqual({ minMs: 60_000, maxMs: 300_000 });
    expect(durationRange('5-10000')).toEqual({ minMs: 300_000, maxMs: null });
  });
});
