/** Family B: `{code, msg, data}` with string codes, form-encoded (also multipart and JSON) bodies. */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorB, ok, one, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();

let demo: { id: number };
let token: string;
let creator: { id: number; aweme_count: number; favoriting_count: number; collect_count: number };

beforeAll(async () => {
  demo = await one(ctx, sql`select id from users where is_demo limit 1`);
  token = await tokenFor(demo.id);
  creator = await one(
    ctx,
    sql`
    select id, aweme_count, favoriting_count, collect_count from users where aweme_count > 12 order by id limit 1`,
  );
});

describe('GET /api/video/self', () => {
  it('answers a tab with the profile counts, paged by page and size', async () => {
    const p1 = await ok('GET', '/video/self', { query: { showTab: 'post', page: 1, size: 6, userId: creator.id } });
    const p2 = await ok('GET', '/video/self', { query: { showTab: 'post', page: 2, size: 6, userId: creator.id } });
    expect(p1.code).toBe('200');
    expect(p1.data.videosList).toHaveLength(6);
    expect(p1.data.publishCount).toBe(creator.aweme_count);
    expect(p1.data.likeCount).toBe(creator.favoriting_count);
    expect(p1.data.collectCount).toBe(creator.collect_count);
    const ids = [...p1.data.videosList, ...p2.data.videosList].map((v: { id: number }) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const v of p1.data.videosList) expect(v.author.id).toBe(creator.id);
  });

  it("defaults to the viewer's own profile, and answers code '404' (HTTP 200) for an empty tab", async () => {
    await ctx.db.execute(sql`delete from watch_later where user_id = ${demo.id}`);
    const res = await call('GET', '/api/video/self', { token, query: { showTab: 'watch_later' } });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe('404');
    expect(res.body.data.videosList).toEqual([]);
    const own = await ok('GET', '/video/self', { token, query: { showTab: 'like' } });
    expect(own.code).toBe('200');
  });

  it('401 without userId or session, 403 for another user’s history, 404 for an unknown user, 400 for a bad tab', async () => {
    expectErrorB(await call('GET', '/api/video/self'), 401);
    expectErrorB(
      await call('GET', '/api/video/self', { token, query: { showTab: 'record', userId: creator.id } }),
      403,
    );
    expectErrorB(await call('GET', '/api/video/self', { query: { showTab: 'watch_later', userId: creator.id } }), 401);
    expectErrorB(await call('GET', '/api/video/self', { query: { userId: 2_000_000_000 } }), 404);
    expectErrorB(await call('GET', '/api/video/self', { query: { showTab: 'secret', userId: creator.id } }), 400);
    expectErrorB(await call('GET', '/api/video/self', { query: { size: 0, userId: creator.id } }), 400);
    expectErrorB(await call('GET', '/api/video/self', { query: { page: 0, userId: creator.id } }), 400);
  });
});

describe('POST reads', () => {
  it('/video/feed and /video/getVideosByCursor page by cursor and size', async () => {
    const feed = await ok('POST', '/video/feed', { form: { size: 5 } });
    expect(feed.data).toHaveLength(5);
    const a = await ok('POST', '/video/getVideosByCursor', { form: { cursor: 0, size: 5 } });
    const b = await ok('POST', '/video/getVideosByCursor', { form: { cursor: 5, size: 5 } });
    const ids = [...a.data, ...b.data].map((v: { id: number }) => v.id);
    expect(new Set(ids).size).toBe(10);
    expectErrorB(await call('POST', '/api/video/getVideosByCursor', { form: { cursor: -1, size: 5 } }), 400);
    expectErrorB(await call('POST', '/api/video/getVideosByCursor', { form: { cursor: 0, size: 51 } }), 400);
  });

  it('/comment/list by vid', async () => {
    const v = await one<{ id: number }>(
      ctx,
      sql`
      select c.video_id as id from comments c join videos v on v.id = c.video_id
      where c.parent_id is null and c.deleted_at is null and v.deleted_at is null limit 1`,
    );
    const res = await ok('POST', '/comment/list', { form: { vid: v.id } });
    expect(res.data.length).toBeGreaterThan(0);
    for (const c of res.data) expect(c.vid).toBe(v.id);
    expectErrorB(await call('POST', '/api/comment/list', { form: { vid: 2_000_000_000 } }), 404);
    expectErrorB(await call('POST', '/api/comment/list', { form: {} }), 400);
  });

  it('/video/myAttentionVideos, /video/myLikeVideos and /video/myVideos need the Token header', async () => {
    for (const path of ['/video/myAttentionVideos', '/video/myLikeVideos', '/video/myVideos']) {
      expectErrorB(await call('POST', `/api${path}`), 401);
      expectErrorB(await call('POST', `/api${path}`, { cookie: `sy_session=${token}` }), 401);
      const res = await ok('POST', path, { token });
      expect(Array.isArray(res.data)).toBe(true);
    }
    const likes = await ok('POST', '/video/myLikeVideos', { token, form: { size: 50 } });
    for (const v of likes.data) expect(v.isLiked).toBe(true);
    const mine = await ok('POST', '/video/myVideos', { token, form: { size: 50 } });
    for (const v of mine.data) expect(v.author.id).toBe(demo.id);
    const followed = await ctx.db.execute<{ id: number }>(
      sql`select followee_id as id from follows where follower_id = ${demo.id}`,
    );
    const authors = new Set(followed.rows.map((r) => r.id));
    for (const v of (await ok('POST', '/video/myAttentionVideos', { token, form: { size: 50 } })).data)
      expect(authors.has(v.author.id)).toBe(true);
  });

  it('/video/getVideoInfoById accepts form, multipart and JSON bodies', async () => {
    const liked = await one<{ id: number }>(
      ctx,
      sql`
      select l.video_id as id from likes l join videos v on v.id = l.video_id where l.user_id = ${demo.id} and v.deleted_at is null limit 1`,
    );
    const form = await ok('POST', '/video/getVideoInfoById', { token, form: { videoId: liked.id } });
    expect(form.data.id).toBe(liked.id);
    expect(form.data.isLiked).toBe(true);
    const fd = new FormData();
    fd.set('videoId', String(liked.id));
    expect((await ok('POST', '/video/getVideoInfoById', { body: fd })).data.isLiked).toBe(false);
    expect((await ok('POST', '/video/getVideoInfoById', { json: { videoId: liked.id } })).data.id).toBe(liked.id);
    expectErrorB(await call('POST', '/api/video/getVideoInfoById', { form: { videoId: 2_000_000_000 } }), 404);
    expectErrorB(await call('POST', '/api/video/getVideoInfoById', { json: { videoId: 'abc' } }), 400);
  });
});
