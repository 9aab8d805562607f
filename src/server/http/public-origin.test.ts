import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { publicOrigin } from './public-origin.ts';

const request = (url: string, headers: Record<string, string> = {}) => new Request(url, { headers });

describe('publicOrigin', () => {
  it.each([
    [
      'the Host header keeps the port the request URL lost',
      request('http://localhost/api/x', { host: '192.168.1.20:4321' }),
      'http://192.168.1.20:4321',
    ],
    ['a name without a port', request('http://localhost/api/x', { host: 'Shanying.Test' }), 'http://shanying.test'],
    ['an IPv6 host', request('http://localhost/api/x', { host: '[::1]:4321' }), 'http://[::1]:4321'],
    [
      'https as a proxy in front says',
      request('http://localhost/api/x', { host: 'sy.example.org', 'x-forwarded-proto': 'https' }),
      'https://sy.example.org',
    ],
    [
      'a Host that is no host falls back on the request URL',
      request('http://localhost:8080/api/x', { host: 'evil.test/phish?' }),
      'http://localhost:8080',
    ],
    ['no Host: the request URL', request('http://shanying.test:4000/api/x'), 'http://shanying.test:4000'],
  ])('%s', (_, req, expected) => {
    expect(publicOrigin(req, undefined)).toBe(expected);
  });

  it('PUBLIC_URL wins over the request', () => {
    expect(publicOrigin(request('http://localhost/api/x', { host: '127.0.0.1:4321' }), 'https://sy.example.org')).toBe(
      'https://sy.example.org',
    );
  });
});

describe('PUBLIC_URL', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['  ', undefined],
    ['https://sy.example.org/', 'https://sy.example.org'],
    ['http://10.0.0.5:4321', 'http://10.0.0.5:4321'],
    ['https://example.org/shanying/', 'https://example.org/shanying'],
  ])('%j → %j', (value, expected) => {
    expect(loadConfig({ PUBLIC_URL: value }).PUBLIC_URL).toBe(expected);
  });

  it('stops the start when it is no absolute http(s) URL', () => {
    for (const bad of ['sy.example.org', 'ftp://sy.example.org'])
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
  });
});
