/** Contract tests of every Family A read: each answer parses with its registered response schema. */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { setFooterLinks } from '../../src/server/services/footer-links.ts';
import { aweme } from '../../src/server/api/schemas.ts';
import { call, expectErrorA, ok, one, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
const W = '/aweme/v1/web';

let demo: { id: number; sec_uid: string };
let token: string;
let video: { id: number; author: number };
let busy: { video_id: number; comment_id: number };
let mix: { id: number; sec_uid: string; items: number };

beforeAll(async () => {
  demo = await one(ctx, sql`select id, sec_uid from users where is_demo limit 1`);
  token = await tokenFor(demo.id);
  video = await one(
    ctx,
    sql`select id, author_id as author from videos where deleted_at is null order by digg_count desc, id limit 1`,
  );
  busy = await one(
    ctx,
    sql`
    select c.video_id, c.id as comment_id from comments c join videos v on v.id = c.video_id
    where c.parent_id is null and c.deleted_at is null and v.deleted_at is null
      and (select count(*) from comments r where r.parent_id = c.id and r.deleted_at is null) >= 2
    order by c.id limit 1`,
  );
  mix = await one(
    ctx,
    sql`
    select s.id, u.sec_uid, (select count(*)::int from series_items si join videos v on v.id = si.video_id
      where si.series_id = s.id and v.deleted_at is null) as items
    from series s join users u on u.id = s.author_id where s.kind = 'mix' order by s.id limit 1`,
  );
});

describe('feeds', () => {
  it('tab/feed answers count awemes, paged by refresh_index without repeats', async () => {
    const first = await ok('GET', `${W}/tab/feed/`, { query: { count: 10, refresh_index: 1 } });
    const second = await ok('GET', `${W}/tab/feed/`, { query: { count: 10, refresh_index: 2 } });
    expect(first.aweme_list).toHaveLength(10);
    expect(first.has_more).toBe(1);
    const ids = [...first.aweme_list, ...second.aweme_list].map((a: { aweme_id: string }) => a.aweme_id);
    expect(new Set(ids).size).toBe(ids.length);
    // The path also answers without its trailing slash.
    expect((await call('GET', `/api${W}/tab/feed`)).status).toBe(200);
  });

  it('tab/feed for a viewer carries their like, collect and follow state', async () => {
    const body = await ok('GET', `${W}/tab/feed/`, { query: { count: 50 }, token });
    const liked = await ctx.db.execute<{ video_id: number }>(
      sql`select video_id from likes where user_id = ${demo.id}`,
    );
    const likedIds = new Set(liked.rows.map((r) => String(r.video_id)));
    for (const a of body.aweme_list) expect(a.user_digged).toBe(likedIds.has(a.aweme_id) ? 1 : 0);
  });

  it('module/feed cards carry the aweme as a JSON string', async () => {
    const body = await ok('GET', `${W}/module/feed/`, { query: { count: 5 } });
    expect(body.cards).toHaveLength(5);
    for (const card of body.cards) expect(aweme.safeParse(JSON.parse(card.aweme)).success).toBe(true);
  });
});

describe('videos', () => {
  it('aweme/detail answers the aweme with its statistics and hashtags', async () => {
    const body = await ok('GET', `${W}/aweme/detail/`, { query: { aweme_id: video.id } });
    const row = await one<{ digg_count: number; desc: string }>(
      ctx,
      sql`select digg_count, "desc" from videos where id = ${video.id}`,
    );
    expect(body.aweme_detail.aweme_id).toBe(String(video.id));
    expect(body.aweme_detail.statistics.digg_count).toBe(row.digg_count);
    for (const t of body.aweme_detail.text_extra) expect(row.desc.slice(t.start, t.end)).toBe(`#${t.hashtag_name}`);
    expect(body.aweme_detail.video.play_addr.url_list[0]).toMatch(/^\/media\//);
  });

  it('aweme/detail of an unknown or deleted id is a 404', async () => {
    expectErrorA(await call('GET', `/api${W}/aweme/detail/`, { query: { aweme_id: 2_000_000_000 } }), 404, 4);
    const deleted = await ctx.db.execute<{ id: number }>(
      sql`select id from videos where deleted_at is not null limit 1`,
    );
    if (deleted.rows[0])
      expectErrorA(await call('GET', `/api${W}/aweme/detail/`, { query: { aweme_id: deleted.rows[0].id } }), 404, 4);
  });

  it('aweme/related leaves out the video and filterGids', async () => {
    const first = await ok('GET', `${W}/aweme/related/`, { query: { aweme_id: video.id, count: 5 } });
    expect(first.aweme_list.length).toBeGreaterThan(0);
    const excluded = first.aweme_list.slice(0, 2).map((a: { aweme_id: string }) => a.aweme_id);
    const again = await ok('GET', `${W}/aweme/related/`, {
      query: { aweme_id: video.id, count: 5, filterGids: excluded.join(',') },
    });
    const ids = again.aweme_list.map((a: { aweme_id: string }) => a.aweme_id);
    expect(ids).not.toContain(String(video.id));
    for (const x of excluded) expect(ids).not.toContain(x);
    expectErrorA(await call('GET', `/api${W}/aweme/related/`, { query: { aweme_id: 2_000_000_000 } }), 404, 4);
  });
});

describe('comments', () => {
  it('comment/list answers comments with total and cursor', async () => {
    const body = await ok('GET', `${W}/comment/list/`, { query: { aweme_id: busy.video_id, cursor: 0, count: 20 } });
    expect(body.comments.length).toBeGreaterThan(0);
    for (const c of body.comments) {
      expect(c.aweme_id).toBe(String(busy.video_id));
      expect(c.reply_id).toBe('0');
    }
    expect(body.total).toBeGreaterThanOrEqual(body.comments.length);
    expectErrorA(await call('GET', `/api${W}/comment/list/`, { query: { aweme_id: 2_000_000_000 } }), 404, 4);
  });

  it('comment/list/reply answers the replies of one comment, oldest first', async () => {
    const body = await ok('GET', `${W}/comment/list/reply/`, {
      query: { item_id: busy.video_id, comment_id: busy.comment_id, cursor: 0, count: 1 },
    });
    expect(body.comments).toHaveLength(1);
    expect(body.has_more).toBe(1);
    expect(body.comments[0].reply_id).toBe(String(busy.comment_id));
    const next = await ok('GET', `${W}/comment/list/reply/`, {
      query: { item_id: busy.video_id, comment_id: busy.comment_id, cursor: body.cursor, count: 1 },
    });
    expect(next.comments[0].create_time).toBeGreaterThanOrEqual(body.comments[0].create_time);
    expect(next.comments[0].cid).not.toBe(body.comments[0].cid);
    // A comment of another video is not found under this one.
    const other = await one<{ id: number }>(
      ctx,
      sql`select id from videos where id <> ${busy.video_id} and deleted_at is null limit 1`,
    );
    expectErrorA(
      await call('GET', `/api${W}/comment/list/reply/`, { query: { item_id: other.id, comment_id: busy.comment_id } }),
      404,
      4,
    );
  });
});

describe('search', () => {
  it('general/search/single finds videos by a hashtag', async () => {
    const tag = await one<{ name: string }>(
      ctx,
      sql`
      select h.name from hashtags h join video_hashtags vh on vh.hashtag_id = h.id group by h.name order by count(*) desc, h.name limit 1`,
    );
    const body = await ok('GET', `${W}/general/search/single/`, { query: { keyword: tag.name, offset: 0, count: 5 } });
    expect(body.data.length).toBeGreaterThan(0);
    for (const d of body.data) expect(d.aweme_info.desc).toContain(tag.name);
    if (body.has_more) {
      const next = await ok('GET', `${W}/general/search/single/`, {
        query: { keyword: tag.name, offset: body.cursor, count: 5 },
      });
      const ids = new Set(body.data.map((d: { aweme_info: { aweme_id: string } }) => d.aweme_info.aweme_id));
      for (const d of next.data) expect(ids.has(d.aweme_info.aweme_id)).toBe(false);
    }
  });

  it('hot/search/list ranks the words searched lately', async () => {
    await ctx.db.execute(sql`
      insert into search_log (query, created_at)
      select '接口热词甲', now() - (g || ' minutes')::interval from generate_series(1, 30) g
      union all select '接口热词乙', now() - (g || ' minutes')::interval from generate_series(1, 10) g`);
    const body = await ok('GET', `${W}/hot/search/list/`);
    const words = body.data.word_list.map((w: { word: string }) => w.word);
    expect(words.indexOf('接口热词甲')).toBeGreaterThanOrEqual(0);
    expect(words.indexOf('接口热词甲')).toBeLessThan(words.indexOf('接口热词乙'));
    expect(body.data.word_list[0].position).toBe(1);
    expect(new Set(body.data.word_list.map((w: { sentence_id: string }) => w.sentence_id)).size).toBe(words.length);
  });

  it('search/sug completes a prefix, at most 8 words', async () => {
    const body = await ok('GET', `${W}/search/sug/`, { query: { keyword: '接口热' } });
    expect(body.sug_list.map((s: { content: string }) => s.content)).toContain('接口热词甲');
    const wide = await ok('GET', `${W}/search/sug/`, { query: { keyword: '美' } });
    expect(wide.sug_list.length).toBeLessThanOrEqual(8);
  });

  it('api/suggest_words answers groups of words with ids, using the video of from_group_id', async () => {
    const body = await ok('GET', `${W}/api/suggest_words/`, { query: { query: '', from_group_id: video.id } });
    const words = body.data[0].words;
    expect(words.length).toBeGreaterThan(0);
    expect(words.length).toBeLessThanOrEqual(8);
    const tags = await ctx.db.execute<{ name: string }>(sql`
      select h.name from video_hashtags vh join hashtags h on h.id = vh.hashtag_id where vh.video_id = ${video.id}`);
    const ws = words.map((w: { word: string }) => w.word);
    for (const t of tags.rows.slice(0, 3)) expect(ws).toContain(t.name);
  });
});

describe('users', () => {
  it('user/profile/self answers each count from its own column', async () => {
    const body = await ok('GET', `${W}/user/profile/self/`, { token });
    const row = await one<Record<string, number>>(
      ctx,
      sql`
      select follower_count, following_count, favoriting_count, aweme_count, total_favorited, collect_count from users where id = ${demo.id}`,
    );
    expect(body.user.sec_uid).toBe(demo.sec_uid);
    expect(body.user.follower_count).toBe(row.follower_count);
    expect(body.user.following_count).toBe(row.following_count);
    expect(body.user.favoriting_count).toBe(row.favoriting_count);
    expect(body.user.aweme_count).toBe(row.aweme_count);
    expect(body.user.total_favorited).toBe(row.total_favorited);
    expect(body.user_collect_count.collect_count_list[0].collect_count).toBe(row.collect_count);
    expect(body.user.avatar_300x300.url_list[0]).toMatch(/^\/media\//);
    // The seed's demo account follows more people than follow it back: swapped wiring would show.
    expect(row.follower_count).not.toBe(row.following_count);
  });

  it('user/profile/other answers the follow relation to the viewer', async () => {
    const pair = await one<{ sec_uid: string; mutual: boolean }>(
      ctx,
      sql`
      select u.sec_uid, exists (select 1 from follows b where b.follower_id = u.id and b.followee_id = ${demo.id}) as mutual
      from follows f join users u on u.id = f.followee_id where f.follower_id = ${demo.id} order by u.id limit 1`,
    );
    const body = await ok('GET', `${W}/user/profile/other/`, { query: { sec_user_id: pair.sec_uid }, token });
    expect(body.user.follow_status).toBe(pair.mutual ? 2 : 1);
    const anon = await ok('GET', `${W}/user/profile/other/`, { query: { sec_user_id: pair.sec_uid } });
    expect(anon.user.follow_status).toBe(0);
    expectErrorA(
      await call('GET', `/api${W}/user/profile/other/`, { query: { sec_user_id: 'MS4wLjABAAAAnobody' } }),
      404,
      4,
    );
  });

  it('user/following/list and user/follower/list are two different lists', async () => {
    const following = await ok('GET', `${W}/user/following/list/`, { query: { count: 50 }, token });
    const followers = await ok('GET', `${W}/user/follower/list/`, { query: { count: 50 }, token });
    const a = following.followings.map((u: { uid: string }) => u.uid).sort();
    const b = followers.followers.map((u: { uid: string }) => u.uid).sort();
    const dbFollowing = await ctx.db.execute<{ id: number }>(
      sql`select followee_id as id from follows where follower_id = ${demo.id}`,
    );
    const dbFollowers = await ctx.db.execute<{ id: number }>(
      sql`select follower_id as id from follows where followee_id = ${demo.id}`,
    );
    expect(a).toEqual(dbFollowing.rows.map((r) => String(r.id)).sort());
    expect(b).toEqual(dbFollowers.rows.map((r) => String(r.id)).sort());
    expect(a).not.toEqual(b);
    expect(following.total).toBe(a.length);
    expect(followers.total).toBe(b.length);
    // The viewer follows everyone on the first list.
    for (const u of following.followings) expect(u.follow_status).toBeGreaterThan(0);
  });

  it('aweme/post, aweme/favorite and aweme/listcollection answer the right videos', async () => {
    const creator = await one<{ id: number; sec_uid: string }>(
      ctx,
      sql`select id, sec_uid from users where id = ${video.author}`,
    );
    const posts = await ok('GET', `${W}/aweme/post/`, { query: { sec_user_id: creator.sec_uid, count: 5 } });
    for (const a of posts.aweme_list) expect(a.author.uid).toBe(String(creator.id));
    const favorites = await ok('GET', `${W}/aweme/favorite/`, { query: { sec_user_id: demo.sec_uid, count: 50 } });
    const liked = await ctx.db.execute<{ id: number }>(sql`
      select l.video_id as id from likes l join videos v on v.id = l.video_id where l.user_id = ${demo.id} and v.deleted_at is null`);
    expect(favorites.aweme_list.map((a: { aweme_id: string }) => a.aweme_id).sort()).toEqual(
      liked.rows.map((r) => String(r.id)).sort(),
    );
    const collection = await ok('GET', `${W}/aweme/listcollection/`, { query: { count: 50 }, token });
    for (const a of collection.aweme_list) expect(a.collect_stat).toBe(1);
    expectErrorA(await call('GET', `/api${W}/aweme/listcollection/`), 401, 8);
  });

  it('aweme/favorite of a user who keeps likes private is a 403 for others', async () => {
    const other = await one<{ id: number; sec_uid: string }>(
      ctx,
      sql`select id, sec_uid from users where not is_demo order by id limit 1`,
    );
    await ctx.db.execute(
      sql`update users set privacy = '{"likesPublic": false, "collectsPublic": true}' where id = ${other.id}`,
    );
    expectErrorA(
      await call('GET', `/api${W}/aweme/favorite/`, { query: { sec_user_id: other.sec_uid }, token }),
      403,
      9,
    );
    const own = await ok('GET', `${W}/aweme/favorite/`, {
      query: { sec_user_id: other.sec_uid },
      token: await tokenFor(other.id),
    });
    expect(Array.isArray(own.aweme_list)).toBe(true);
  });
});

describe('mixes', () => {
  it('mix/list, mix/detail and mix/aweme', async () => {
    const list = await ok('GET', `${W}/mix/list/`, { query: { sec_user_id: mix.sec_uid, count: 50 } });
    expect(list.mix_infos.map((m: { mix_id: string }) => m.mix_id)).toContain(String(mix.id));
    const detail = await ok('GET', `${W}/mix/detail/`, { query: { mix_id: mix.id } });
    expect(detail.mix_info.mix_id).toBe(String(mix.id));
    const episodes = await ok('GET', `${W}/mix/aweme/`, { query: { mix_id: mix.id, count: 50 } });
    expect(episodes.aweme_list).toHaveLength(mix.items);
    expect(episodes.aweme_list[0].aweme_id).toBe(detail.mix_info.first_aweme_id);
    expectErrorA(await call('GET', `/api${W}/mix/detail/`, { query: { mix_id: 2_000_000_000 } }), 404, 4);
  });
});

describe('history', () => {
  it('history/read answers what history/write recorded, with progress; lvideo keeps theatre episodes', async () => {
    const theatre = await one<{ id: number }>(
      ctx,
      sql`
      select si.video_id as id from series_items si join series s on s.id = si.series_id join videos v on v.id = si.video_id
      where s.kind = 'theatre' and v.deleted_at is null order by si.video_id limit 1`,
    );
    await ok('POST', `${W}/history/write/`, { form: { aweme_id: video.id, progress: 1500 }, token });
    await ok('POST', `${W}/history/write/`, { form: { aweme_id: theatre.id, progress: 700 }, token });
    const read = await ok('GET', `${W}/history/read/`, { query: { count: 10 }, token });
    const entry = read.aweme_list.find((a: { aweme_id: string }) => a.aweme_id === String(video.id));
    expect(entry.history_info.progress_ms).toBe(1500);
    const long = await ok('GET', `${W}/lvideo/query/history/`, { query: { count: 50 }, token });
    expect(long.aweme_list[0].aweme_id).toBe(String(theatre.id));
    const episodes = await ctx.db.execute<{ id: number }>(sql`
      select si.video_id as id from series_items si join series s on s.id = si.series_id where s.kind = 'theatre'`);
    const theatreIds = new Set(episodes.rows.map((r) => String(r.id)));
    for (const a of long.aweme_list) expect(theatreIds.has(a.aweme_id)).toBe(true);
    expect(long.aweme_list.map((a: { aweme_id: string }) => a.aweme_id)).not.toContain(String(video.id));
    expectErrorA(await call('GET', `/api${W}/history/read/`), 401, 8);
  });
});

describe('live and footer', () => {
  it('webcast/feed pages rooms by max_time', async () => {
    const live = await one<{ n: number }>(ctx, sql`select count(*)::int as n from live_rooms where status = 'live'`);
    const seen: string[] = [];
    let maxTime = 0;
    for (let i = 0; i < 20; i++) {
      const body = await ok('GET', `${W}/webcast/feed/`, { query: { max_time: maxTime, count: 3 } });
      seen.push(...body.data.map((r: { web_rid: string }) => r.web_rid));
      if (!body.has_more) break;
      maxTime = body.max_time;
    }
    expect(seen).toHaveLength(live.n);
    expect(new Set(seen).size).toBe(live.n);
  });

  it('seo/inner/link answers douyin.com’s link_data, one entry per footer block in order', async () => {
    setFooterLinks(async () => [
      { id: 'b', title: '第二', order: 2, links: [{ title: '直播', href: '/live' }] },
      { id: 'a', title: '第一', order: 1, links: [{ title: '热点', href: '/hot' }] },
    ]);
    const body = await ok('GET', `${W}/seo/inner/link/`);
    expect(body.link_data.map((b: { id: string; title: string }) => [b.id, b.title])).toEqual([
      ['a', '第一'],
      ['b', '第二'],
    ]);
    expect(body.link_data[0].link_list).toEqual([{ anchor: '热点', url: '/hot' }]);
  });
});
