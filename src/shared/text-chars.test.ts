import { describe, expect, it } from 'vitest';
import { hasForbiddenChar } from './text-chars.ts';

describe('hasForbiddenChar', () => {
  it.each([
    ['a\u0000b', true],
    ['\u0007', true],
    ['\u001B[31m', true],
    ['\uD800', true],
    ['x\uDC00', true],
    ['a\u007Fb', true],
    ['a\u0085b', true],
    ['\u009B31m', true],
    ['\u00A0non-breaking space', false],
    ['plain', false],
    ['多行\n文字\r\n\t缩进', false],
    ['😀 emoji', false],
    ['', false],
  ])('%j → %s', (text, forbidden) => {
    expect(hasForbiddenChar(text)).toBe(forbidden);
  });
});
