/** /api/user/marks: the viewer's own state on a page every viewer shares, private and revalidated by ETag. */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordHistory, setVideoCollect, setVideoLike, setWatchLater } from '../../src/server/services/interactions.ts';
import { setFollow } from '../../src/server/services/social.ts';
import { call, expectErrorB, ok, one, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
let me: { id: number; secUid: string; nickname: string; token: string };
let author: { id: number; secUid: string };
let videos: number[];

beforeAll(async () => {
  const user = await one<{ id: number; sec_uid: string; nickname: string }>(
    ctx,
    sql`select id, sec_uid, nickname from users where not is_demo order by id limit 1`,
  );
  me = { id: user.id, secUid: user.sec_uid, nickname: user.nickname, token: await tokenFor(user.id) };
  const rows = (
    await ctx.db.execute<{ id: number; author_id: number; sec_uid: string }>(sql`
      select v.id, v.author_id, u.sec_uid from videos v join users u on u.id = v.author_id
      where v.author_id <> ${me.id} and v.deleted_at is null and v.visibility = 'public'
        and not exists (select 1 from likes l where l.user_id = ${me.id} and l.video_id = v.id)
        and not exists (select 1 from collects c where c.user_id = ${me.id} and c.video_id = v.id)
        and not exists (select 1 from follows f where f.follower_id = ${me.id} and f.followee_id = v.author_id)
      order by v.id limit 3`)
  ).rows;
  videos = rows.map((r) => r.id);
  author = { id: rows[0]!.author_id, secUid: rows[0]!.sec_uid };
});

describe('GET /api/user/marks', () => {
  it('says who the viewer is and which of the asked-for videos and people are theirs to mark', async () => {
    const [a, b, c] = videos as [number, number, number];
    await setVideoLike(me.id, a, true);
    await setVideoCollect(me.id, b, true);
    await setWatchLater(me.id, c, true);
    await setFollow(me.id, author.id, true);
    const body = await ok('GET', '/user/marks', {
      token: me.token,
      query: { videos: videos.join(','), users: `${author.secUid},${me.secUid}` },
    });
    expect(body.data.viewer).toMatchObject({ uid: String(me.id), secUid: me.secUid, nickname: me.nickname });
    expect(body.data.liked).toEqual([String(a)]);
    expect(body.data.collected).toEqual([String(b)]);
    expect(body.data.later).toEqual([String(c)]);
    expect(body.data.following).toEqual({ [author.secUid]: expect.any(Number) });
    expect(body.data.unread).toEqual({ notice: expect.any(Number), message: expect.any(Number) });
    expect(body.data.resume).toBeNull();
  });

  it('says where the viewer stopped in a series they asked about', async () => {
    const episode = await one<{ series_id: number; video_id: number; position: number }>(
      ctx,
      sql`select series_id, video_id, position from series_items order by series_id, position offset 1 limit 1`,
    );
    await recordHistory(me.id, episode.video_id, 3_000);
    const body = await ok('GET', '/user/marks', { token: me.token, query: { series: episode.series_id } });
    expect(body.data.resume).toEqual({ episode: episode.position, progressMs: 3_000 });
  });

  it('answers a request without a valid session with no viewer and no marks', async () => {
    for (const opts of [{}, { token: 'not-a-session' }]) {
      const body = await ok('GET', '/user/marks', { ...opts, query: { videos: videos.join(',') } });
      expect(body.data.viewer).toBeNull();
      expect(body.data.liked).toEqual([]);
    }
  });

  it('is private to the viewer and answers 304 while nothing changed, 200 once something did', async () => {
    const query = { videos: String(videos[0]) };
    const first = await call('GET', '/api/user/marks', { token: me.token, query });
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    expect(first.headers.get('vary')).toBe('Cookie, Token');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{27}"$/);
    const same = await call('GET', '/api/user/marks', { token: me.token, query, headers: { 'if-none-match': etag } });
    expect(same.status).toBe(304);
    expect(same.text).toBe('');
    await setVideoLike(me.id, videos[0]!, false);
    const changed = await call('GET', '/api/user/marks', {
      token: me.token,
      query,
      headers: { 'if-none-match': etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data.liked).toEqual([]);
    // Another viewer's answer never matches this one's.
    const other = await call('GET', '/api/user/marks', { query, headers: { 'if-none-match': etag } });
    expect(other.status).toBe(200);
  });

  it('refuses malformed lists in the envelope', async () => {
    expectErrorB(await call('GET', '/api/user/marks', { token: me.token, query: { videos: '1,x' } }), 400);
    expectErrorB(await call('GET', '/api/user/marks', { token: me.token, query: { users: 'a b' } }), 400);
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(',');
    expectErrorB(await call('GET', '/api/user/marks', { token: me.token, query: { videos: many } }), 400);
  });
});
