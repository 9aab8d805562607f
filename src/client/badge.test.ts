import { describe, expect, it } from 'vitest';
import { badgeText } from './badge.ts';

describe('badgeText', () => {
  it('shows counts up to 99 and 99+ above', () => {
    expect(badgeText(1)).toBe('1');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
    expect(badgeText(120)).toBe('99+');
  });
  it('shows nothing for zero, negative or broken counts', () => {
    expect(badgeText(0)).toBe('');
    expect(badgeText(-3)).toBe('');
    expect(badgeText(Number.NaN)).toBe('');
  });
  it('takes another maximum', () => {
    expect(badgeText(10, 9)).toBe('9+');
  });
});
