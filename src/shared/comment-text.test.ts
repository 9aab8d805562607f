import { describe, expect, it } from 'vitest';
import { canPublish, commentLength } from './comment-text.ts';

describe('comment length', () => {
  it('counts code points, and allows 1 to 500 of them besides whitespace', () => {
    expect(commentLength('😀😀')).toBe(2);
    expect(canPublish('   ')).toBe(false);
    expect(canPublish('评'.repeat(500))).toBe(true);
    expect(canPublish('评'.repeat(501))).toBe(false);
    expect(canPublish('😀'.repeat(500))).toBe(true);
  });
});
