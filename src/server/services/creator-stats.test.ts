import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFreshDb } from '../../../tests/setup/test-db.ts';
import { wallClock } from '../../shared/wall-clock.ts';
import type { Db } from '../db/client.ts';
import { publishComment } from './comment-writes.ts';
import { creatorStats, STATS_WORKS } from './creator-stats.ts';
import { countShare, recordHistory, setVideoLike } from './interactions.ts';
import { setFollow } from './social.ts';

let db: Db;
useFreshDb((d) => (db = d));

async function one<T>(query: ReturnType<typeof sql>): Promise<T> {
  const { rows } = await db.execute(query);
  if (!rows[0]) throw new Error('test fixture query found nothing');
  return rows[0] as T;
}

const chinaToday = () => {
  const c = wallClock(new Date());
  return `${c.year}-${c.month}-${c.day}`;
};

// A creator with two public works, a fan who has not touched them, and another creator's work.
let creator: number;
let fan: number;
let workA: number;
let workB: number;
let othersWork: number;

beforeAll(async () => {
  ({ creator, workA, workB } = await one<{ creator: number; workA: number; workB: number }>(sql`
    select v.author_id as creator, min(v.id) as "workA", max(v.id) as "workB" from videos v
    where v.deleted_at is null and v.status = 'published' and v.visibility = 'public' and v.allow_comments
    group by v.author_id having count(*) >= 2 order by v.author_id limit 1`));
  ({ fan } = await one<{ fan: number }>(sql`
    select u.id as fan from users u where u.id <> ${creator}
      and not exists (select 1 from follows f where f.follower_id = u.id and f.followee_id = ${creator})
      and not exists (select 1 from likes l where l.user_id = u.id and l.video_id in (${workA}, ${workB}))
      and not exists (select 1 from watch_history h where h.user_id = u.id and h.video_id in (${workA}, ${workB}))
    order by u.id limit 1`));
  ({ othersWork } = await one<{ othersWork: number }>(
    sql`select id as "othersWork" from videos where author_id <> ${creator} order by id limit 1`,
  ));
  // Older days, written as the services would have on those days.
  await db.execute(sql`
    insert into video_daily_stats (video_id, day, plays, likes) values
      (${workA}, (now() at time zone 'Asia/Shanghai')::date - 1, 5, 2),
      (${workB}, (now() at time zone 'Asia/Shanghai')::date - 6, 7, 0),
      (${workA}, (now() at time zone 'Asia/Shanghai')::date - 8, 11, 1),
      (${othersWork}, (now() at time zone 'Asia/Shanghai')::date - 1, 100, 100)
    on conflict (video_id, day) do nothing`);
  // Today, by the services themselves.
  await recordHistory(fan, workA, 0);
  await setVideoLike(fan, workA, true);
  await publishComment(fan, workB, '拍得真好');
  await countShare(workB, fan);
  await setFollow(fan, creator, true);
});

describe('creatorStats', () => {
  it('gives every day of the range, oldest first, ending today in China, with zeros on quiet days', async () => {
    for (const days of [7, 30] as const) {
      const stats = await creatorStats(creator, days);
      expect(stats.daily).toHaveLength(days);
      expect(stats.daily.at(-1)!.day).toBe(chinaToday());
      const ms = stats.daily.map((d) => Date.parse(`${d.day}T00:00:00Z`));
      for (let k = 1; k < ms.length; k++) expect(ms[k]! - ms[k - 1]!).toBe(86_400_000);
    }
    const week = await creatorStats(creator, 7);
    expect(week.daily.filter((d) => d.plays === 0 && d.likes === 0)).toHaveLength(4);
  });

  it('sums the works per day and in total; the other creator’s work is not counted', async () => {
    const week = await creatorStats(creator, 7);
    expect(week.daily.at(-1)).toEqual({
      day: chinaToday(),
      plays: 1,
      likes: 1,
      comments: 1,
      shares: 1,
      newFollowers: 1,
    });
    expect(week.daily.at(-2)).toMatchObject({ plays: 5, likes: 2 });
    expect(week.daily[0]).toMatchObject({ plays: 7, likes: 0 });
    expect(week.totals).toEqual({ plays: 13, likes: 3, comments: 1, shares: 1, newFollowers: 1 });
    expect((await creatorStats(creator, 30)).totals).toMatchObject({ plays: 24, likes: 4 });
  });

  it('limits the works to one with workId; new followers stay the account’s', async () => {
    const a = await creatorStats(creator, 7, workA);
    expect(a.workId).toBe(workA);
    expect(a.totals).toEqual({ plays: 6, likes: 3, comments: 0, shares: 0, newFollowers: 1 });
    const b = await creatorStats(creator, 7, workB);
    expect(b.totals).toEqual({ plays: 7, likes: 0, comments: 1, shares: 1, newFollowers: 1 });
  });

  it('offers the newest published works in the work filter, and an older chosen one after them', async () => {
    const published = async () =>
      (
        await db.execute<{ id: number }>(sql`
          select id from videos where author_id = ${creator} and deleted_at is null and status = 'published'
          order by created_at desc, id desc`)
      ).rows.map((r) => r.id);
    const { works } = await creatorStats(creator, 7);
    expect(works.map((w) => w.id)).toEqual((await published()).slice(0, STATS_WORKS));
    expect(works.every((w) => w.title.length > 0)).toBe(true);

    // A prolific creator: as many newer works push workA out of the filter; chosen, it comes after them.
    await db.execute(sql`
      insert into videos (author_id, channel_id, "desc", media, poster, duration_ms, width, height, size_bytes)
      select author_id, channel_id, '新作品 ' || g, media, poster, duration_ms, width, height, size_bytes
      from videos, generate_series(1, ${STATS_WORKS}) g where id = ${workA}`);
    const newest = await creatorStats(creator, 7);
    expect(newest.works.map((w) => w.id)).toEqual((await published()).slice(0, STATS_WORKS));
    expect(newest.works.map((w) => w.id)).not.toContain(workA);
    const chosen = await creatorStats(creator, 7, workA);
    expect(chosen.workId).toBe(workA);
    expect(chosen.works.map((w) => w.id)).toEqual([...newest.works.map((w) => w.id), workA]);
  });

  it('refuses a work that is not the caller’s, or is deleted', async () => {
    await expect(creatorStats(creator, 7, othersWork)).rejects.toMatchObject({
      kind: 'not_found',
      key: 'error.workNotFound',
    });
    await expect(creatorStats(creator, 7, 2_000_000_000)).rejects.toMatchObject({ kind: 'not_found' });
    await db.execute(sql`update videos set deleted_at = now() where id = ${workB}`);
    await expect(creatorStats(creator, 7, workB)).rejects.toMatchObject({ kind: 'not_found' });
    expect((await creatorStats(creator, 7)).totals.plays).toBe(6);
    await db.execute(sql`update videos set deleted_at = null where id = ${workB}`);
    // Restored, its days count again.
    expect((await creatorStats(creator, 7)).totals.plays).toBe(13);
  });

  it('answers zeros and no works for a new user', async () => {
    const { id } = await one<{ id: number }>(sql`
      insert into users (sec_uid, nickname, avatar) values ('MS4wLjABAAAAnewcomer', '新人', 'avatars/a01.webp') returning id`);
    const stats = await creatorStats(id, 7);
    expect(stats.works).toEqual([]);
    expect(stats.totals.plays + stats.totals.likes + stats.totals.comments + stats.totals.shares).toBe(0);
  });
});
