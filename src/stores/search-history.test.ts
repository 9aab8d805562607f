import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  $searchHistory,
  addHistory,
  clearHistory,
  HISTORY_MAX,
  removeHistory,
  submitSearch,
} from './search-history.ts';

const texts = () => $searchHistory.get().map((e) => e.text);

describe('search history', () => {
  beforeEach(() => clearHistory());

  it('keeps searches newest first, without duplicates, at most 20, and ignores blank text', () => {
    addHistory('美食');
    addHistory('旅行');
    addHistory(' 美食 ');
    addHistory('   ');
    expect(texts()).toEqual(['美食', '旅行']);
    for (let i = 0; i < 30; i++) addHistory(`词${i}`);
    expect(texts()).toHaveLength(HISTORY_MAX);
    expect(texts()[0]).toBe('词29');
    expect(new Set($searchHistory.get().map((e) => e.id)).size).toBe(HISTORY_MAX);
  });

  it('removes one entry or all', () => {
    addHistory('一');
    addHistory('二');
    removeHistory($searchHistory.get()[1]!.id);
    expect(texts()).toEqual(['二']);
    clearHistory();
    expect(texts()).toEqual([]);
  });
});

describe('submitSearch', () => {
  const open = vi.fn();
  const assign = vi.fn();
  beforeEach(() => {
    clearHistory();
    vi.stubGlobal('window', { open, location: { assign } });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    open.mockReset();
    assign.mockReset();
  });

  it('does nothing for blank text', () => {
    expect(submitSearch('  \t', 'new')).toBeNull();
    expect(open).not.toHaveBeenCalled();
    expect(texts()).toEqual([]);
  });

  it('opens the results of the text cut at 100 characters in a new window, or in this one, and records it', () => {
    expect(submitSearch(` ${'长'.repeat(101)} `, 'new')).toBe('长'.repeat(100));
    expect(open).toHaveBeenCalledWith(`/search/${encodeURIComponent('长'.repeat(100))}`, '_blank', 'noopener');
    submitSearch('美食', 'same');
    expect(assign).toHaveBeenCalledWith('/search/%E7%BE%8E%E9%A3%9F');
    expect(texts()).toEqual(['美食', '长'.repeat(100)]);
  });
});
