import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANON_CACHE_LIMIT, anonCacheKey, answerResponse, cachedAnswer, cachedAnswerOf, clearApiCache, rememberAnswer } from './anon-cache.ts';

const url = (path: string) => new URL(`http://localhost${path}`);
const saved = process.env.API_ANON_CACHE;

beforeEach(() => {
  clearApiCache();
  delete process.env.API_ANON_CACHE;
});
afterEach(() => {
  vi.useRealTimers();
  if (saved === undefined) delete process.env.API_ANON_CACHE;
  else process.env.API_ANON_CACHE = saved;
});

describe('anonymous answer cache', () => {
  it('keys a read by method, origin, path and query, and has no key while turned off', () => {
    expect(anonCacheKey('GET', url('/api/aweme/v1/web/tab/feed/?count=10'))).toBe('GET http://localhost/api/aweme/v1/web/tab/feed/?count=10');
    expect(anonCacheKey('GET', url('/api/x?a=1'))).not.toBe(anonCacheKey('GET', url('/api/x?a=2')));
    expect(anonCacheKey('GET', url('/api/x'))).not.toBe(anonCacheKey('GET', new URL('https://cdn.example/api/x')));
    process.env.API_ANON_CACHE = 'off';
    expect(anonCacheKey('GET', url('/api/x'))).toBeUndefined();
  });

  it('answers the remembered bytes until the entry expires, then drops it', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const entry = rememberAnswer('GET /a', '{"热":1}', 5000);
    expect(new TextDecoder().decode(entry.bytes)).toBe('{"热":1}');
    expect(cachedAnswer('GET /a')).toBe(entry);
    vi.setSystemTime(1_000_000 + 4999);
    expect(cachedAnswer('GET /a')).toBe(entry);
    vi.setSystemTime(1_000_000 + 5000);
    expect(cachedAnswer('GET /a')).toBeUndefined();
    vi.setSystemTime(1_000_000);
    expect(cachedAnswer('GET /a'), 'an expired entry is gone, not hidden').toBeUndefined();
  });

  it(`keeps at most ${ANON_CACHE_LIMIT} answers, dropping the oldest first`, () => {
    for (let i = 0; i <= ANON_CACHE_LIMIT; i++) rememberAnswer(`GET /${i}`, String(i), 60_000);
    expect(cachedAnswer('GET /0')).toBeUndefined();
    expect(cachedAnswer('GET /1')).toBeDefined();
    expect(cachedAnswer(`GET /${ANON_CACHE_LIMIT}`)).toBeDefined();
  });

  it('empties on clearApiCache', () => {
    rememberAnswer('GET /a', '1', 60_000);
    clearApiCache();
    expect(cachedAnswer('GET /a')).toBeUndefined();
  });

  it('finds the entry behind a response it made, and none behind any other', async () => {
    const entry = rememberAnswer('GET /a', '{"ok":true}', 60_000);
    const response = answerResponse(entry, { 'content-type': 'application/json' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(cachedAnswerOf(response)).toBe(entry);
    expect(await response.text()).toBe('{"ok":true}');
    expect(cachedAnswerOf(new Response('{"ok":true}'))).toBeUndefined();
  });
});
