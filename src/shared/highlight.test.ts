import { describe, expect, it } from 'vitest';
import { highlightParts } from './highlight.ts';

const marked = (text: string, keyword: string) =>
  highlightParts(text, keyword)
    .map((p) => (p.hit ? `[${p.text}]` : p.text))
    .join('');

describe('highlightParts', () => {
  it('marks the keyword inside Chinese text', () => {
    expect(marked('今天的美食探店 #美食', '美食')).toBe('今天的[美食]探店 #[美食]');
  });

  it('marks every bigram of the keyword, case-insensitively, and keeps the text intact', () => {
    expect(marked('VLOG：周末美食，探店', '美食探店 vlog')).toBe('[VLOG]：周末[美食]，[探店]');
    const parts = highlightParts('<b>美食</b>', '美食');
    expect(parts.map((p) => p.text).join('')).toBe('<b>美食</b>');
    expect(parts.find((p) => p.hit)?.text).toBe('美食');
  });

  it('marks single characters for a one-character keyword, and nothing for a blank one', () => {
    expect(marked('美丽的美食', '美')).toBe('[美]丽的[美]食');
    expect(marked('美丽', '  ')).toBe('美丽');
    expect(highlightParts('', '美')).toEqual([]);
  });
});
