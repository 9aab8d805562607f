import { describe, expect, it } from 'vitest';
import { servedOverHttps, trustsProxy } from './https.ts';

describe('servedOverHttps', () => {
  it.each([
    { env: {}, proto: undefined, https: false },
    { env: {}, proto: 'https', https: false },
    { env: { PUBLIC_URL: 'http://shanying.example.org' }, proto: 'https', https: false },
    { env: { PUBLIC_URL: 'https://shanying.example.org' }, proto: undefined, https: true },
    { env: { PUBLIC_URL: 'https://shanying.example.org/sub/' }, proto: 'http', https: true },
    { env: { TRUST_PROXY: '1' }, proto: 'https', https: true },
    { env: { TRUST_PROXY: 'true' }, proto: 'HTTPS, http', https: true },
    { env: { TRUST_PROXY: 'on' }, proto: 'http', https: false },
    { env: { TRUST_PROXY: '0' }, proto: 'https', https: false },
    { env: { PUBLIC_URL: 'not a url', TRUST_PROXY: 'no' }, proto: 'https', https: false },
  ])('$env with X-Forwarded-Proto $proto → $https', ({ env, proto, https }) => {
    expect(servedOverHttps(proto, env)).toBe(https);
  });

  it('reads TRUST_PROXY as a switch', () => {
    expect(['1', 'true', 'YES', ' on '].map((v) => trustsProxy({ TRUST_PROXY: v }))).toEqual([true, true, true, true]);
    expect(['', '0', 'false', 'off', '10.0.0.1'].map((v) => trustsProxy({ TRUST_PROXY: v }))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
