import { describe, expect, it } from 'vitest';
import { statsQuery, statsRange, statsWorkId } from './creator-stats.ts';

describe('the 作品数据 query string', () => {
  it.each([
    ['7', 7],
    ['30', 30],
    [null, 7],
    ['14', 7],
    ['30.0', 7],
  ] as const)('days=%s → %s', (value, days) => {
    expect(statsRange(value)).toBe(days);
  });
  it.each([
    ['12', 12],
    ['', undefined],
    ['0', undefined],
    ['-3', undefined],
    ['1e3', undefined],
    ['99999999999', undefined],
  ] as const)('workId=%s → %s', (value, id) => {
    expect(statsWorkId(value)).toBe(id);
  });
  it('reads both from a URL', () => {
    expect(statsQuery(new URL('http://x/post/data?days=30&workId=5').searchParams)).toEqual({ days: 30, workId: 5 });
    expect(statsQuery(new URL('http://x/post/data?workId=').searchParams)).toEqual({ days: 7 });
  });
});
