/** 作品数据: per-day counters (China's calendar) kept beside the totals; callers add to today's row in their transaction. */
import { sql } from 'drizzle-orm';
import { displayTimeZone } from '../../shared/wall-clock.ts';
import { db } from '../db/client.ts';
import type { DbOrTx } from '../db/recount.ts';
import { userDailyFollowers, videoDailyStats } from '../db/schema.ts';

export type VideoStat = 'plays' | 'likes' | 'comments' | 'shares';

/** Today in China by the database's clock, whatever the server's time zone: creators read their numbers by their own calendar. */
export const TODAY = sql`(now() at time zone ${displayTimeZone()})::date`;

/** Adds `n` (negative to take back, e.g. an unlike) to a video's counter of today. */
export async function addVideoStat(videoId: number, stat: VideoStat, n = 1, q: DbOrTx = db()): Promise<void> {
  const column = sql.identifier(stat);
  await q.execute(sql`
    insert into ${videoDailyStats} (video_id, day, ${column}) values (${videoId}, ${TODAY}, ${n})
    on conflict (video_id, day) do update set ${column} = ${videoDailyStats}.${column} + excluded.${column}`);
}

/** Adds `n` (negative for an unfollow) to a user's new followers of today. */
export async function addNewFollowers(userId: number, n = 1, q: DbOrTx = db()): Promise<void> {
  await q.execute(sql`
    insert into ${userDailyFollowers} (user_id, day, new_followers) values (${userId}, ${TODAY}, ${n})
    on conflict (user_id, day) do update set new_followers = ${userDailyFollowers}.new_followers + excluded.new_followers`);
}
