import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { ServiceError } from '../errors.ts';
import { enforce, hit, refund, reset, sweep } from './rate-limit.ts';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t.close());

async function counter(key: string): Promise<{ count: number; reset_at: string } | undefined> {
  const { rows } = await t.db.execute<{ count: number; reset_at: string }>(
    sql`select count, reset_at from rate_limits where key = ${key}`,
  );
  return rows[0];
}

describe('rate limits', () => {
  it('allows `limit` calls per window, then refuses with a whole-second Retry-After', async () => {
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hit('t:basic', 3, 60_000));
    expect(results.map((r) => r.ok)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0]);
    expect(results.slice(0, 3).every((r) => r.retryAfter === 0)).toBe(true);
    expect(results[3]!.retryAfter).toBeGreaterThanOrEqual(1);
    expect(results[3]!.retryAfter).toBeLessThanOrEqual(60);
    expect(Number.isInteger(results[3]!.retryAfter)).toBe(true);
  });

  it('starts a new window once the old one has passed', async () => {
    await hit('t:window', 1, 60_000);
    expect((await hit('t:window', 1, 60_000)).ok).toBe(false);
    await t.db.execute(sql`update rate_limits set reset_at = reset_at - 61000 where key = 't:window'`);
    const again = await hit('t:window', 1, 60_000);
    expect(again).toEqual({ ok: true, remaining: 0, retryAfter: 0 });
    expect((await counter('t:window'))!.count).toBe(1);
  });

  it('gives at least one second even when the window is about to end', async () => {
    await hit('t:edge', 1, 60_000);
    await t.db.execute(
      sql`update rate_limits set reset_at = (extract(epoch from clock_timestamp()) * 1000)::bigint + 200 where key = 't:edge'`,
    );
    expect((await hit('t:edge', 1, 60_000)).retryAfter).toBe(1);
  });

  it('counts concurrent calls exactly (one atomic statement)', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, () => hit('t:race', 15, 60_000)));
    expect(results.filter((r) => r.ok)).toHaveLength(15);
    expect((await counter('t:race'))!.count).toBe(40);
  });

  it('enforce throws rate_limited with the Chinese message and retryAfter', async () => {
    await enforce('t:enforce', 1, 30_000);
    const error = await enforce('t:enforce', 1, 30_000).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ kind: 'rate_limited', key: 'error.rateLimited' });
    expect((error as ServiceError).retryAfter).toBeGreaterThanOrEqual(1);
    expect((error as ServiceError).retryAfter).toBeLessThanOrEqual(30);
  });

  it('refund takes back one call and never goes below zero', async () => {
    await hit('t:refund', 2, 60_000);
    await hit('t:refund', 2, 60_000);
    await refund('t:refund');
    expect((await hit('t:refund', 2, 60_000)).ok).toBe(true);
    await refund('t:refund');
    await refund('t:refund');
    await refund('t:refund');
    expect((await counter('t:refund'))!.count).toBe(0);
    await refund('t:absent');
    expect(await counter('t:absent')).toBeUndefined();
  });

  it('reset forgets only the keys with the prefix', async () => {
    await hit('t:reset:a', 1, 60_000);
    await hit('t:reset:b', 1, 60_000);
    await hit('t:keep_%', 1, 60_000);
    await reset('t:reset:');
    expect(await counter('t:reset:a')).toBeUndefined();
    expect(await counter('t:reset:b')).toBeUndefined();
    expect(await counter('t:keep_%')).toBeDefined();
    // LIKE wildcards in a prefix are plain characters.
    await hit('t:kXep', 1, 60_000);
    await reset('t:k_e');
    expect(await counter('t:kXep')).toBeDefined();
  });

  it('sweep deletes only counters whose window has passed', async () => {
    await hit('t:sweep:old', 5, 60_000);
    await hit('t:sweep:live', 5, 60_000);
    await t.db.execute(sql`update rate_limits set reset_at = 0 where key = 't:sweep:old'`);
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    expect(await counter('t:sweep:old')).toBeUndefined();
    expect(await counter('t:sweep:live')).toBeDefined();
  });
});
