import { expect, it } from 'vitest';
import { useFreshDb } from '../../tests/setup/test-db.ts';
import { saveEntry } from './content/store.ts';
import { chromePartsUrl, chromePartsVersion } from './chrome-parts.ts';

useFreshDb(() => {});

it('gives the chrome parts a new address when a setting they show changes, the same one otherwise', async () => {
  const base = { DESKTOP_CLIENT_URL: 'https://dl.example/client.exe' };
  expect(chromePartsVersion({ ...base })).toBe(chromePartsVersion({ ...base, UNRELATED: 'x' }));
  for (const name of ['DESKTOP_CLIENT_URL', 'BROWSER_EXTENSION_URL', 'ORDERS_URL', 'PAYMENT_CHECKOUT_URL']) {
    expect(chromePartsVersion({ ...base, [name]: 'https://other.example/' }), name).not.toBe(chromePartsVersion(base));
  }
  expect(await chromePartsUrl()).toBe(`/chrome/parts?v=${chromePartsVersion()}`);
});

it('gives them a new address when editors publish content they show', async () => {
  const before = await chromePartsUrl();
  await saveEntry(1, 'downloads', 'desktop', { data: { version: '2.9.0', arch: 'x64' } });
  expect(await chromePartsUrl()).not.toBe(before);
});
