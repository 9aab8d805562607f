import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, seedNow, type TestDb } from '../../../../tests/setup/test-db.ts';
import { HISTORY_DAYS } from './daily-stats.ts';

let t: TestDb;
beforeAll(async () => {
  t = await freshDb();
});
afterAll(() => t.close());

const rows = async <T>(query: string, params: unknown[] = []) => (await t.pool.query(query, params)).rows as T[];
const SEED_DAY = `(($1::timestamptz) at time zone 'Asia/Shanghai')::date`;

describe('seeded daily stats', () => {
  it('never add up to more than the totals they belong to', async () => {
    const over = await rows(`
      select v.id from videos v join video_daily_stats s on s.video_id = v.id group by v.id
      having sum(s.plays) > v.play_count or sum(s.likes) > v.digg_count
          or sum(s.comments) > v.comment_count or sum(s.shares) > v.share_count
          or min(least(s.plays, s.likes, s.comments, s.shares)) < 0`);
    expect(over).toEqual([]);
    const overFollowed = await rows(`
      select u.id from users u join user_daily_followers f on f.user_id = u.id group by u.id
      having sum(f.new_followers) > u.follower_count or min(f.new_followers) <= 0`);
    expect(overFollowed).toEqual([]);
  });

  it(`cover the last ${HISTORY_DAYS} days of China's calendar, today included`, async () => {
    const [range] = await rows<{ first: number; last: number }>(
      `select ${SEED_DAY} - min(day) as first, ${SEED_DAY} - max(day) as last from video_daily_stats`,
      [seedNow()],
    );
    expect(range).toEqual({ first: HISTORY_DAYS - 1, last: 0 });
  });

  it('count likes, comments and follows on the day their rows were made', async () => {
    const likes = await rows(
      `
      select l.video_id, (l.created_at at time zone 'Asia/Shanghai')::date::text as day, count(*)::int as n
      from likes l where (l.created_at at time zone 'Asia/Shanghai')::date > ${SEED_DAY} - ${HISTORY_DAYS}
      group by 1, 2 order by 1, 2`,
      [seedNow()],
    );
    expect(likes.length).toBeGreaterThan(100);
    expect(
      await rows(`select video_id, day::text, likes as n from video_daily_stats where likes > 0 order by 1, 2`),
    ).toEqual(likes);
    const follows = await rows(
      `
      select f.followee_id as user_id, (f.created_at at time zone 'Asia/Shanghai')::date::text as day, count(*)::int as n
      from follows f where (f.created_at at time zone 'Asia/Shanghai')::date > ${SEED_DAY} - ${HISTORY_DAYS}
      group by 1, 2 order by 1, 2`,
      [seedNow()],
    );
    expect(await rows(`select user_id, day::text, new_followers as n from user_daily_followers order by 1, 2`)).toEqual(
      follows,
    );
  });

  it('give the demo account something to chart in its last 7 days', async () => {
    const [demo] = await rows<{ plays: number; likes: number; comments: number; shares: number; followers: number }>(
      `
      select sum(s.plays)::int as plays, sum(s.likes)::int as likes, sum(s.comments)::int as comments, sum(s.shares)::int as shares,
             (select sum(new_followers)::int from user_daily_followers f join users u on u.id = f.user_id
              where u.is_demo and f.day > ${SEED_DAY} - 7) as followers
      from video_daily_stats s join videos v on v.id = s.video_id join users u on u.id = v.author_id
      where u.is_demo and s.day > ${SEED_DAY} - 7`,
      [seedNow()],
    );
    for (const n of Object.values(demo!)) expect(n).toBeGreaterThan(0);
  });
});
