import { describe, expect, it } from 'vitest';
import { formatCount } from '../i18n/t.ts';
import { formatCountWith } from './format-count.ts';

describe('formatCountWith', () => {
  it('formats like the catalogue’s formatCount', () => {
    for (const n of [0, 9999, 10_000, 12_345, 100_000, 99_999_999, 340_000_000]) expect(formatCountWith(n, ['万', '亿'])).toBe(formatCount(n));
  });
});
