/** Fixed-window rate limits kept in PostgreSQL, so every app server behind a load balancer shares the same counters. */
import { sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { isRetryable } from '../db/retry.ts';
import { rateLimited } from '../errors.ts';

export interface RateResult {
  ok: boolean;
  /** Calls left in the current window. */
  remaining: number;
  /** Whole seconds until the window resets: 0 when allowed, at least 1 when refused. */
  retryAfter: number;
}

// The database clock, not this process's: app servers' clocks may disagree.
const NOW_MS = sql`(extract(epoch from clock_timestamp()) * 1000)::bigint`;
const SWEEP_CHANCE = 0.01;

/** Counts one call against `key` and says whether it fits in `limit` calls per `windowMs`. */
export async function hit(key: string, limit: number, windowMs: number): Promise<RateResult> {
  const window = Math.max(1, Math.round(windowMs));
  // One statement: concurrent calls from any server serialise on the row, so no call is lost or double-counted.
  const { rows } = await db().execute<{ count: number; reset_at: string; now: string }>(sql`
    with t as (select ${NOW_MS} as now)
    insert into rate_limits (key, count, reset_at)
    select ${key}, 1, t.now + ${window} from t
    on conflict (key) do update set
      count = case when rate_limits.reset_at <= (select now from t) then 1 else rate_limits.count + 1 end,
      reset_at = case when rate_limits.reset_at <= (select now from t) then (select now from t) + ${window} else rate_limits.reset_at end
    returning count, reset_at, (select now from t) as now`);
  if (Math.random() < SWEEP_CHANCE) await sweep();
  const row = rows[0]!;
  const count = Number(row.count);
  const ok = count <= limit;
  const waitMs = Number(row.reset_at) - Number(row.now);
  return { ok, remaining: Math.max(0, limit - count), retryAfter: ok ? 0 : Math.max(1, Math.ceil(waitMs / 1000)) };
}

/** Like `hit`, but throws `rate_limited` (HTTP 429 with Retry-After) when the call does not fit. */
export async function enforce(key: string, limit: number, windowMs: number): Promise<RateResult> {
  const result = await hit(key, limit, windowMs);
  if (!result.ok) throw rateLimited(result.retryAfter);
  return result;
}

/** Takes back one counted call (e.g. a login that turned out to be correct must not count as a failure). */
export async function refund(key: string): Promise<void> {
  await db().execute(sql`update rate_limits set count = greatest(count - 1, 0) where key = ${key}`);
}

/** Deletes counters whose window has passed; returns how many. Called now and then by `hit`. */
export async function sweep(): Promise<number> {
  // Bounded so that a sweep never holds many row locks at once.
  const { rows } = await db().execute(sql`
    delete from rate_limits where key in (select key from rate_limits where reset_at <= ${NOW_MS} limit 1000)
    returning key`);
  return rows.length;
}

/** Forgets every counter whose key starts with `keyPrefix` (tests, and an operator lifting a block). */
export async function reset(keyPrefix: string): Promise<void> {
  // Requests counting against several counters at once may hold some of the rows this deletes and wait for others: the
  // database aborts one side of such a deadlock, and when it is this one, it deletes again.
  for (let attempt = 1; ; attempt++) {
    try {
      await db().execute(sql`delete from rate_limits where starts_with(key, ${keyPrefix})`);
      return;
    } catch (error) {
      if (attempt >= 5 || !isRetryable(error)) throw error;
    }
  }
}
