import { describe, expect, it } from 'vitest';
import { searchTerms, tokenize } from './search-tokens.ts';

describe('tokenize', () => {
  it('indexes the bigrams of Chinese text', () => {
    const tokens = tokenize('今天的美食探店');
    expect(tokens).toContain('美食');
    expect(tokens).toContain('探店');
    expect(tokens).toContain('美');
    expect(tokens).not.toContain('美食探');
  });

  it('lowercases, strips punctuation and hashtags, and deduplicates', () => {
    const tokens = tokenize('周末 VLOG！#美食 #美食，ＮＢＡ');
    expect(tokens).toContain('vl');
    expect(tokens).toContain('美食');
    expect(tokens).toContain('nb');
    expect(tokens).not.toContain('#');
    expect(tokens).not.toContain(' ');
    expect(tokens).not.toContain('末v');
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('does not join separate runs', () => {
    expect(tokenize('火锅，烧烤')).not.toContain('锅烧');
    expect(tokenize('')).toEqual([]);
    expect(tokenize('！？ …')).toEqual([]);
  });

  it('keeps astral characters whole', () => {
    expect(tokenize('𠮷野家')).toContain('𠮷野');
  });
});

describe('searchTerms', () => {
  it('matches a query by the bigrams of each run, or by the character of a one-character run', () => {
    expect(searchTerms('美食探店')).toEqual(['美食', '食探', '探店']);
    expect(searchTerms('美 VLOG')).toEqual(['美', 'vl', 'lo', 'og']);
    expect(searchTerms('！？ ')).toEqual([]);
  });

  it('gives only terms that tokenize() puts in the index of a text containing the query', () => {
    const text = '周末的美食探店 VLOG #美食';
    const index = new Set(tokenize(text));
    for (const q of ['美食探店', '周末', 'vlog', '店'])
      for (const term of searchTerms(q)) expect(index.has(term), term).toBe(true);
  });
});
