/** 作品数据: per-day counters (China's calendar) kept beside the totals; callers add to today's row in their transaction. */
import { sql } from 'drizzle-orm';
import { config } from '../config.ts';
import { db } from '../db/client.ts';
import type { DbOrTx } from '../db/types.ts';
import { userDailyFollowers, videoDailyStats } from '../db/schema.ts';

export type VideoStat = 'plays' | 'likes' | 'comments' | 'shares';

/**
 * Today in the site's zone (TZ) by the database's clock, whatever the server's own: creators read their numbers by the
 * site's calendar. Made at each use, as the configuration is loaded after this module.
 */
export function today() {
  return sql`(now() at time zone ${config().TZ})::date`;
}

/** Adds `n` (negative to take back, e.g. an unlike) to a video's counter of today. */
export async function addVideoStat(videoId: number, stat: VideoStat, n = 1, q: DbOrTx = db()): Promise<void> {
  const column = sql.identifier(stat);
  await q.execute(sql`
    insert into ${videoDailyStats} (video_id, day, ${column}) values (${videoId}, ${today()}, ${n})
    on conflict (video_id, day) do update set ${column} = ${videoDailyStats}.${column} + excluded.${column}`);
}

/** Adds `n` (negative for an unfollow) to a user's new followers of today. */
export async function addNewFollowers(userId: number, n = 1, q: DbOrTx = db()): Promise<void> {
  await q.execute(sql`
    insert into ${userDailyFollowers} (user_id, day, new_followers) values (${userId}, ${today()}, ${n})
    on conflict (user_id, day) do update set new_followers = ${userDailyFollowers}.new_followers + excluded.new_followers`);
}
