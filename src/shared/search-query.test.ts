import { describe, expect, it } from 'vitest';
import { MAX_QUERY, normalizeQuery, parseSearchType, searchPath } from './search-query.ts';

describe('search query rules', () => {
  it('cuts at 100 characters and trims', () => {
    expect(MAX_QUERY).toBe(100);
    expect(normalizeQuery('a'.repeat(101))).toBe('a'.repeat(100));
    // The cut can leave a trailing space, which goes too.
    expect(normalizeQuery(` ${'美'.repeat(99)} x`)).toBe('美'.repeat(99));
    expect(normalizeQuery(' \t ')).toBe('');
  });

  it('builds result paths with the tab in the URL', () => {
    expect(searchPath('美食')).toBe('/search/%E7%BE%8E%E9%A3%9F');
    expect(searchPath('a/b?c', 'user')).toBe('/search/a%2Fb%3Fc?type=user');
    expect(
      searchPath('美食', 'video', [
        ['sort_type', '2'],
        ['filter_duration', '0-1'],
      ]),
    ).toBe('/search/%E7%BE%8E%E9%A3%9F?type=video&sort_type=2&filter_duration=0-1');
    expect(searchPath('美食', 'general', [['publish_time', '7']])).toBe('/search/%E7%BE%8E%E9%A3%9F?publish_time=7');
    expect(parseSearchType('video')).toBe('video');
    expect(parseSearchType('nope')).toBe('general');
    expect(parseSearchType(null)).toBe('general');
  });
});
