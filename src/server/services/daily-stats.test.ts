import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { useFreshDb } from '../../../tests/setup/test-db.ts';
import { deleteComment, publishComment } from './comment-writes.ts';
import { addNewFollowers, addVideoStat } from './daily-stats.ts';
import { countShare, recordHistory, setVideoLike } from './interactions.ts';
import { setFollow } from './social.ts';

let db: Db;
useFreshDb((d) => (db = d));

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  const { rows } = await db.execute(query);
  if (!rows[0]) throw new Error('test fixture query found nothing');
  return rows[0] as T;
}

it("adds to today's row, creating it on the first count", async () => {
  // A new video has no rows yet, whatever the seed gave the others.
  const { id } = await one<{
    id: number;
  }>(sql`insert into videos (author_id, channel_id, "desc", media, poster, duration_ms, width, height, size_bytes)
    values (1, 300201, '新作品', 'x.mp4', 'x.webp', 1000, 540, 960, 1) returning id`);
  await addVideoStat(id, 'plays');
  await addVideoStat(id, 'plays', 2);
  await addVideoStat(id, 'likes', -1);
  const { rows } =
    await db.execute(sql`select plays, likes, comments, day = (now() at time zone 'Asia/Shanghai')::date as today
    from video_daily_stats where video_id = ${id}`);
  expect(rows).toEqual([{ plays: 3, likes: -1, comments: 0, today: true }]);
  const read = async () =>
    (
      await one<{ n: number }>(sql`select coalesce(sum(new_followers), 0)::int as n from user_daily_followers
      where user_id = 1 and day = (now() at time zone 'Asia/Shanghai')::date`)
    ).n;
  const before = await read();
  await addNewFollowers(1, 3);
  expect((await read()) - before).toBe(3);
});

interface Counts {
  plays: number;
  likes: number;
  comments: number;
  shares: number;
}

/** Today's row of a video (zeros when it has none) beside the video's totals. */
async function snapshot(videoId: number): Promise<{ today: Counts; total: Counts }> {
  const row = await one<{ today: Counts; total: Counts }>(sql`
    select json_build_object('plays', coalesce(s.plays, 0), 'likes', coalesce(s.likes, 0),
                             'comments', coalesce(s.comments, 0), 'shares', coalesce(s.shares, 0)) as today,
           json_build_object('plays', v.play_count, 'likes', v.digg_count,
                             'comments', v.comment_count, 'shares', v.share_count) as total
    from videos v
    left join video_daily_stats s on s.video_id = v.id and s.day = (now() at time zone 'Asia/Shanghai')::date
    where v.id = ${videoId}`);
  return row;
}

/** What `action` moved on today's row and on the totals: the two must agree. */
async function moved(videoId: number, action: () => Promise<unknown>): Promise<Counts> {
  const before = await snapshot(videoId);
  await action();
  const after = await snapshot(videoId);
  const diff = (a: Counts, b: Counts): Counts => ({
    plays: b.plays - a.plays,
    likes: b.likes - a.likes,
    comments: b.comments - a.comments,
    shares: b.shares - a.shares,
  });
  const today = diff(before.today, after.today);
  expect(today).toEqual(diff(before.total, after.total));
  return today;
}

const none: Counts = { plays: 0, likes: 0, comments: 0, shares: 0 };

describe('the services fill today’s row in the transaction that moves the total', () => {
  let pick = 0;
  /** A live public video, and a user (not its author) who never liked or watched it. */
  const pair = () =>
    one<{ videoId: number; userId: number }>(sql`
      select v.id as "videoId", u.id as "userId"
      from videos v join users u on u.id <> v.author_id
      where v.deleted_at is null and v.status = 'published' and v.visibility = 'public' and v.allow_comments
        and not exists (select 1 from likes l where l.video_id = v.id and l.user_id = u.id)
        and not exists (select 1 from watch_history h where h.video_id = v.id and h.user_id = u.id)
      order by md5(v.id || ':' || u.id) limit 1 offset ${pick++}`);

  it('plays: a first watch counts one, a watch within the replay window none', async () => {
    const { videoId, userId } = await pair();
    expect(await moved(videoId, () => recordHistory(userId, videoId, 500))).toEqual({ ...none, plays: 1 });
    expect(await moved(videoId, () => recordHistory(userId, videoId, 900))).toEqual(none);
  });

  it('likes: +1 on a like, −1 on the unlike, nothing for a repeat', async () => {
    const { videoId, userId } = await pair();
    expect(await moved(videoId, () => setVideoLike(userId, videoId, true))).toEqual({ ...none, likes: 1 });
    expect(await moved(videoId, () => setVideoLike(userId, videoId, true))).toEqual(none);
    expect(await moved(videoId, () => setVideoLike(userId, videoId, false))).toEqual({ ...none, likes: -1 });
  });

  it('comments: +1 per comment or reply, −n when a root goes with its replies', async () => {
    const { videoId, userId } = await pair();
    let root = 0;
    expect(await moved(videoId, async () => (root = (await publishComment(userId, videoId, '好看')).id))).toEqual({
      ...none,
      comments: 1,
    });
    expect(await moved(videoId, () => publishComment(userId, videoId, '同意', root))).toEqual({ ...none, comments: 1 });
    expect(await moved(videoId, () => publishComment(userId, videoId, '再来一条', root))).toEqual({
      ...none,
      comments: 1,
    });
    expect(await moved(videoId, () => deleteComment(userId, root))).toEqual({ ...none, comments: -3 });
  });

  it('shares: +1 per share; none when the video is not there', async () => {
    const { videoId, userId } = await pair();
    expect(await moved(videoId, () => countShare(videoId, userId))).toEqual({ ...none, shares: 1 });
    await expect(countShare(2_000_000_000, userId)).rejects.toThrow();
    const { rows } = await db.execute(sql`select 1 from video_daily_stats where video_id = 2000000000`);
    expect(rows).toHaveLength(0);
  });

  it('new followers: +1 on a follow, −1 on the unfollow, matching follower_count', async () => {
    const { a, b } = await one<{ a: number; b: number }>(sql`
      select x.id as a, y.id as b from users x join users y on y.id <> x.id
      where not exists (select 1 from follows f where f.follower_id = x.id and f.followee_id = y.id)
      order by x.id, y.id limit 1`);
    const read = () =>
      one<{ today: number; total: number }>(sql`
        select coalesce((select new_followers from user_daily_followers
                         where user_id = ${b} and day = (now() at time zone 'Asia/Shanghai')::date), 0) as today,
               (select follower_count from users where id = ${b}) as total`);
    const start = await read();
    await setFollow(a, b, true);
    await setFollow(a, b, true);
    const followed = await read();
    expect([followed.today - start.today, followed.total - start.total]).toEqual([1, 1]);
    await setFollow(a, b, false);
    expect(await read()).toEqual(start);
  });
});
