/** Paging through whole lists: every item once, none missing, in the order the cursor promises. */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ok, one, pageAll, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
const W = '/aweme/v1/web';

const ids = (rows: { id: number }[]) => rows.map((r) => String(r.id)).sort();

describe('paging', () => {
  it('aweme/post of the most prolific author, 4 at a time', async () => {
    const author = await one<{ id: number; sec_uid: string; n: number }>(
      ctx,
      sql`
      select u.id, u.sec_uid, count(*)::int as n from videos v join users u on u.id = v.author_id
      where v.deleted_at is null group by u.id order by n desc, u.id limit 1`,
    );
    expect(author.n).toBeGreaterThan(8);
    const got = await pageAll(async (cursor) => {
      const b = await ok('GET', `${W}/aweme/post/`, {
        query: { sec_user_id: author.sec_uid, max_cursor: cursor, count: 4 },
      });
      expect(b.min_cursor).toBe(cursor);
      return {
        ids: b.aweme_list.map((a: { aweme_id: string }) => a.aweme_id),
        next: b.max_cursor,
        hasMore: b.has_more === 1,
      };
    });
    expect(new Set(got).size).toBe(got.length);
    const all = await ctx.db.execute<{ id: number }>(
      sql`select id from videos where author_id = ${author.id} and deleted_at is null`,
    );
    expect([...got].sort()).toEqual(ids(all.rows));
  });

  it('comment/list of the busiest video, 3 at a time', async () => {
    const busiest = await one<{ id: number }>(
      ctx,
      sql`
      select c.video_id as id from comments c join videos v on v.id = c.video_id
      where c.parent_id is null and c.deleted_at is null and v.deleted_at is null
      group by c.video_id order by count(*) desc, c.video_id limit 1`,
    );
    const got = await pageAll(async (cursor) => {
      const b = await ok('GET', `${W}/comment/list/`, { query: { aweme_id: busiest.id, cursor, count: 3 } });
      return { ids: b.comments.map((c: { cid: string }) => c.cid), next: b.cursor, hasMore: b.has_more === 1 };
    });
    expect(new Set(got).size).toBe(got.length);
    const all = await ctx.db.execute<{ id: number }>(sql`
      select id from comments where video_id = ${busiest.id} and parent_id is null and deleted_at is null`);
    expect(all.rows.length).toBeGreaterThan(3);
    expect([...got].sort()).toEqual(ids(all.rows));
  });

  it('user/follower/list and user/following/list of the most followed user, 5 at a time', async () => {
    const star = await one<{ id: number; sec_uid: string }>(
      ctx,
      sql`select id, sec_uid from users order by follower_count desc, id limit 1`,
    );
    const followers = await pageAll(async (cursor) => {
      const b = await ok('GET', `${W}/user/follower/list/`, {
        query: { sec_user_id: star.sec_uid, offset: cursor, count: 5 },
      });
      return { ids: b.followers.map((u: { uid: string }) => u.uid), next: b.offset, hasMore: b.has_more === 1 };
    });
    const dbFollowers = await ctx.db.execute<{ id: number }>(
      sql`select follower_id as id from follows where followee_id = ${star.id}`,
    );
    expect(dbFollowers.rows.length).toBeGreaterThan(5);
    expect(new Set(followers).size).toBe(followers.length);
    expect([...followers].sort()).toEqual(ids(dbFollowers.rows));

    const following = await pageAll(async (cursor) => {
      const b = await ok('GET', `${W}/user/following/list/`, {
        query: { sec_user_id: star.sec_uid, offset: cursor, count: 5 },
      });
      return { ids: b.followings.map((u: { uid: string }) => u.uid), next: b.offset, hasMore: b.has_more === 1 };
    });
    const dbFollowing = await ctx.db.execute<{ id: number }>(
      sql`select followee_id as id from follows where follower_id = ${star.id}`,
    );
    expect([...following].sort()).toEqual(ids(dbFollowing.rows));
  });

  it('history/read through 25 recorded videos, 7 at a time, latest first', async () => {
    const user = await one<{ id: number }>(ctx, sql`select id from users where not is_demo order by id desc limit 1`);
    const token = await tokenFor(user.id);
    await ctx.db.execute(sql`delete from watch_history where user_id = ${user.id}`);
    const videos = await ctx.db.execute<{ id: number }>(
      sql`select id from videos where deleted_at is null order by id limit 25`,
    );
    for (const v of videos.rows)
      await ok('POST', `${W}/history/write/`, { form: { aweme_id: v.id, progress: 100 }, token });
    const got = await pageAll(async (cursor) => {
      const b = await ok('GET', `${W}/history/read/`, { query: { max_cursor: cursor, count: 7 }, token });
      return {
        ids: b.aweme_list.map((a: { aweme_id: string }) => a.aweme_id),
        next: b.max_cursor,
        hasMore: b.has_more === 1,
      };
    });
    expect(got).toEqual(videos.rows.map((v) => String(v.id)).reverse());
  });

  it('aweme/favorite of the demo account, 6 at a time', async () => {
    const demo = await one<{ id: number; sec_uid: string }>(
      ctx,
      sql`select id, sec_uid from users where is_demo limit 1`,
    );
    const got = await pageAll(async (cursor) => {
      const b = await ok('GET', `${W}/aweme/favorite/`, {
        query: { sec_user_id: demo.sec_uid, max_cursor: cursor, count: 6 },
      });
      return {
        ids: b.aweme_list.map((a: { aweme_id: string }) => a.aweme_id),
        next: b.max_cursor,
        hasMore: b.has_more === 1,
      };
    });
    const liked = await ctx.db.execute<{ id: number }>(sql`
      select l.video_id as id from likes l join videos v on v.id = l.video_id where l.user_id = ${demo.id} and v.deleted_at is null`);
    expect(new Set(got).size).toBe(got.length);
    expect([...got].sort()).toEqual(ids(liked.rows));
  });
});
