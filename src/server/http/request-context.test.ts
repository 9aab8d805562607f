import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import {
  contextOfNode,
  contextOfRequest,
  cookieValue,
  fromSitePage,
  sessionCookieHeader,
  type RequestContext,
} from './request-context.ts';

type Env = Record<string, string>;

/** The context of a node:http request with these headers, as server.ts reads it. */
function node(headers: Record<string, string>, env: Env = {}, peer = '10.0.0.5', url = '/api/x?y=1'): RequestContext {
  const req = { method: 'GET', url, headers, socket: { remoteAddress: peer } } as unknown as IncomingMessage;
  return contextOfNode(req, loadConfig(env));
}

/** The same from a fetch Request (the Astro door, tests). */
function fetched(url: string, headers: Record<string, string> = {}, env: Env = {}): RequestContext {
  return contextOfRequest(new Request(url, { headers }), undefined, loadConfig(env));
}

describe('the origin of the site', () => {
  it.each([
    ['the Host header, port kept', { host: '192.168.1.20:4321' }, {}, 'http://192.168.1.20:4321'],
    ['a name, lower-cased', { host: 'Shanying.Test' }, {}, 'http://shanying.test'],
    ['an IPv6 host', { host: '[::1]:4321' }, {}, 'http://[::1]:4321'],
    [
      'a client’s X-Forwarded-Proto is not the proxy’s',
      { host: 'sy.example', 'x-forwarded-proto': 'https' },
      {},
      'http://sy.example',
    ],
    ['nor its X-Forwarded-Host', { host: 'sy.example', 'x-forwarded-host': 'evil.example' }, {}, 'http://sy.example'],
    [
      'the trusted proxy’s X-Forwarded-Proto and -Host',
      { host: 'app:4321', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'sy.example, inner' },
      { TRUST_PROXY: '1' },
      'https://sy.example',
    ],
    ['a Host that is no host', { host: 'evil.test/phish?' }, {}, 'http://localhost'],
    ['no Host', {}, {}, 'http://localhost'],
    [
      'PUBLIC_URL over everything the request says',
      { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' },
      { PUBLIC_URL: 'https://sy.example.org/sub/', TRUST_PROXY: '1' },
      'https://sy.example.org',
    ],
  ])('%s', (_, headers, env, origin) => {
    expect(node(headers, env).origin).toBe(origin);
  });

  it('links that leave the browser keep PUBLIC_URL’s path; otherwise they are the origin', () => {
    expect(node({ host: 'x' }, { PUBLIC_URL: 'https://sy.example.org/sub/' }).publicUrl).toBe(
      'https://sy.example.org/sub',
    );
    expect(node({ host: 'sy.example:8080' }).publicUrl).toBe('http://sy.example:8080');
  });

  it('from a fetch Request: its Host, else the URL’s host', () => {
    expect(fetched('http://localhost:8080/api/x', { host: 'evil.test/phish?' }).origin).toBe('http://localhost:8080');
    expect(fetched('http://shanying.test:4000/api/x').origin).toBe('http://shanying.test:4000');
    expect(fetched('http://localhost/api/x', { host: '192.168.1.20:4321' }).origin).toBe('http://192.168.1.20:4321');
  });
});

describe('HTTPS and the session cookie’s name', () => {
  it.each([
    [{}, undefined, false],
    [{}, 'https', false],
    [{ PUBLIC_URL: 'http://shanying.example.org' }, 'https', false],
    [{ PUBLIC_URL: 'https://shanying.example.org' }, undefined, true],
    [{ PUBLIC_URL: 'https://shanying.example.org/sub/' }, 'http', true],
    [{ TRUST_PROXY: '1' }, 'https', true],
    [{ TRUST_PROXY: 'true' }, 'HTTPS, http', true],
    [{ TRUST_PROXY: 'on' }, 'http', false],
    [{ TRUST_PROXY: '0' }, 'https', false],
  ] as [Env, string | undefined, boolean][])('%j with X-Forwarded-Proto %j → https %s', (env, proto, https) => {
    const context = node(proto ? { host: 'sy.example', 'x-forwarded-proto': proto } : { host: 'sy.example' }, env);
    expect(context.https).toBe(https);
    expect(context.cookieName).toBe(https ? '__Host-sy_session' : 'sy_session');
  });
});

describe('the session token', () => {
  it('is the Token header when there is one, else the session cookie', () => {
    expect(node({ token: ' t ', cookie: 'sy_session=c' })).toMatchObject({ sessionToken: 't', tokenFromHeader: true });
    expect(node({ cookie: 'theme=dark; sy_session=c' })).toMatchObject({ sessionToken: 'c', tokenFromHeader: false });
    expect(node({ token: ' ', cookie: 'sy_session=c' }).sessionToken).toBe('c');
    expect(node({ cookie: 'theme=dark' }).sessionToken).toBeUndefined();
    expect(node({}).sessionToken).toBeUndefined();
  });

  it('reads only the cookie of this request’s name: sy_session over http, whatever a client claims', () => {
    const cookie = 'theme=dark; sy_session=abc; __Host-sy_session=planted';
    expect(node({ cookie, 'x-forwarded-proto': 'https' }).sessionToken).toBe('abc');
  });

  it('over HTTPS only __Host-sy_session, so a cookie planted without the prefix is ignored', () => {
    const env = { PUBLIC_URL: 'https://shanying.example.org' };
    expect(node({ cookie: 'sy_session=planted; __Host-sy_session=real' }, env).sessionToken).toBe('real');
    expect(node({ cookie: 'sy_session=planted' }, env).sessionToken).toBeUndefined();
  });

  it('writes the cookie under the same name, Secure over HTTPS', () => {
    expect(sessionCookieHeader(node({}), 'tok', 60.9)).toBe(
      'sy_session=tok; Path=/; HttpOnly; SameSite=Lax; Max-Age=60',
    );
    expect(sessionCookieHeader(node({}, { PUBLIC_URL: 'https://shanying.example.org' }), '', 0)).toBe(
      '__Host-sy_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure',
    );
  });

  it('reads one cookie out of a Cookie header', () => {
    expect(cookieValue('a=1; b=2', 'b')).toBe('2');
    expect(cookieValue('ab=1', 'b')).toBeUndefined();
    expect(cookieValue('b=', 'b')).toBeUndefined();
    expect(cookieValue(null, 'b')).toBeUndefined();
  });
});

describe('the client’s address', () => {
  it('is the peer without TRUST_PROXY, whatever X-Forwarded-For says', () => {
    expect(node({ 'x-forwarded-for': '203.0.113.7' }).clientAddress).toBe('10.0.0.5');
  });

  it('is the address the trusted proxy appended last, not one the client wrote before it', () => {
    const env = { TRUST_PROXY: '1' };
    expect(node({ 'x-forwarded-for': '203.0.113.7' }, env).clientAddress).toBe('203.0.113.7');
    expect(node({ 'x-forwarded-for': '198.51.100.1, 203.0.113.7' }, env).clientAddress).toBe('203.0.113.7');
    expect(node({ 'x-forwarded-for': '2001:db8::1' }, env).clientAddress).toBe('2001:db8::1');
  });

  it('falls back on the peer when the proxy’s entry is missing or no address', () => {
    const env = { TRUST_PROXY: 'true' };
    expect(node({}, env).clientAddress).toBe('10.0.0.5');
    expect(node({ 'x-forwarded-for': '' }, env).clientAddress).toBe('10.0.0.5');
    expect(node({ 'x-forwarded-for': '203.0.113.7, not-an-ip' }, env).clientAddress).toBe('10.0.0.5');
  });
});

describe('a page of this site', () => {
  const site = (headers: Record<string, string>, env: Env = {}) =>
    fromSitePage(node({ host: 'shanying.test', ...headers }, env), new Headers(headers), loadConfig(env));

  it.each([
    [{ origin: 'http://shanying.test' }, true],
    [{ origin: 'https://shanying.test' }, true],
    [{ origin: 'https://shanying.test:443' }, true],
    [{ referer: 'http://shanying.test/video/12?from=feed' }, true],
    [{ origin: 'https://evil.example', referer: 'http://shanying.test/' }, false],
    [{ origin: 'http://shanying.test.evil.example' }, false],
    [{ origin: 'null' }, false],
    [{ origin: 'file:///x' }, false],
    [{}, false],
  ])('%j → %s', (headers, expected) => {
    expect(site(headers)).toBe(expected);
  });

  it('is PUBLIC_URL’s host when set, not what the request names', () => {
    const env = { PUBLIC_URL: 'https://sy.example.org' };
    expect(site({ origin: 'https://sy.example.org' }, env)).toBe(true);
    expect(site({ origin: 'http://shanying.test' }, env)).toBe(false);
  });

  it('is named by X-Forwarded-Host only under TRUST_PROXY', () => {
    const proxied = { host: 'app:4321', 'x-forwarded-host': 'shanying.example', origin: 'https://shanying.example' };
    expect(site(proxied)).toBe(false);
    expect(site(proxied, { TRUST_PROXY: '1' })).toBe(true);
  });

  it('includes the origins of CORS_ORIGINS', () => {
    expect(site({ origin: 'https://app.example' }, { CORS_ORIGINS: 'https://app.example' })).toBe(true);
    expect(site({ origin: 'https://evil.example' }, { CORS_ORIGINS: 'https://app.example' })).toBe(false);
  });
});

describe('the rest of the context', () => {
  it('has the path without its query, the encoding the client takes, and a new id per request', () => {
    const one = node({ 'accept-encoding': 'gzip, br' });
    expect(one).toMatchObject({ method: 'GET', path: '/api/x', encoding: 'br' });
    expect(node({ 'accept-encoding': 'gzip' }).encoding).toBe('gzip');
    expect(node({}).encoding).toBeUndefined();
    expect(one.id).toMatch(/^[\da-f-]{36}$/);
    expect(node({}).id).not.toBe(one.id);
  });
});
