import { describe, expect, it } from 'vitest';
import { formatCountWith } from './format-count.ts';

describe('formatCountWith', () => {
  it.each([
    [0, '0'],
    [9999, '9999'],
    [10_000, '1万'],
    [12_345, '1.2万'],
    [19_999, '1.9万'],
    [100_000, '10万'],
    [99_999_999, '9999.9万'],
    [340_000_000, '3.4亿'],
  ])('%d → %s', (n, shown) => {
    expect(formatCountWith(n, ['万', '亿'])).toBe(shown);
  });
});
