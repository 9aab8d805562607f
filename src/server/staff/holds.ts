/**
 * What a work's author may not undo alone: a moderator's removal in force, or a ban, keeps the work private until a
 * moderator restores it or lifts the ban. The studio asks here before it makes a work public or friends-only.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/types.ts';
import { removals } from '../db/schema.ts';
import { ServiceError } from '../errors.ts';
import { activeSanction } from './sanctions.ts';

/** Refuses (403, naming the moderator's reason) to let `authorId` show work `workId` while it is removed or they are banned. */
export async function assertMayShowWork(q: DbOrTx, workId: number, authorId: number): Promise<void> {
  const [removal] = await q
    .select({ reason: removals.reason })
    .from(removals)
    .where(and(eq(removals.targetType, 'video'), eq(removals.targetId, workId), isNull(removals.restoredAt)))
    .limit(1);
  if (removal) throw new ServiceError('forbidden', 'error.workRemoved', { reason: removal.reason });
  const ban = await activeSanction(authorId, 'ban', q);
  if (ban) throw new ServiceError('forbidden', 'error.banned', { reason: ban.reason });
}
