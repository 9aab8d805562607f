import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes.ts';

describe('formatBytes', () => {
  it.each([
    [0, '0B'],
    [980, '980B'],
    [1024, '1KB'],
    [12.5 * 1024, '12.5KB'],
    [500 * 1024 * 1024, '500MB'],
    [1.25 * 1024 ** 3, '1.3GB'],
    [-5, '0B'],
  ])('%d bytes read %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});
