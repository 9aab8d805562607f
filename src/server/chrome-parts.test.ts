import { expect, it } from 'vitest';
import { chromePartsUrl, chromePartsVersion } from './chrome-parts.ts';

it('gives the chrome parts a new address when a setting they show changes, the same one otherwise', () => {
  const base = { DESKTOP_CLIENT_URL: 'https://dl.example/client.exe' };
  expect(chromePartsVersion({ ...base })).toBe(chromePartsVersion({ ...base, UNRELATED: 'x' }));
  for (const name of ['DESKTOP_CLIENT_URL', 'BROWSER_EXTENSION_URL', 'ORDERS_URL', 'PAYMENT_CHECKOUT_URL']) {
    expect(chromePartsVersion({ ...base, [name]: 'https://other.example/' }), name).not.toBe(chromePartsVersion(base));
  }
  expect(chromePartsUrl()).toBe(`/chrome/parts?v=${chromePartsVersion()}`);
});
