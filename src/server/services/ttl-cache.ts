/** One value computed from the database and kept for a while in this process: stale reads refresh in the background. */
import { onDbSwitch } from '../db/client.ts';

export interface TtlCache<T> {
  /** The value: fresh, or stale while one refresh runs behind it; the first read waits for the load. */
  get(): Promise<T>;
  /** Makes the value stale within `ms` (a write that should show up soon, without a reload per write). */
  expireWithin(ms: number): void;
  /** Forgets the value: the next read loads afresh and waits for it (tests, and data replaced wholesale). */
  clear(): void;
}

/** A cache of `load()` for `ttlMs`; concurrent reads share one load, and a failed background refresh keeps the old value. */
export function ttlCache<T>(load: () => Promise<T>, ttlMs: number): TtlCache<T> {
  let value: { data: T; staleAt: number } | undefined;
  let loading: Promise<T> | undefined;
  let generation = 0;

  const refresh = (): Promise<T> => {
    if (loading) return loading;
    const mine = generation;
    const started = Date.now();
    const run: Promise<T> = load()
      .then((data) => {
        // A clear() during the load means the caller wants data newer than this.
        if (mine === generation) value = { data, staleAt: started + ttlMs };
        return data;
      })
      .finally(() => {
        if (loading === run) loading = undefined;
      });
    loading = run;
    return run;
  };

  const cache: TtlCache<T> = {
    async get() {
      if (!value) return refresh();
      if (Date.now() >= value.staleAt) refresh().catch(() => {});
      return value.data;
    },
    expireWithin(ms) {
      if (value) value.staleAt = Math.min(value.staleAt, Date.now() + ms);
    },
    clear() {
      generation++;
      value = undefined;
      loading = undefined;
    },
  };
  onDbSwitch(() => cache.clear());
  return cache;
}
