/**
 * Family A writes with the session cookie, as douyin.com's web client sends them: taken from a page of this site
 * (Origin, else Referer) or of CORS_ORIGINS, refused from anywhere else or from nowhere, and never stored then.
 */
import { sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, expectErrorA, expectErrorB, one, tokenFor, useApiDb, type CallOptions } from './helpers.ts';

const ctx = useApiDb();
const DIGG = '/api/aweme/v1/web/commit/item/digg/';
// helpers.call addresses http://shanying.test.
const SITE = 'http://shanying.test';

let me: { id: number };
let token: string;
let cookie: string;

beforeAll(async () => {
  me = await one(ctx, sql`select id from users where not is_demo order by id limit 1 offset 5`);
  token = await tokenFor(me.id);
  cookie = `theme=dark; sy_session=${token}`;
});

afterEach(() => {
  delete process.env.CORS_ORIGINS;
  delete process.env.TRUST_PROXY;
});

let picks = 0;
/** A live video by someone else that `me` has not liked. */
async function freshVideo(): Promise<number> {
  const row = await one<{ id: number }>(
    ctx,
    sql`
    select v.id from videos v where v.deleted_at is null and v.author_id <> ${me.id}
      and not exists (select 1 from likes l where l.user_id = ${me.id} and l.video_id = v.id)
    order by md5(v.id::text) limit 1 offset ${picks++}`,
  );
  return row.id;
}

const liked = async (videoId: number) =>
  (
    await one<{ n: number }>(
      ctx,
      sql`select count(*)::int as n from likes where user_id = ${me.id} and video_id = ${videoId}`,
    )
  ).n === 1;
const diggCount = async (videoId: number) =>
  (await one<{ n: number }>(ctx, sql`select digg_count as n from videos where id = ${videoId}`)).n;

/** Likes a fresh video with `opts` and answers the response and whether the like was stored. */
async function like(
  opts: CallOptions,
): Promise<{ status: number; body: { status_code: number; user_digged?: number }; stored: boolean; counted: number }> {
  const id = await freshVideo();
  const before = await diggCount(id);
  const res = await call('POST', DIGG, { ...opts, form: { aweme_id: id, type: 1 } });
  return { status: res.status, body: res.body, stored: await liked(id), counted: (await diggCount(id)) - before };
}

describe('accepted: the cookie from a page of this site or of CORS_ORIGINS', () => {
  it.each<[string, Record<string, string>]>([
    ['Origin of this site', { origin: SITE }],
    ['Referer of this site, without Origin', { referer: `${SITE}/video/12?from=feed` }],
    ['Origin over https behind a TLS proxy', { origin: 'https://shanying.test' }],
  ])('%s: the like is stored', async (_name, headers) => {
    const r = await like({ cookie, headers });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status_code: 0, user_digged: 1 });
    expect(r.stored).toBe(true);
    expect(r.counted).toBe(1);
  });

  it('behind a proxy: the Host (or, under TRUST_PROXY, X-Forwarded-Host) the browser addressed, not the upstream URL', async () => {
    const viaHost = await like({ cookie, headers: { origin: 'https://shanying.example', host: 'shanying.example' } });
    expect(viaHost.stored).toBe(true);
    process.env.TRUST_PROXY = '1';
    const viaForwarded = await like({
      cookie,
      headers: { origin: 'https://shanying.example', host: 'app:4321', 'x-forwarded-host': 'shanying.example' },
    });
    expect(viaForwarded.stored).toBe(true);
  });

  it('an origin listed in CORS_ORIGINS', async () => {
    process.env.CORS_ORIGINS = 'https://app.example';
    const r = await like({ cookie, headers: { origin: 'https://app.example' } });
    expect(r.status).toBe(200);
    expect(r.stored).toBe(true);
  });

  it('the Token header still works, from anywhere', async () => {
    expect((await like({ token })).stored).toBe(true);
    expect((await like({ token, headers: { origin: 'https://elsewhere.example' } })).stored).toBe(true);
  });
});

describe('refused: 401 and nothing stored', () => {
  it.each<[string, Record<string, string>]>([
    ['a foreign Origin (a cross-site form)', { origin: 'https://evil.example' }],
    ['a foreign Origin with a Referer of this site', { origin: 'https://evil.example', referer: `${SITE}/` }],
    ['a foreign Referer without Origin', { referer: 'https://evil.example/page' }],
    ['a look-alike host', { origin: 'http://shanying.test.evil.example' }],
    ['Origin: null (a sandboxed frame)', { origin: 'null' }],
    ['neither Origin nor Referer', {}],
    [
      'a proxy that rewrote Host and forwarded no X-Forwarded-Host',
      { origin: 'https://shanying.example', host: 'app:4321' },
    ],
    [
      "a client's own X-Forwarded-Host, without TRUST_PROXY",
      { origin: 'https://evil.example', host: 'shanying.test', 'x-forwarded-host': 'evil.example' },
    ],
  ])('%s', async (_name, headers) => {
    const r = await like({ cookie, headers });
    expect(r.status).toBe(401);
    expect(r.body.status_code).toBe(8);
    expect(r.stored).toBe(false);
    expect(r.counted).toBe(0);
  });

  it('a foreign origin while CORS_ORIGINS lists others', async () => {
    process.env.CORS_ORIGINS = 'https://app.example';
    expect((await like({ cookie, headers: { origin: 'https://evil.example' } })).stored).toBe(false);
  });

  it('Family B writes keep needing the Token header', async () => {
    expectErrorB(await call('POST', '/api/video/myLikeVideos', { cookie, headers: { origin: SITE } }), 401);
  });
});

describe('the session the cookie carried', () => {
  it('reads take the cookie as before, whatever the origin', async () => {
    const res = await call('GET', '/api/aweme/v1/web/history/read/', {
      cookie,
      headers: { origin: 'https://evil.example' },
    });
    expect(res.status).toBe(200);
  });

  it('a logout sent with the cookie from this site revokes that session', async () => {
    const own = `sy_session=${await tokenFor(me.id)}`;
    const out = await call('POST', '/api/passport/logout', { cookie: own, headers: { origin: SITE } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^sy_session=; .*Max-Age=0/);
    expectErrorA(await call('GET', '/api/aweme/v1/web/history/read/', { cookie: own }), 401, 8);
  });
});
