import { describe, expect, it } from 'vitest';
import { HSTS_MAX_AGE, mediaOrigin, securityHeaders, withMediaOrigin } from './security-headers.ts';
import { loadConfig } from '../config.ts';

describe('securityHeaders', () => {
  it.each([
    '/',
    '/video/1',
    '/_astro/app.js',
    '/sw.js',
    '/api/aweme/v1/web/tab/feed/',
    '/media/clips/c01.mp4',
    '/healthz',
  ])('sends the fixed headers on %s', (path) => {
    const h = securityHeaders(path, false);
    expect(h).toMatchObject({
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'Cross-Origin-Opener-Policy': 'same-origin',
    });
    expect(h['Permissions-Policy']).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\)/);
    expect(h['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(h['Strict-Transport-Security']).toBeUndefined();
  });

  it('allows nothing to data answers, and leaves fetches of static files (a service worker) alone', () => {
    expect(securityHeaders('/api/passport/demo', false)['Content-Security-Policy']).toMatch(/^default-src 'none'/);
    expect(securityHeaders('/media/a.webp', false)['Content-Security-Policy']).toMatch(/^default-src 'none'/);
    expect(securityHeaders('/sw.js', false)['Content-Security-Policy']).not.toContain('default-src');
  });

  it('sends HSTS only over HTTPS', () => {
    expect(securityHeaders('/', true)['Strict-Transport-Security']).toBe(`max-age=${HSTS_MAX_AGE}; includeSubDomains`);
  });
});

describe('media from another origin', () => {
  it('takes the origin of MEDIA_BASE_URL', () => {
    const base = (value: string) => loadConfig({ MEDIA_BASE_URL: value }).MEDIA_BASE_URL;
    expect(mediaOrigin(base('https://cdn.example.com/shanying/'))).toBe('https://cdn.example.com');
    expect(mediaOrigin(base(''))).toBeUndefined();
    expect(() => base('javascript:alert(1)')).toThrow(/MEDIA_BASE_URL/);
  });

  it('adds it to img-src, media-src and connect-src only', () => {
    const csp =
      "default-src 'self';img-src 'self' data:;media-src 'self' blob:;connect-src 'self'; script-src 'self' 'sha256-x';";
    expect(withMediaOrigin(csp, 'https://cdn.example.com')).toBe(
      "default-src 'self';img-src 'self' data: https://cdn.example.com;media-src 'self' blob: https://cdn.example.com;connect-src 'self' https://cdn.example.com; script-src 'self' 'sha256-x';",
    );
    expect(withMediaOrigin(csp, undefined)).toBe(csp);
  });
});
