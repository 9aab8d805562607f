/** Blocking (拉黑): one row per direction; either direction stops direct messages between the pair. */
import { and, eq, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { db } from '../db/client.ts';
import type { DbOrTx } from '../db/types.ts';
import { blocks, users } from '../db/schema.ts';
import { invalid, notFound } from '../errors.ts';
import { IM_WRITE_LIMIT } from './im-limits.ts';
import { enforce } from './rate-limit.ts';

/**
 * The one rule of what a block hides: rows whose writer (`writer`, a user id column: a work's author, a comment's or a
 * danmaku's sender) the viewer has blocked are kept out of everything read for that viewer, from the moment the block
 * is stored. Anonymous viewers block nobody (undefined: no condition). Read paths AND it into their condition.
 */
export function notBlockedBy(viewerId: number | null, writer: AnyColumn | SQL): SQL | undefined {
  if (viewerId === null) return undefined;
  return sql`not exists (select 1 from ${blocks} b where b.blocker_id = ${viewerId} and b.blocked_id = ${writer})`;
}

/** 0 none, 1 the viewer blocked the peer, 2 the peer blocked the viewer, 3 both. */
export type BlockStatus = 0 | 1 | 2 | 3;

/** Whether either of the two blocked the other. */
export async function isBlocked(a: number, b: number, q: DbOrTx = db()): Promise<boolean> {
  return (await blockStatus(a, b, q)) !== 0;
}

/** The viewer's standing with one peer as a bit pair: 1 = viewer → peer, 2 = peer → viewer. */
export async function blockStatus(viewerId: number, peerId: number, q: DbOrTx = db()): Promise<BlockStatus> {
  const rows = await q
    .select({ blockerId: blocks.blockerId })
    .from(blocks)
    .where(
      or(
        and(eq(blocks.blockerId, viewerId), eq(blocks.blockedId, peerId)),
        and(eq(blocks.blockerId, peerId), eq(blocks.blockedId, viewerId)),
      ),
    );
  let status = 0;
  for (const r of rows) status |= r.blockerId === viewerId ? 1 : 2;
  return status as BlockStatus;
}

/** Blocks or unblocks `blockedId` for `blockerId`; answers the resulting status seen from the blocker. */
export async function setBlock(blockerId: number, blockedId: number, on: boolean): Promise<BlockStatus> {
  if (blockerId === blockedId) throw invalid('error.blockSelf');
  await enforce(`im-write:${blockerId}`, IM_WRITE_LIMIT.limit, IM_WRITE_LIMIT.windowMs);
  return db().transaction(async (tx) => {
    const [peer] = await tx.select({ id: users.id }).from(users).where(eq(users.id, blockedId));
    if (!peer) throw notFound('error.userNotFound');
    if (on) await tx.insert(blocks).values({ blockerId, blockedId }).onConflictDoNothing();
    else await tx.delete(blocks).where(sql`${blocks.blockerId} = ${blockerId} and ${blocks.blockedId} = ${blockedId}`);
    return blockStatus(blockerId, blockedId, tx);
  });
}
