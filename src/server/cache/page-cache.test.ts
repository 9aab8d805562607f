import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PageCache, type PageAnswer } from './page-cache.ts';

function page(text: string, status = 200): PageAnswer {
  return { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from(text) };
}

/** A cache on a clock the test moves. */
function clocked(options: { freshMs?: number; staleMs?: number; maxEntries?: number; maxBytes?: number } = {}) {
  const clock = { now: 1_000_000 };
  const cache = new PageCache({ freshMs: 5_000, staleMs: 25_000, ...options, now: () => clock.now });
  return { cache, clock };
}

/** A render the test finishes when it likes. */
function deferred() {
  let finish!: (answer: PageAnswer | undefined) => void;
  let fail!: (error: Error) => void;
  const promise = new Promise<PageAnswer | undefined>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return { promise, finish, fail };
}

describe('PageCache', () => {
  it('serves a render fresh, then stale, then drops it after the stale window', async () => {
    const { cache, clock } = clocked();
    await cache.fill('/', async () => page('one'));
    expect(cache.lookup('/')).toMatchObject({ fresh: true });
    clock.now += 4_999;
    expect(cache.lookup('/')).toMatchObject({ fresh: true });
    clock.now += 1;
    expect(cache.lookup('/')).toMatchObject({ fresh: false });
    clock.now += 24_999;
    expect(cache.lookup('/')?.entry.body.toString()).toBe('one');
    clock.now += 1;
    expect(cache.lookup('/')).toBeUndefined();
    expect(cache.stats().entries).toBe(0);
  });

  it('renders once for concurrent misses, and everyone gets that render', async () => {
    const { cache } = clocked();
    let renders = 0;
    const render = deferred();
    const make = () => {
      renders++;
      return render.promise;
    };
    const waiting = [cache.fill('/hot', make), cache.fill('/hot', make), cache.fill('/hot', make)];
    expect(cache.pending('/hot')).toBeDefined();
    render.finish(page('hot'));
    const entries = await Promise.all(waiting);
    expect(renders).toBe(1);
    expect(new Set(entries).size).toBe(1);
    expect(entries[0]!.body.toString()).toBe('hot');
    expect(cache.pending('/hot')).toBeUndefined();
  });

  it('hands out the stale copy while one render refreshes it (stale-while-revalidate)', async () => {
    const { cache, clock } = clocked();
    await cache.fill('/v', async () => page('old'));
    clock.now += 6_000;
    const refresh = deferred();
    // The first visitor after expiry finds it stale and nobody refreshing: it renders.
    expect(cache.lookup('/v')).toMatchObject({ fresh: false });
    expect(cache.pending('/v')).toBeUndefined();
    const refreshed = cache.fill('/v', () => refresh.promise);
    // Everyone else meanwhile: the stale copy, and a render under way, so they do not start another.
    const meanwhile = cache.lookup('/v');
    expect(meanwhile?.fresh).toBe(false);
    expect(meanwhile?.entry.body.toString()).toBe('old');
    expect(cache.pending('/v')).toBe(refreshed);
    refresh.finish(page('new'));
    await refreshed;
    expect(cache.lookup('/v')).toMatchObject({ fresh: true, entry: { body: Buffer.from('new') } });
  });

  it('a write makes every entry stale at once, and a render begun before it is kept stale', async () => {
    const { cache } = clocked();
    await cache.fill('/a', async () => page('a'));
    const inFlight = deferred();
    const begun = cache.fill('/b', () => inFlight.promise);
    cache.invalidate();
    expect(cache.lookup('/a')).toMatchObject({ fresh: false });
    inFlight.finish(page('b before the write'));
    // Those who waited for it get it; the cache keeps it stale: served while the next visitor's render refreshes it.
    expect((await begun)?.body.toString()).toBe('b before the write');
    expect(cache.lookup('/b')).toMatchObject({ fresh: false, entry: { body: Buffer.from('b before the write') } });
    await cache.fill('/b', async () => page('b after the write'));
    expect(cache.lookup('/b')).toMatchObject({ fresh: true, entry: { body: Buffer.from('b after the write') } });
  });

  it('keeps nothing from a render that may not be shared or that failed, and a later one may try again', async () => {
    const { cache } = clocked();
    expect(await cache.fill('/x', async () => undefined)).toBeUndefined();
    expect(cache.lookup('/x')).toBeUndefined();
    expect(cache.pending('/x')).toBeUndefined();
    const failing = deferred();
    const failed = cache.fill('/x', () => failing.promise);
    failing.fail(new Error('the client left'));
    expect(await failed).toBeUndefined();
    expect(await cache.fill('/x', async () => page('x'))).toBeDefined();
    expect(cache.lookup('/x')).toBeDefined();
  });

  it('is bounded by entries and by bytes, dropping the least recently served first', async () => {
    const { cache } = clocked({ maxEntries: 3, maxBytes: 1_000 });
    for (const key of ['/1', '/2', '/3']) await cache.fill(key, async () => page(key));
    cache.lookup('/1');
    await cache.fill('/4', async () => page('/4'));
    expect(cache.lookup('/2')).toBeUndefined();
    expect(cache.lookup('/1')).toBeDefined();
    expect(cache.stats().entries).toBe(3);

    await cache.fill('/big', async () => page('x'.repeat(900)));
    expect(cache.stats().bytes).toBeLessThanOrEqual(1_000);
    expect(cache.lookup('/big')).toBeDefined();
    // Larger than the whole budget: served to whoever waited, never kept.
    expect(await cache.fill('/huge', async () => page('x'.repeat(2_000)))).toBeDefined();
    expect(cache.lookup('/huge')).toBeUndefined();
    expect(cache.lookup('/big')).toBeDefined();
  });

  it('compresses an entry once per encoding and counts those bytes too', async () => {
    const { cache } = clocked();
    const html = '<!doctype html><p>闪映</p>'.repeat(200);
    const entry = (await cache.fill('/z', async () => page(html)))!;
    const before = cache.stats().bytes;
    const [br1, br2] = await Promise.all([cache.encodedBody(entry, 'br'), cache.encodedBody(entry, 'br')]);
    expect(br1).toBe(br2);
    expect(brotliDecompressSync(br1).toString()).toBe(html);
    const gz = await cache.encodedBody(entry, 'gzip');
    expect(gunzipSync(gz).toString()).toBe(html);
    await new Promise((r) => setImmediate(r));
    expect(cache.stats().bytes).toBe(before + br1.byteLength + gz.byteLength);
  });

  it('gives the same body the same hash and another body another', async () => {
    const { cache } = clocked();
    const a = cache.entry(page('same'));
    const b = cache.entry(page('same'));
    const c = cache.entry(page('other'));
    expect(a.hash).toBe(b.hash);
    expect(a.hash).not.toBe(c.hash);
    expect(a.hash).toMatch(/^[\w-]{27}$/);
  });
});
