import { describe, expect, it, vi } from 'vitest';
import { ttlCache } from './ttl-cache.ts';

describe('ttlCache', () => {
  it('loads once for concurrent readers, serves stale while refreshing, and clears', async () => {
    vi.useFakeTimers();
    try {
      let n = 0;
      const load = vi.fn(async () => ++n);
      const cache = ttlCache(load, 1000);
      expect(await Promise.all([cache.get(), cache.get()])).toEqual([1, 1]);
      expect(load).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1001);
      expect(await cache.get()).toBe(1);
      await Promise.resolve();
      expect(await cache.get()).toBe(2);
      cache.expireWithin(0);
      expect(await cache.get()).toBe(2);
      await Promise.resolve();
      expect(await cache.get()).toBe(3);
      cache.clear();
      expect(await cache.get()).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the old value when a background refresh fails', async () => {
    vi.useFakeTimers();
    try {
      let fail = false;
      const cache = ttlCache(async () => {
        if (fail) throw new Error('down');
        return 'ok';
      }, 10);
      expect(await cache.get()).toBe('ok');
      fail = true;
      vi.advanceTimersByTime(20);
      expect(await cache.get()).toBe('ok');
      await Promise.resolve();
      expect(await cache.get()).toBe('ok');
    } finally {
      vi.useRealTimers();
    }
  });
});
