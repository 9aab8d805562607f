import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ANON_CACHE_LIMIT,
  anonCacheKey,
  answerResponse,
  buildAnswerOnce,
  cachedAnswer,
  cachedAnswerOf,
  answersChanged,
  clearApiCache,
  rememberAnswer,
} from './anon-cache.ts';

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
    expect(anonCacheKey('GET', url('/api/aweme/v1/web/tab/feed/?count=10'))).toBe(
      'GET http://localhost/api/aweme/v1/web/tab/feed/?count=10',
    );
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

  it('answers without a body for a door that writes the bytes itself', () => {
    const entry = rememberAnswer('GET /a', '{"ok":true}', 60_000);
    const response = answerResponse(entry, { 'content-type': 'application/json' }, false);
    expect(response.body).toBeNull();
    expect(cachedAnswerOf(response)).toBe(entry);
  });
});

describe('building an anonymous answer once', () => {
  /** A build that waits until `finish` is called, counting its runs. */
  function slowBuild(text: string) {
    let finish!: () => void;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const build = vi.fn(async () => {
      await gate;
      return text;
    });
    return { build, finish };
  }

  it('makes concurrent misses of one key wait for a single build, then keeps its answer', async () => {
    const { build, finish } = slowBuild('{"热":1}');
    const waiting = Array.from({ length: 20 }, () => buildAnswerOnce('GET /feed', 2000, build));
    finish();
    const entries = await Promise.all(waiting);
    expect(build).toHaveBeenCalledTimes(1);
    expect(new Set(entries).size).toBe(1);
    expect(new TextDecoder().decode(entries[0]!.bytes)).toBe('{"热":1}');
    expect(cachedAnswer('GET /feed')).toBe(entries[0]);
  });

  it('builds each key on its own, and again once a build has finished', async () => {
    const a = buildAnswerOnce('GET /a', 2000, async () => 'a');
    const b = buildAnswerOnce('GET /b', 2000, async () => 'b');
    expect(new TextDecoder().decode((await a)!.bytes)).toBe('a');
    expect(new TextDecoder().decode((await b)!.bytes)).toBe('b');
    const again = vi.fn(async () => 'a2');
    await buildAnswerOnce('GET /a', 2000, again);
    expect(again).toHaveBeenCalledTimes(1);
  });

  it('hands a failure to everyone who waited, and keeps nothing', async () => {
    const build = vi.fn(async () => {
      throw new Error('database down');
    });
    const waiting = [buildAnswerOnce('GET /a', 2000, build), buildAnswerOnce('GET /a', 2000, build)];
    for (const w of waiting) await expect(w).rejects.toThrow('database down');
    expect(build).toHaveBeenCalledTimes(1);
    expect(cachedAnswer('GET /a')).toBeUndefined();
    await expect(buildAnswerOnce('GET /a', 2000, async () => 'ok')).resolves.toBeDefined();
  });

  it('keeps nothing for a build that is not cacheable', async () => {
    await expect(buildAnswerOnce('GET /a', 2000, async () => undefined)).resolves.toBeUndefined();
    expect(cachedAnswer('GET /a')).toBeUndefined();
  });

  it('does not keep an answer begun before a write, and starts a new build after it', async () => {
    const before = slowBuild('old');
    const early = buildAnswerOnce('GET /a', 2000, before.build);
    clearApiCache();
    const after = vi.fn(async () => 'new');
    const late = buildAnswerOnce('GET /a', 2000, after);
    before.finish();
    expect(new TextDecoder().decode((await early)!.bytes), 'who asked before the write gets its answer').toBe('old');
    expect(new TextDecoder().decode((await late)!.bytes)).toBe('new');
    expect(after).toHaveBeenCalledTimes(1);
    expect(new TextDecoder().decode(cachedAnswer('GET /a')!.bytes)).toBe('new');
  });

  describe('after a write', () => {
    const text = (key: string) => {
      const hit = cachedAnswer(key);
      return hit && new TextDecoder().decode(hit.bytes);
    };

    it('drops the answers about the video it wrote to at once, and the others once they are a second old', () => {
      vi.useFakeTimers({ now: 1_000_000 });
      rememberAnswer('GET http://x/api/comment/list/?aweme_id=7&cursor=0', 'comments of 7', 2000);
      rememberAnswer('GET http://x/api/comment/list/?aweme_id=70', 'comments of 70', 2000);
      rememberAnswer('GET http://x/api/aweme/detail/?aweme_id=7', 'detail of 7', 2000);
      rememberAnswer('GET http://x/api/feed/?count=10', 'feed', 2000);
      vi.advanceTimersByTime(300);
      answersChanged([7]);
      expect(text('GET http://x/api/comment/list/?aweme_id=7&cursor=0')).toBeUndefined();
      expect(text('GET http://x/api/aweme/detail/?aweme_id=7')).toBeUndefined();
      // 300 ms old: answered for the rest of its second.
      expect(text('GET http://x/api/comment/list/?aweme_id=70')).toBe('comments of 70');
      expect(text('GET http://x/api/feed/?count=10')).toBe('feed');
      vi.advanceTimersByTime(699);
      expect(text('GET http://x/api/feed/?count=10')).toBe('feed');
      vi.advanceTimersByTime(1);
      expect(text('GET http://x/api/feed/?count=10')).toBeUndefined();
      // Older than a second when a write comes: gone at once.
      rememberAnswer('GET http://x/api/feed/?count=20', 'feed 20', 2000);
      vi.advanceTimersByTime(1_200);
      answersChanged([]);
      expect(text('GET http://x/api/feed/?count=20')).toBeUndefined();
    });

    it('keeps an answer begun before it on the same terms', async () => {
      vi.useFakeTimers({ now: 1_000_000 });
      const own = slowBuild('comments of 7 before');
      const other = slowBuild('feed before');
      const ownDone = buildAnswerOnce('GET http://x/api/comment/list/?aweme_id=7', 2000, own.build);
      const otherDone = buildAnswerOnce('GET http://x/api/feed/', 2000, other.build);
      await vi.advanceTimersByTimeAsync(200);
      answersChanged([7]);
      answersChanged([9]);
      own.finish();
      other.finish();
      // Who asked gets it; the answer about the written video is not kept, the other one until a second after it began.
      expect(new TextDecoder().decode((await ownDone)!.bytes)).toBe('comments of 7 before');
      await otherDone;
      expect(text('GET http://x/api/comment/list/?aweme_id=7')).toBeUndefined();
      expect(text('GET http://x/api/feed/')).toBe('feed before');
      await vi.advanceTimersByTimeAsync(800);
      expect(text('GET http://x/api/feed/')).toBeUndefined();
    });

    it('makes a hot answer about once a second under steady writes, not once per write', async () => {
      vi.useFakeTimers({ now: 1_000_000 });
      let builds = 0;
      // Five seconds: a read every 5 ms and a write about another video every 25 ms, 200 writes in all.
      for (let t = 0; t < 5_000; t += 5) {
        vi.advanceTimersByTime(5);
        if (t % 25 === 0) answersChanged([1]);
        if (!cachedAnswer('GET http://x/api/feed/'))
          await buildAnswerOnce('GET http://x/api/feed/', 2000, async () => `build ${++builds}`);
      }
      expect(builds).toBeLessThanOrEqual(6);
    });
  });
});
