import { afterEach, describe, expect, it } from 'vitest';
import {
  cookieValue,
  pageSessionToken,
  readSessionCookie,
  sessionCookieHeader,
  sessionCookieName,
} from './session-cookie.ts';

afterEach(() => {
  delete process.env.PUBLIC_URL;
  delete process.env.TRUST_PROXY;
});

const request = (headers: Record<string, string>) => new Headers(headers);

describe('the session cookie helper', () => {
  it('names, reads and sets sy_session over plain http, whatever a client claims', () => {
    const h = request({
      cookie: 'theme=dark; sy_session=abc; __Host-sy_session=planted',
      'x-forwarded-proto': 'https',
    });
    expect(sessionCookieName(h)).toBe('sy_session');
    expect(readSessionCookie(h)).toBe('abc');
    expect(sessionCookieHeader(h, 'tok', 60.9)).toBe('sy_session=tok; Path=/; HttpOnly; SameSite=Lax; Max-Age=60');
  });

  it('is __Host-sy_session and Secure over HTTPS, and then ignores the unprefixed name', () => {
    process.env.PUBLIC_URL = 'https://shanying.example.org';
    const h = request({ cookie: 'sy_session=planted; __Host-sy_session=real' });
    expect(sessionCookieName(h)).toBe('__Host-sy_session');
    expect(readSessionCookie(h)).toBe('real');
    expect(readSessionCookie(request({ cookie: 'sy_session=planted' }))).toBeUndefined();
    expect(sessionCookieHeader(h, '', 0)).toBe('__Host-sy_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure');
  });

  it('follows the proxy only with TRUST_PROXY', () => {
    process.env.TRUST_PROXY = '1';
    expect(sessionCookieName(request({ 'x-forwarded-proto': 'https' }))).toBe('__Host-sy_session');
    expect(sessionCookieName(request({}))).toBe('sy_session');
  });

  it('reads one cookie out of a Cookie header', () => {
    expect(cookieValue('a=1; b=2', 'b')).toBe('2');
    expect(cookieValue('ab=1', 'b')).toBeUndefined();
    expect(cookieValue('b=', 'b')).toBeUndefined();
    expect(cookieValue(null, 'b')).toBeUndefined();
  });
});

describe('pageSessionToken', () => {
  it('is the Token header when there is one, else the session cookie of this request', () => {
    expect(pageSessionToken(request({ token: 't', cookie: 'sy_session=c' }))).toBe('t');
    expect(pageSessionToken(request({ cookie: 'theme=dark; sy_session=c' }))).toBe('c');
    expect(pageSessionToken(request({ cookie: 'theme=dark' }))).toBeUndefined();
    expect(pageSessionToken(request({}))).toBeUndefined();
  });
});
