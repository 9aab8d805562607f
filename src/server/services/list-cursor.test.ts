import { describe, expect, it } from 'vitest';
import { cursorKey, encodeCursor, parseCursor } from './list-cursor.ts';
import { ServiceError } from '../errors.ts';

describe('list cursors', () => {
  it('carry a list’s sort key through the client and back, infinities included', () => {
    const token = encodeCursor('pop', [-Infinity, 42]);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(parseCursor(token)).toEqual({ kind: 'pop', key: [-Infinity, 42] });
    expect(cursorKey(token, 'pop', 2)).toEqual([-Infinity, 42]);
    const micros = 1_795_000_000_123_456;
    expect(cursorKey(encodeCursor('like', [micros, 7]), 'like', 2)).toEqual([micros, 7]);
  });

  it('read no cursor, an empty one and 0 as the start of the list', () => {
    for (const start of [undefined, '', '0']) expect(cursorKey(start, 'pop', 2)).toBeNull();
  });

  it('refuse a token of another list, of another shape, or not one of ours (a 400)', () => {
    const refuse = (token: string) => {
      try {
        cursorKey(token, 'pop', 2);
      } catch (error) {
        return error instanceof ServiceError && error.kind === 'invalid' && error.key === 'error.badCursor';
      }
      return false;
    };
    expect(refuse(encodeCursor('cmt', [1, 2]))).toBe(true);
    expect(refuse(encodeCursor('pop', [1]))).toBe(true);
    expect(refuse('20')).toBe(true);
    expect(refuse(Buffer.from('["pop",{"x":1},2]').toString('base64url'))).toBe(true);
    expect(refuse('a'.repeat(500))).toBe(true);
    expect(parseCursor('not base64!')).toBeNull();
  });
});

describe('a forged cursor', () => {
  it('with a fraction, a number past 2^53 or a NaN where a whole number goes is a 400, not a database error', async () => {
    const { finite } = await import('./list-cursor.ts');
    for (const bad of [1.5, 2 ** 60, NaN, Infinity, null]) expect(() => finite(bad)).toThrow(ServiceError);
    expect(finite(1_795_000_000_123_456)).toBe(1_795_000_000_123_456);
  });
});
