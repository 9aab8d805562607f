import { describe, expect, it } from 'vitest';
import { externalLink, httpUrl } from './external-links.ts';

describe('externalLink', () => {
  it.each([
    [{}, undefined],
    [{ DESKTOP_CLIENT_URL: '' }, undefined],
    [{ DESKTOP_CLIENT_URL: 'downloads/setup.exe' }, undefined],
    [{ DESKTOP_CLIENT_URL: 'javascript:alert(1)' }, undefined],
    [{ DESKTOP_CLIENT_URL: ' https://dl.shanying.cn/setup-2.8.0.exe ' }, 'https://dl.shanying.cn/setup-2.8.0.exe'],
  ])('%j → %j', (env, expected) => {
    expect(externalLink('desktopClient', env)).toBe(expected);
  });

  it('reads each service from its own variable', () => {
    const env = { BROWSER_EXTENSION_URL: 'https://ext.shanying.cn/', ORDERS_URL: 'http://orders.shanying.cn/mine' };
    expect(externalLink('browserExtension', env)).toBe('https://ext.shanying.cn/');
    expect(externalLink('orders', env)).toBe('http://orders.shanying.cn/mine');
    expect(externalLink('desktopClient', env)).toBeUndefined();
  });

  it('takes only http and https', () => {
    expect(httpUrl('ftp://files.shanying.cn/x')).toBeUndefined();
    expect(httpUrl('https://shanying.cn')).toBe('https://shanying.cn');
  });
});
