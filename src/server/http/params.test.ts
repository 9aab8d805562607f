import { describe, expect, it } from 'vitest';
import { parseId } from './params.ts';

describe('parseId', () => {
  it('accepts positive int4 ids only', () => {
    expect(parseId('42')).toBe(42);
    expect(parseId('2147483647')).toBe(2147483647);
    for (const bad of [undefined, '', '0', '-1', '1.5', 'abc', '2147483648', '99999999999', '1e3', ' 1'])
      expect(parseId(bad)).toBeNull();
  });
});
