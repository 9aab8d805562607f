import { encode } from 'uqr';
import { describe, expect, it } from 'vitest';
import { qrSvg } from './qr-svg.ts';

describe('qrSvg', () => {
  it('draws a real QR code of the URL as an SVG', () => {
    const url = `https://shanying.dev/qr/${'x'.repeat(43)}`;
    const svg = qrSvg(url);
    expect(svg).toMatch(/^<svg [^>]*role="img"/);
    expect(svg).toContain('aria-label="扫码登录二维码"');
    expect(svg).toContain('fill="#161823"');
    // Rebuild the module grid from the path and compare it with the encoder's matrix, quiet zone included.
    const size = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)![1]);
    const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
    for (const [, x, y, w] of svg.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
      for (let i = 0; i < Number(w); i++) grid[Number(y)]![Number(x) + i] = true;
    }
    const expected = encode(url, { ecc: 'M', border: 4 });
    expect(size).toBe(expected.size);
    expect(grid).toEqual(expected.data);
    expect(grid[0]!.some(Boolean)).toBe(false);
    // Top-left finder pattern: a 7-module dark ring starting after the 4-module quiet zone.
    expect(grid[4]!.slice(4, 11).every(Boolean)).toBe(true);
    expect(grid[5]!.slice(4, 11)).toEqual([true, false, false, false, false, false, true]);
    expect(() => qrSvg('')).toThrow();
  });
});
