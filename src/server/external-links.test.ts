import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { externalLink } from './external-links.ts';

describe('externalLink', () => {
  it.each([
    [{}, undefined],
    [{ DESKTOP_CLIENT_URL: '' }, undefined],
    [{ DESKTOP_CLIENT_URL: ' https://dl.shanying.cn/setup-2.8.0.exe ' }, 'https://dl.shanying.cn/setup-2.8.0.exe'],
  ])('%j → %j', (env, expected) => {
    expect(externalLink('desktopClient', loadConfig(env))).toBe(expected);
  });

  it('reads each service from its own variable', () => {
    const settings = loadConfig({
      BROWSER_EXTENSION_URL: 'https://ext.shanying.cn/',
      ORDERS_URL: 'http://orders.shanying.cn/mine',
    });
    expect(externalLink('browserExtension', settings)).toBe('https://ext.shanying.cn/');
    expect(externalLink('orders', settings)).toBe('http://orders.shanying.cn/mine');
    expect(externalLink('desktopClient', settings)).toBeUndefined();
  });

  it('takes only absolute http and https URLs: anything else stops the start, named', () => {
    for (const bad of ['downloads/setup.exe', 'javascript:alert(1)', 'ftp://files.shanying.cn/x']) {
      expect(() => loadConfig({ DESKTOP_CLIENT_URL: bad }), bad).toThrow(/DESKTOP_CLIENT_URL: expected an absolute/);
    }
  });
});
