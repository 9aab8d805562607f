import { expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { chromePartsUrl, chromePartsVersion } from './chrome-parts.ts';

it('gives the chrome parts a new address when a setting they show changes, the same one otherwise', () => {
  const base = { DESKTOP_CLIENT_URL: 'https://dl.example/client.exe' };
  const version = (env: Record<string, string>) => chromePartsVersion(loadConfig(env));
  expect(version({ ...base })).toBe(version({ ...base, SMTP_URL: 'smtp://mail.example' }));
  for (const name of ['DESKTOP_CLIENT_URL', 'BROWSER_EXTENSION_URL', 'ORDERS_URL', 'PAYMENT_CHECKOUT_URL']) {
    expect(version({ ...base, [name]: 'https://other.example/' }), name).not.toBe(version(base));
  }
  expect(chromePartsUrl()).toBe(`/chrome/parts?v=${chromePartsVersion()}`);
});
