/**
 * 减少此类: a member asks for less of a work's channel or of its author in their recommend feed. Kept per member (their
 * newest LESS_KEEP rows), read once per feed page as a small set, and applied by the feed itself (feed.ts): a strong
 * down-weight and at most one item a page, so the next page already shows it.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import type { LessKind } from '../../shared/feed-reason.ts';
import { db } from '../db/client.ts';
import { feedLess, videos } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import { visibleWorks } from './visibility.ts';

/** How many 减少此类 rows a member keeps: the newest replace the oldest, so a feed page reads a bounded set. */
export const LESS_KEEP = 200;

/** What a member wants less of: channel ids and author ids. */
export interface Less {
  channels: Set<number>;
  authors: Set<number>;
}

export const NO_LESS: Less = { channels: new Set(), authors: new Set() };

/** Records 减少此类 on the channel or the author of a work the member may see; answers what was lowered. */
export async function markLess(
  userId: number,
  videoId: number,
  kind: LessKind,
): Promise<{ kind: LessKind; targetId: number }> {
  return db().transaction(async (tx) => {
    const [v] = await tx
      .select({ authorId: videos.authorId, channelId: videos.channelId })
      .from(videos)
      .where(and(eq(videos.id, videoId), visibleWorks(userId)));
    if (!v) throw notFound('error.videoNotFound');
    const targetId = kind === 'channel' ? v.channelId : v.authorId;
    await tx
      .insert(feedLess)
      .values({ userId, kind, targetId })
      .onConflictDoUpdate({
        target: [feedLess.userId, feedLess.kind, feedLess.targetId],
        set: { createdAt: sql`now()` },
      });
    // Keep the newest LESS_KEEP: the member's rows are one range of the primary key.
    await tx.execute(sql`delete from feed_less where user_id = ${userId} and (kind, target_id) not in (
      select kind, target_id from feed_less where user_id = ${userId} order by created_at desc limit ${LESS_KEEP})`);
    return { kind, targetId };
  });
}

/** Takes a 减少此类 back (the toast's 撤销); answers whether there was one. */
export async function undoLess(userId: number, kind: LessKind, targetId: number): Promise<boolean> {
  const gone = await db()
    .delete(feedLess)
    .where(and(eq(feedLess.userId, userId), eq(feedLess.kind, kind), eq(feedLess.targetId, targetId)))
    .returning({ targetId: feedLess.targetId });
  return gone.length > 0;
}

/** The channels and authors a member wants less of (at most LESS_KEEP rows, one range of the primary key). */
export async function readLess(userId: number): Promise<Less> {
  const rows = await db()
    .select({ kind: feedLess.kind, targetId: feedLess.targetId })
    .from(feedLess)
    .where(eq(feedLess.userId, userId))
    .orderBy(desc(feedLess.createdAt))
    .limit(LESS_KEEP);
  const less: Less = { channels: new Set(), authors: new Set() };
  for (const r of rows) (r.kind === 'channel' ? less.channels : less.authors).add(r.targetId);
  return less;
}
