/** Family B for a client of its own: page/size paging, the hot list, categories, login, userInfo and comment/add, over Family A's services. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/i18n/t.ts';
import { COMMENT_MAX } from '../../src/shared/comment-text.ts';
import { handleApi } from '../../src/server/api/router.ts';
import { DEMO_EMAIL, demoPassword } from '../../src/server/db/demo.ts';
import { CODE_EMAIL_RATE } from '../../src/server/services/auth/codes.ts';
import { PASSWORD_PAIR_RATE } from '../../src/server/services/auth/password.ts';
import { lastOutboxCode } from '../../src/server/services/mailer.ts';
import { hit } from '../../src/server/services/rate-limit.ts';
import { CHANNEL_IDS } from '../../src/server/services/videos.ts';
import { call, expectErrorB, ok, one, responseSchema, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), 'sy-family-b-'));

type Video = { id: number; channelId: number; author: { id: number } };

let demo: { id: number };
let token: string;

beforeAll(async () => {
  demo = await one(ctx, sql`select id from users where is_demo limit 1`);
  token = await tokenFor(demo.id);
});

/** A form POST from a given client address (the login limits count per IP). */
async function postFrom(pathname: string, form: Record<string, string>, ip: string) {
  const res = await handleApi(
    new Request(`http://shanying.test/api${pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    }),
    { clientAddress: ip },
  );
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** Walks pages 1, 2, … of a Family B list until `isLast`; every id it saw, in order. */
async function walk(
  fetchPage: (page: number) => Promise<{ ids: number[]; isLast: boolean }>,
  limit = 500,
): Promise<number[]> {
  const all: number[] = [];
  for (let page = 1; page <= limit; page++) {
    const p = await fetchPage(page);
    all.push(...p.ids);
    if (p.isLast) return all;
  }
  throw new Error('paging did not end');
}

const publicWorks = sql`deleted_at is null and status = 'published' and visibility = 'public'`;

describe('POST /api/video/feed paged by page and size', () => {
  // Pages of the default size once repeated a video at an author-spreading seam and lost another.
  it('walks every public work once, and page n is the same as cursor (n-1)·size', async () => {
    const { n } = await one<{ n: number }>(ctx, sql`select count(*)::int as n from videos where ${publicWorks}`);
    const ids = await walk(async (page) => {
      const res = await ok('POST', '/video/feed', { form: { page } });
      return { ids: res.data.map((v: Video) => v.id), isLast: res.data.length === 0 };
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(n);
    const byPage = await ok('POST', '/video/feed', { form: { page: 3, size: 7 } });
    const byCursor = await ok('POST', '/video/feed', { form: { cursor: 14, size: 7 } });
    expect(byPage.data.map((v: Video) => v.id)).toEqual(byCursor.data.map((v: Video) => v.id));
    expect((await ok('POST', '/video/feed', { json: { page: 3, size: 7 } })).data).toEqual(byPage.data);
  });

  it("a viewer's feed pages without repeats", async () => {
    const ids = await walk(async (page) => {
      const res = await ok('POST', '/video/feed', { token, form: { page, size: 3 } });
      return { ids: res.data.map((v: Video) => v.id), isLast: res.data.length === 0 };
    });
    expect(ids.length).toBeGreaterThan(100);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("answers '400' for page 0, a size over 50, or page and cursor together", async () => {
    expectErrorB(await call('POST', '/api/video/feed', { form: { page: 0 } }), 400);
    expectErrorB(await call('POST', '/api/video/feed', { form: { page: 1, size: 51 } }), 400);
    expectErrorB(await call('POST', '/api/video/feed', { form: { page: 2, cursor: 10 } }), 400);
    expectErrorB(await call('POST', '/api/video/feed', { form: { page: 'two' } }), 400);
  });
});

describe('/api/video/hotVideos', () => {
  // The seed's activity is older than the hot list's 7-day window: like 30 works now, the lowest id last, so that heats
  // which round alike differ in the other order than their ids (a re-sort by the rounded heat once swapped them).
  beforeAll(async () => {
    await ctx.db.execute(sql`
      insert into likes (user_id, video_id, created_at)
      select ${demo.id}, id, now() - row_number() over (order by id) * interval '1 millisecond'
      from (select id from videos where ${publicWorks} order by id limit 30) v
      on conflict (user_id, video_id) do update set created_at = excluded.created_at`);
  });

  it("is Family A's hot list, page for page, with the heat as hotValue", async () => {
    const b = await ok('GET', '/video/hotVideos', { query: { page: 2, size: 10 } });
    const first = await ok('GET', '/aweme/v1/web/hot/aweme/list/', { query: { count: 10 } });
    const a = await ok('GET', '/aweme/v1/web/hot/aweme/list/', { query: { cursor: first.cursor, count: 10 } });
    expect(b.data.videosList.map((v: Video) => String(v.id))).toEqual(
      a.aweme_list.map((x: { aweme_id: string }) => x.aweme_id),
    );
    expect(b.data.videosList.map((v: { hotValue: number }) => v.hotValue)).toEqual(
      a.aweme_list.map((x: { hot_value: number }) => x.hot_value),
    );
    expect(b.data.hasMore).toBe(a.has_more === 1);
  });

  it('walks to hasMore false without repeats, on GET and POST; limit is another name for size', async () => {
    const ids = await walk(async (page) => {
      const res = await ok('POST', '/video/hotVideos', { form: { page, size: 7 } });
      return { ids: res.data.videosList.map((v: Video) => v.id), isLast: !res.data.hasMore };
    });
    expect(ids.length).toBeGreaterThan(7);
    expect(new Set(ids).size).toBe(ids.length);
    const first = await ok('GET', '/video/hotVideos', { query: { limit: 7 } });
    expect(first.data.videosList.map((v: Video) => v.id)).toEqual(ids.slice(0, 7));
    expect((await ok('GET', '/video/hotVideos')).data.videosList).toHaveLength(20);
    expectErrorB(await call('GET', '/api/video/hotVideos', { query: { size: 5, limit: 6 } }), 400);
    expectErrorB(await call('GET', '/api/video/hotVideos', { query: { limit: 0 } }), 400);
  });
});

describe('/api/categories/getCategoriesList', () => {
  it('lists the eight channels with the editors’ names and the count of their public works', async () => {
    const res = await ok('GET', '/categories/getCategoriesList');
    expect(res.data).toHaveLength(CHANNEL_IDS.length);
    expect(res.data.map((c: { id: number }) => c.id).sort()).toEqual([...CHANNEL_IDS].sort());
    const food = res.data.find((c: { id: number }) => c.id === 300204);
    expect(food).toMatchObject({ name: '美食', banner: '/media/banners/300204.webp' });
    expect(food.hashtags).toContain('探店');
    const counts = await ctx.db.execute<{ channel_id: number; n: number }>(sql`
      select channel_id, count(*)::int as n from videos where ${publicWorks} group by channel_id`);
    for (const row of counts.rows)
      expect(res.data.find((c: { id: number }) => c.id === row.channel_id).videoCount).toBe(row.n);
    expect((await ok('POST', '/categories/getCategoriesList')).data).toEqual(res.data);
  });
});

describe('/api/video/getVideosByTag', () => {
  it("walks one channel's works, exactly as many as the category list counts", async () => {
    const list = await ok('GET', '/categories/getCategoriesList');
    const channel = list.data.find((c: { id: number }) => c.id === 300201);
    const ids = await walk(async (page) => {
      const res = await ok('GET', '/video/getVideosByTag', { query: { tagId: channel.id, page, size: 9 } });
      for (const v of res.data.videosList) expect(v.channelId).toBe(channel.id);
      return { ids: res.data.videosList.map((v: Video) => v.id), isLast: !res.data.hasMore };
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(channel.videoCount);
    const alias = await ok('POST', '/video/getVideosByTag', { form: { categoryId: channel.id, size: 9 } });
    expect(alias.data.videosList.map((v: Video) => v.id)).toEqual(ids.slice(0, 9));
  });

  it("answers '400' without a channel, for an id that is no channel, or two names that disagree", async () => {
    expectErrorB(await call('GET', '/api/video/getVideosByTag'), 400);
    expectErrorB(await call('GET', '/api/video/getVideosByTag', { query: { tagId: 300202 } }), 400);
    expectErrorB(await call('GET', '/api/video/getVideosByTag', { query: { tagId: 300201, categoryId: 300203 } }), 400);
    expectErrorB(await call('POST', '/api/video/getVideosByTag', { form: { tagId: 300201, page: -1 } }), 400);
  });
});

describe('/api/auth/login and /api/user/userInfo', () => {
  it('logs in with the password as Family A does: a token, the session cookie, and userInfo through the Token header', async () => {
    const res = await postFrom('/auth/login', { email: DEMO_EMAIL, password: demoPassword() }, '10.1.0.1');
    expect(res.status).toBe(200);
    expect(responseSchema('POST', '/auth/login').safeParse(res.body).success).toBe(true);
    expect(res.body.data.user.id).toBe(demo.id);
    expect(res.headers.get('set-cookie')).toMatch(
      new RegExp(`^sy_session=${res.body.data.token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=\\d+`),
    );
    const me = await ok('GET', '/user/userInfo', { token: res.body.data.token });
    const row = await one<{ nickname: string; collect_count: number; follower_count: number }>(
      ctx,
      sql`
      select nickname, collect_count, follower_count from users where id = ${demo.id}`,
    );
    expect(me.data).toMatchObject({
      id: demo.id,
      nickname: row.nickname,
      collectCount: row.collect_count,
      followerCount: row.follower_count,
    });
    expect((await ok('POST', '/user/userInfo', { token: res.body.data.token })).data).toEqual(me.data);
  });

  it('answers a wrong password and an unknown address with Family A’s message, and 429 once either door spent the limit', async () => {
    const wrongA = await postFrom('/passport/login/password', { email: DEMO_EMAIL, password: 'not-it' }, '10.1.0.2');
    const wrongB = await postFrom('/auth/login', { email: DEMO_EMAIL, password: 'not-it' }, '10.1.0.2');
    expect(wrongB.status).toBe(401);
    expect(wrongB.body).toEqual({ code: '401', msg: wrongA.body.status_msg, data: null });
    expect(wrongB.body.msg).toBe(t('error.wrongPassword'));
    const unknown = await postFrom(
      '/auth/login',
      { email: 'nobody-here@example.com', password: 'whatever1' },
      '10.1.0.3',
    );
    expect(unknown.body.msg).toBe(t('error.wrongPassword'));
    // Two failures so far from 10.1.0.2, one through each family; the rest of the budget is spent without the slow hashing.
    for (let i = 2; i < PASSWORD_PAIR_RATE.limit; i++)
      await hit(`pw:acct:${DEMO_EMAIL}:10.1.0.2`, PASSWORD_PAIR_RATE.limit, PASSWORD_PAIR_RATE.windowMs);
    const limited = await postFrom('/auth/login', { email: DEMO_EMAIL, password: 'again' }, '10.1.0.2');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('429');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it("answers '400' with the service's message for a missing e-mail, and for a field past its cap", async () => {
    const empty = await postFrom('/auth/login', { email: '', password: 'x' }, '10.1.0.4');
    expect(empty.body).toEqual({ code: '400', msg: t('login.error.emailEmpty'), data: null });
    expect(
      (await postFrom('/auth/login', { email: 'a@example.com', password: 'x'.repeat(1001) }, '10.1.0.4')).body.code,
    ).toBe('400');
  });

  it("userInfo answers another user by userId with the viewer's relation, '401' with neither login nor userId, '404' for nobody", async () => {
    const followed = await one<{ id: number; follower_count: number }>(
      ctx,
      sql`
      select u.id, u.follower_count from follows f join users u on u.id = f.followee_id where f.follower_id = ${demo.id} order by u.id limit 1`,
    );
    const other = await ok('GET', '/user/userInfo', { token, query: { userId: followed.id } });
    expect(other.data).toMatchObject({
      id: followed.id,
      followerCount: followed.follower_count,
      isFollowing: true,
      collectCount: null,
    });
    const anonymous = await ok('GET', '/user/userInfo', { query: { userId: followed.id } });
    expect(anonymous.data.isFollowing).toBe(false);
    expectErrorB(await call('GET', '/api/user/userInfo'), 401);
    expectErrorB(await call('POST', '/api/user/userInfo'), 401);
    expectErrorB(await call('GET', '/api/user/userInfo', { query: { userId: 2_000_000_000 } }), 404);
    expectErrorB(await call('GET', '/api/user/userInfo', { query: { userId: 'me' } }), 400);
  });
});

describe('/api/auth/sendCode and /api/auth/loginByCode', () => {
  it('logs in with the e-mailed code, creating the account; one code a minute across both families', async () => {
    const email = `famb-${Date.now()}@example.com`;
    const sent = await postFrom('/auth/sendCode', { email }, '10.2.0.1');
    expect(sent.body).toEqual({ code: '200', msg: 'success', data: { retryAfter: CODE_EMAIL_RATE.windowMs / 1000 } });
    const againB = await postFrom('/auth/sendCode', { email }, '10.2.0.1');
    expect(againB.status).toBe(429);
    expect(againB.body.code).toBe('429');
    expect((await postFrom('/passport/code/send', { email }, '10.2.0.1')).status).toBe(429);

    const code = await lastOutboxCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const wrong = await postFrom(
      '/auth/loginByCode',
      { email, code: code === '000000' ? '111111' : '000000' },
      '10.2.0.1',
    );
    expect(wrong.body).toEqual({ code: '401', msg: t('error.wrongCode'), data: null });
    expect((await postFrom('/auth/loginByCode', { email, code: 'abc' }, '10.2.0.1')).body).toEqual({
      code: '400',
      msg: t('error.codeFormat'),
      data: null,
    });
    const login = await postFrom('/auth/loginByCode', { email, code: code! }, '10.2.0.1');
    expect(login.status).toBe(200);
    expect(responseSchema('POST', '/auth/loginByCode').safeParse(login.body).success).toBe(true);
    expect(login.body.data.created).toBe(true);
    expect(login.headers.get('set-cookie')).toMatch(/^sy_session=/);
    const me = await ok('GET', '/user/userInfo', { token: login.body.data.token });
    expect(me.data).toMatchObject({
      id: login.body.data.user.id,
      nickname: login.body.data.user.nickname,
      awemeCount: 0,
    });
  });

  it("answers a code for an address that asked for none with Family A's message, and '400' for a bad address", async () => {
    const res = await postFrom('/auth/loginByCode', { email: 'never-asked@example.com', code: '123456' }, '10.2.0.2');
    expect(res.body.msg).toBe(t('error.wrongCode'));
    expect((await postFrom('/auth/sendCode', { email: 'not-an-email' }, '10.2.0.2')).body).toEqual({
      code: '400',
      msg: t('error.emailInvalid'),
      data: null,
    });
    expect((await postFrom('/auth/sendCode', {}, '10.2.0.2')).body.code).toBe('400');
  });
});

describe('POST /api/comment/add', () => {
  let video: { id: number; comment_count: number };
  beforeAll(async () => {
    video = await one(
      ctx,
      sql`
      select id, comment_count from videos where ${publicWorks} and allow_comments and author_id <> ${demo.id} order by id limit 1`,
    );
  });

  it('publishes through the comment service: the comment in commentB shape, counted, listed, and a reply joins its thread', async () => {
    const res = await ok('POST', '/comment/add', { token, form: { vid: video.id, text: '  <b>好看</b>  ' } });
    expect(res.data).toMatchObject({
      vid: video.id,
      parentId: null,
      text: '<b>好看</b>',
      user: { id: demo.id },
      replyCount: 0,
    });
    const stored = await one<{ comment_count: number }>(
      ctx,
      sql`select comment_count from videos where id = ${video.id}`,
    );
    expect(stored.comment_count).toBe(video.comment_count + 1);
    const listed = await ok('POST', '/comment/list', { form: { vid: video.id, size: 50 } });
    expect(listed.data.map((c: { id: number }) => c.id)).toContain(res.data.id);

    const reply = await ok('POST', '/comment/add', {
      token,
      json: { videoId: video.id, text: '同感', parentId: res.data.id },
    });
    expect(reply.data.parentId).toBe(res.data.id);
    // A reply to a reply stays in the root's thread and names whom it answers.
    const nested = await ok('POST', '/comment/add', {
      token,
      form: { vid: video.id, text: '+1', replyId: reply.data.id },
    });
    expect(nested.data.parentId).toBe(res.data.id);
    expect(nested.data.replyTo).toMatchObject({ secUid: reply.data.user.secUid });
  });

  it('tells a mentioned user, as Family A’s comment/publish does', async () => {
    const named = await one<{ id: number; nickname: string }>(
      ctx,
      sql`
      select id, nickname from users where id <> ${demo.id} and nickname !~ '[[:space:]@]' order by id desc limit 1`,
    );
    const res = await ok('POST', '/comment/add', { token, form: { vid: video.id, text: `@${named.nickname} 来看` } });
    const told = await one<{ n: number }>(
      ctx,
      sql`
      select count(*)::int as n from notifications where user_id = ${named.id} and kind = 'mention' and comment_id = ${res.data.id}`,
    );
    expect(told.n).toBe(1);
  });

  it("needs the Token header, and answers '400' for bad input and '404' for an unknown video", async () => {
    expectErrorB(await call('POST', '/api/comment/add', { form: { vid: video.id, text: 'hi' } }), 401);
    expectErrorB(
      await call('POST', '/api/comment/add', { cookie: `sy_session=${token}`, form: { vid: video.id, text: 'hi' } }),
      401,
    );
    expectErrorB(await call('POST', '/api/comment/add', { token, form: { text: 'hi' } }), 400);
    expectErrorB(
      await call('POST', '/api/comment/add', { token, form: { vid: video.id, videoId: video.id + 1, text: 'hi' } }),
      400,
    );
    expectErrorB(await call('POST', '/api/comment/add', { token, form: { vid: video.id, text: '   ' } }), 400);
    expectErrorB(
      await call('POST', '/api/comment/add', { token, form: { vid: video.id, text: '长'.repeat(COMMENT_MAX + 1) } }),
      400,
    );
    expectErrorB(await call('POST', '/api/comment/add', { token, json: { vid: video.id, text: 5 } }), 400);
    expectErrorB(await call('POST', '/api/comment/add', { token, form: { vid: 2_000_000_000, text: 'hi' } }), 404);
    expectErrorB(
      await call('POST', '/api/comment/add', { token, form: { vid: video.id, text: 'hi', parentId: 2_000_000_000 } }),
      404,
    );
  });
});
