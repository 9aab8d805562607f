import { describe, expect, it } from 'vitest';
import { getDefaultPage, homeHref } from './default-page.ts';

describe('default page', () => {
  it('reads the cookie among others, 推荐 otherwise', () => {
    expect(getDefaultPage('a=1; sy_home=discover; b=2')).toBe('discover');
    expect(getDefaultPage('sy_home=discover')).toBe('discover');
    expect(getDefaultPage('sy_home=recommend')).toBe('recommend');
    expect(getDefaultPage('x_sy_home=discover')).toBe('recommend');
    expect(getDefaultPage('sy_home=discoverx')).toBe('recommend');
    expect(getDefaultPage('')).toBe('recommend');
  });
  it('maps to the logo target', () => {
    expect(homeHref('discover')).toBe('/discover');
    expect(homeHref('recommend')).toBe('/');
  });
});
