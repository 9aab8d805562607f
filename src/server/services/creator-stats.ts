/** 作品数据: a creator's plays, likes, comments, shares and new followers per day and in total, for all works or one. */
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import {
  STATS_METRICS,
  type CreatorStats,
  type StatsDay,
  type StatsFigures,
  type StatsRange,
  type StatsWork,
} from '../../shared/creator-stats.ts';
import { db, intLiteral } from '../db/client.ts';
import { authorDailyStats, userDailyFollowers, videoDailyStats, videos } from '../db/schema.ts';
import { today } from './daily-stats.ts';
import { notFound } from '../errors.ts';

/**
 * Works offered by the work filter: the newest this many, and the chosen one when it is older. A select of a prolific
 * creator's every work would be a thousand options read on every visit; 视频管理 links each work to its own figures.
 */
export const STATS_WORKS = 50;

/**
 * The creator's newest published works (STATS_WORKS at most), titled as the studio's work list titles them, and
 * `workId` after them when it is an older one; null when `workId` is not a published work of theirs.
 */
async function listStatsWorks(userId: number, workId?: number): Promise<StatsWork[] | null> {
  const mine = and(eq(videos.authorId, userId), isNull(videos.deletedAt), eq(videos.status, 'published'));
  const rows = await db()
    .select({ id: videos.id, desc: videos.desc })
    .from(videos)
    .where(mine)
    .orderBy(desc(videos.createdAt), desc(videos.id))
    .limit(STATS_WORKS);
  const works = rows.map((r) => ({ id: r.id, title: r.desc }));
  if (workId === undefined || works.some((w) => w.id === workId)) return works;
  const [chosen] = await db()
    .select({ id: videos.id, desc: videos.desc })
    .from(videos)
    .where(and(mine, eq(videos.id, workId)));
  return chosen ? [...works, { id: chosen.id, title: chosen.desc }] : null;
}

/** The figures of `userId`'s works (or of `workId`, one of them) over the last `days` days, today included. */
export async function creatorStats(userId: number, days: StatsRange, workId?: number): Promise<CreatorStats> {
  const works = await listStatsWorks(userId, workId);
  if (!works) throw notFound('error.workNotFound');
  // The range's length in the text (one of a few): the statement then keeps one plan.
  const first = sql`${today()} - ${intLiteral(days - 1)}`;
  // All works: the author's own daily sums (kept by triggers), a month of rows whatever the number of works.
  const figures =
    workId === undefined
      ? sql`select day, plays, likes, comments, shares from ${authorDailyStats} where user_id = ${userId} and day >= ${first}`
      : sql`select day, plays, likes, comments, shares from ${videoDailyStats} where video_id = ${workId} and day >= ${first}`;
  // Days without a row still get a line: the chart's axis is the calendar, not the activity.
  const { rows } = await db().execute<{ day: string } & StatsFigures>(sql`
    with range as (select (${first} + k)::date as day from generate_series(0, ${intLiteral(days - 1)}) k),
    works as (${figures})
    select to_char(r.day, 'YYYY-MM-DD') as day,
           coalesce(x.plays, 0) as plays, coalesce(x.likes, 0) as likes, coalesce(x.comments, 0) as comments,
           coalesce(x.shares, 0) as shares, coalesce(f.new_followers, 0) as "newFollowers"
    from range r
    left join works x on x.day = r.day
    left join ${userDailyFollowers} f on f.user_id = ${userId} and f.day = r.day
    order by r.day`);
  const daily: StatsDay[] = rows.map((r) => ({
    day: r.day,
    plays: r.plays,
    likes: r.likes,
    comments: r.comments,
    shares: r.shares,
    newFollowers: r.newFollowers,
  }));
  const totals = Object.fromEntries(STATS_METRICS.map((m) => [m, daily.reduce((s, d) => s + d[m], 0)])) as StatsFigures;
  return { days, workId: workId ?? null, totals, daily, works };
}
