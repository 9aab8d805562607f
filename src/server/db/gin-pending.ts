/**
 * The pending entries of the GIN indexes (the search tokens of works, their titles', and users'), merged into the
 * indexes on a schedule rather than by whichever write happens to overflow them.
 *
 * A GIN index takes new entries into a pending list that every lookup reads through in full, and merges it into the
 * index when it passes gin_pending_list_limit (4 MB), in the write that crosses it, or when vacuum comes. A work's row
 * is written anew by every like, collect, comment and play (its counters are in indexed expressions), and each new row
 * version adds its fifty-odd tokens to both of its GIN indexes. Measured at a million videos: 16,000 likes left 614
 * pending pages, with which a search for a rare term took 7.0 ms instead of 1.4; the like that crossed 4 MB took 74 ms
 * instead of 5.5; merging the 614 pages took 48 ms. Merged every minute, the lists hold a minute of writes, and no
 * request merges them.
 */
import { sql } from 'drizzle-orm';
import { db } from './client.ts';
import type { DbOrTx } from './types.ts';

/** Merges the pending list of every valid GIN index in the portal's schema; returns how many pages they held. */
export async function mergeGinPending(q: DbOrTx = db()): Promise<number> {
  const { rows } = await q.execute<{ pages: number }>(sql`
    select coalesce(sum(gin_clean_pending_list(i.indexrelid::regclass)), 0)::int as pages
    from pg_index i
    join pg_class c on c.oid = i.indexrelid
    join pg_am a on a.oid = c.relam
    where a.amname = 'gin' and c.relnamespace = current_schema()::regnamespace and i.indisvalid and i.indisready`);
  return Number(rows[0]?.pages ?? 0);
}
