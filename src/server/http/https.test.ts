import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
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
    { env: { TRUST_PROXY: 'no' }, proto: 'https', https: false },
  ])('$env with X-Forwarded-Proto $proto → $https', ({ env, proto, https }) => {
    expect(servedOverHttps(proto, loadConfig(env))).toBe(https);
  });

  it('reads TRUST_PROXY as a switch', () => {
    const trusts = (v: string) => trustsProxy(loadConfig({ TRUST_PROXY: v }));
    expect(['1', 'true', 'YES', ' on '].map(trusts)).toEqual([true, true, true, true]);
    expect(['', '0', 'false', 'off'].map(trusts)).toEqual([false, false, false, false]);
    // An address is not a switch: TRUST_PROXY=10.0.0.1 stops the start rather than trust nobody silently.
    expect(() => trusts('10.0.0.1')).toThrow(/TRUST_PROXY/);
  });
});
