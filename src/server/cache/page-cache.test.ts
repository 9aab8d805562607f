import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PageCache, type PageAnswer } from './page-cache.ts';

function page(text: string, status = 200): PageAnswer {
  return { status, headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from(text) };
}

/** A cache on a clock the test moves. */
function clocked(
  options: { freshMs?: number; staleMs?: number; refreshMinMs?: number; maxEntries?: number; maxBytes?: number } = {},
) {
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
  it('forgets one group of keys at once, and keeps no render of the group begun before', async () => {
    const { cache } = clocked();
    await cache.fill('1\n/user/self', async () => page('a'));
    await cache.fill('1\n/follow', async () => page('a'));
    await cache.fill('2\n/user/self', async () => page('b'));
    await cache.fill('/user/self', async () => page('anyone'));
    const under = deferred();
    const late = cache.fill('1\n/friend', () => under.promise);
    cache.forget('1');
    expect(cache.lookup('1\n/user/self')).toBeUndefined();
    expect(cache.lookup('1\n/follow')).toBeUndefined();
    expect(cache.lookup('2\n/user/self')).toMatchObject({ fresh: true });
    expect(cache.lookup('/user/self')).toMatchObject({ fresh: true });
    under.finish(page('a, from before'));
    expect((await late)?.body.toString()).toBe('a, from before');
    expect(cache.lookup('1\n/friend')).toMatchObject({ fresh: false });
  });

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

  it('a write makes the pages it wrote to stale at once, whatever their query, and the others once a second old', async () => {
    const { cache, clock } = clocked({ refreshMinMs: 1_000 });
    await cache.fill('/old', async () => page('old'));
    clock.now += 2_000;
    for (const key of ['/video/7', '/video/7?from=feed', '/video/70', '/'])
      await cache.fill(key, async () => page(key));
    clock.now += 300;
    cache.invalidate(['/video/7']);
    expect(cache.lookup('/video/7')).toMatchObject({ fresh: false });
    expect(cache.lookup('/video/7?from=feed')).toMatchObject({ fresh: false });
    // Older than a second: stale at once too.
    expect(cache.lookup('/old')).toMatchObject({ fresh: false });
    // Rendered 300 ms ago: served for the rest of its second, then refreshed.
    expect(cache.lookup('/video/70')).toMatchObject({ fresh: true });
    expect(cache.lookup('/')).toMatchObject({ fresh: true });
    clock.now += 699;
    expect(cache.lookup('/')).toMatchObject({ fresh: true });
    clock.now += 1;
    expect(cache.lookup('/')).toMatchObject({ fresh: false });
    expect(cache.lookup('/video/70')).toMatchObject({ fresh: false });
  });

  it('keeps a render begun before a write, stale on the same terms', async () => {
    const { cache, clock } = clocked({ refreshMinMs: 1_000 });
    const own = deferred();
    const other = deferred();
    const ownDone = cache.fill('/video/7', () => own.promise);
    const otherDone = cache.fill('/hot', () => other.promise);
    clock.now += 200;
    cache.invalidate(['/video/7']);
    own.finish(page('7 before the write'));
    other.finish(page('hot before the write'));
    // Those who waited for it get it; the cache keeps it, stale: served while the next visitor's render refreshes it.
    expect((await ownDone)?.body.toString()).toBe('7 before the write');
    await otherDone;
    expect(cache.lookup('/video/7')).toMatchObject({
      fresh: false,
      entry: { body: Buffer.from('7 before the write') },
    });
    expect(cache.lookup('/hot')).toMatchObject({ fresh: true });
    clock.now += 800;
    expect(cache.lookup('/hot')).toMatchObject({ fresh: false, entry: { body: Buffer.from('hot before the write') } });
    await cache.fill('/video/7', async () => page('7 after the write'));
    expect(cache.lookup('/video/7')).toMatchObject({ fresh: true, entry: { body: Buffer.from('7 after the write') } });
  });

  it('renders a hot page about once a second under steady writes, not once per write', async () => {
    const renders: Record<number, number> = {};
    for (const refreshMinMs of [1_000, 0]) {
      const { cache, clock } = clocked({ refreshMinMs });
      renders[refreshMinMs] = 0;
      // Five seconds: a visit every 5 ms and a write (to another page) every 25 ms, 200 writes in all.
      for (let t = 0; t < 5_000; t += 5) {
        clock.now += 5;
        if (t % 25 === 0) cache.invalidate(['/video/1']);
        if (!cache.lookup('/')?.fresh) await cache.fill('/', async () => page(`render ${++renders[refreshMinMs]!}`));
      }
    }
    expect(renders[1_000]).toBeLessThanOrEqual(6);
    // Without the minimum age: one render per write.
    expect(renders[0]).toBeGreaterThanOrEqual(190);
  });

  it('with no minimum age, a write makes every page stale at once', async () => {
    const { cache } = clocked({ refreshMinMs: 0 });
    await cache.fill('/a', async () => page('a'));
    const inFlight = deferred();
    const begun = cache.fill('/b', () => inFlight.promise);
    cache.invalidate();
    expect(cache.lookup('/a')).toMatchObject({ fresh: false });
    inFlight.finish(page('b before the write'));
    await begun;
    expect(cache.lookup('/b')).toMatchObject({ fresh: false });
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
