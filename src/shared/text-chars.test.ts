import { describe, expect, it } from 'vitest';
import { hasControlChar, hasForbiddenChar, replaceControlChars } from './text-chars.ts';

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

describe('hasControlChar', () => {
  it.each([
    ['闪映用户', false, false],
    ['tab\there', true, true],
    ['two\nlines', true, false],
    ['windows\r\n', true, true],
    ['line\u2028separator', true, true],
    ['para\u2029graph', true, true],
    ['NUL\u0000', true, true],
    ['C1\u0085', true, true],
    ['\u00A0non-breaking space', false, false],
  ])('%j: one line %s, with newlines %s', (text, oneLine, multiLine) => {
    expect(hasControlChar(text)).toBe(oneLine);
    expect(hasControlChar(text, { newlines: true })).toBe(multiLine);
  });
});

describe('replaceControlChars', () => {
  it('replaces every control character, C1 and DEL included, and nothing else', () => {
    expect(replaceControlChars('a\u0000b\tc\nd\u007Fe\u009Bf\u00A0g', ' ')).toBe('a b c d e f\u00A0g');
    expect(replaceControlChars('clip\r\n.mp4', '')).toBe('clip.mp4');
  });
});
