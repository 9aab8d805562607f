/** 稍后再看 entries that no longer play: their work was deleted, unpublished or hidden from the member since. */
import { and, desc, eq, not } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { videos, watchLater } from '../db/schema.ts';
import { visibleWorks } from './visibility.ts';

/** At most this many are named: a client only greys them out. */
export const INVALID_LIST_MAX = 50;

/** Ids of the works in `userId`'s 稍后再看 that they may no longer see, the latest added first. */
export async function unavailableWatchLater(userId: number): Promise<number[]> {
  const rows = await db()
    .select({ id: watchLater.targetId })
    .from(watchLater)
    .innerJoin(videos, eq(videos.id, watchLater.targetId))
    .where(and(eq(watchLater.userId, userId), not(visibleWorks(userId))))
    .orderBy(desc(watchLater.createdAt))
    .limit(INVALID_LIST_MAX);
  return rows.map((r) => r.id);
}
