/** What only the owner's profile page shows: whether a password is set, and the private tabs' counts. */
import { sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { videos } from '../db/schema.ts';
import { visibleWorks } from './visibility.ts';

export interface OwnProfileExtras {
  /** A code-login account has none until it sets one (设置密码 rather than 修改密码). */
  hasPassword: boolean;
  /** Watch history of the last 30 days, counted as the 观看历史 tab lists it. */
  recordCount: number;
  watchLaterCount: number;
}

/** The owner-only facts of a profile in one round trip; null for an unknown user. */
export async function ownProfileExtras(userId: number): Promise<OwnProfileExtras | null> {
  const { rows } = await db().execute<{ has_password: boolean; record_count: number; watch_later_count: number }>(sql`
    select u.password_hash is not null as has_password,
      (select count(*)::int from watch_history h join ${videos} on ${videos.id} = h.video_id
        where h.user_id = u.id and ${visibleWorks(userId)} and h.watched_at > now() - interval '30 days') as record_count,
      (select count(*)::int from watch_later w join ${videos} on ${videos.id} = w.video_id
        where w.user_id = u.id and ${visibleWorks(userId)}) as watch_later_count
    from users u where u.id = ${userId}`);
  const row = rows[0];
  return row
    ? { hasPassword: row.has_password, recordCount: row.record_count, watchLaterCount: row.watch_later_count }
    : null;
}
