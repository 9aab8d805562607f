/** Family A writes: each count changes once, a repeat leaves it, the undo restores it; the answer carries the new count. */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { clearApiCache } from '../../src/server/cache/anon-cache.ts';
import { call, expectErrorA, ok, one, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
const W = '/aweme/v1/web';

let me: { id: number; sec_uid: string };
let token: string;

beforeAll(async () => {
  me = await one(ctx, sql`select id, sec_uid from users where not is_demo order by id limit 1 offset 3`);
  token = await tokenFor(me.id);
});

let picks = 0;
/** A live video by someone else that `me` has not touched in `table`. */
async function freshVideo(table: string): Promise<number> {
  const row = await one<{ id: number }>(
    ctx,
    sql`
    select v.id from videos v where v.deleted_at is null and v.author_id <> ${me.id}
      and not exists (select 1 from ${sql.raw(table)} t where t.user_id = ${me.id} and t.video_id = v.id)
    order by md5(v.id::text) limit 1 offset ${picks++}`,
  );
  return row.id;
}

const videoStat = async (id: number, col: string) =>
  (await one<{ n: number }>(ctx, sql`select ${sql.raw(col)} as n from videos where id = ${id}`)).n;
const userStat = async (id: number, col: string) =>
  (await one<{ n: number }>(ctx, sql`select ${sql.raw(col)} as n from users where id = ${id}`)).n;

describe('commit/item/digg', () => {
  it('likes once, a repeat stays one like, unlike restores', async () => {
    const id = await freshVideo('likes');
    const before = await videoStat(id, 'digg_count');
    const mineBefore = await userStat(me.id, 'favoriting_count');
    const like = await ok('POST', `${W}/commit/item/digg/`, { token, form: { aweme_id: id, type: 1 } });
    expect(like).toEqual({ status_code: 0, user_digged: 1, digg_count: before + 1 });
    const again = await ok('POST', `${W}/commit/item/digg/`, { token, form: { aweme_id: id, type: 1 } });
    expect(again.digg_count).toBe(before + 1);
    expect(await videoStat(id, 'digg_count')).toBe(before + 1);
    expect(await userStat(me.id, 'favoriting_count')).toBe(mineBefore + 1);
    const detail = await ok('GET', `${W}/aweme/detail/`, { token, query: { aweme_id: id } });
    expect(detail.aweme_detail.user_digged).toBe(1);
    expect(detail.aweme_detail.statistics.digg_count).toBe(before + 1);
    const unlike = await ok('POST', `${W}/commit/item/digg/`, { token, form: { aweme_id: id, type: 0 } });
    expect(unlike).toEqual({ status_code: 0, user_digged: 0, digg_count: before });
    await ok('POST', `${W}/commit/item/digg/`, { token, form: { aweme_id: id, type: 0 } });
    expect(await videoStat(id, 'digg_count')).toBe(before);
    expect(await userStat(me.id, 'favoriting_count')).toBe(mineBefore);
  });

  it('a write clears the anonymous answer cache of this process', async () => {
    process.env.API_ANON_CACHE = 'on';
    try {
      clearApiCache();
      const id = await freshVideo('likes');
      const first = await ok('GET', `${W}/aweme/detail/`, { query: { aweme_id: id } });
      await ok('POST', `${W}/commit/item/digg/`, { token, form: { aweme_id: id, type: 1 } });
      const second = await ok('GET', `${W}/aweme/detail/`, { query: { aweme_id: id } });
      expect(second.aweme_detail.statistics.digg_count).toBe(first.aweme_detail.statistics.digg_count + 1);
    } finally {
      process.env.API_ANON_CACHE = 'off';
    }
  });
});

describe('aweme/collect', () => {
  it('collects once, a repeat stays, uncollect restores', async () => {
    const id = await freshVideo('collects');
    const before = await videoStat(id, 'collect_count');
    const mine = await userStat(me.id, 'collect_count');
    expect(await ok('POST', `${W}/aweme/collect/`, { token, form: { aweme_id: id, action: 1 } })).toEqual({
      status_code: 0,
      collect_stat: 1,
      collect_count: before + 1,
    });
    await ok('POST', `${W}/aweme/collect/`, { token, form: { aweme_id: id, action: 1 } });
    expect(await videoStat(id, 'collect_count')).toBe(before + 1);
    const self = await ok('GET', `${W}/user/profile/self/`, { token });
    expect(self.user_collect_count.collect_count_list[0].collect_count).toBe(mine + 1);
    const list = await ok('GET', `${W}/aweme/listcollection/`, { token, query: { count: 1 } });
    expect(list.aweme_list[0].aweme_id).toBe(String(id));
    expect((await ok('POST', `${W}/aweme/collect/`, { token, form: { aweme_id: id, action: 0 } })).collect_count).toBe(
      before,
    );
    await ok('POST', `${W}/aweme/collect/`, { token, form: { aweme_id: id, action: 0 } });
    expect(await videoStat(id, 'collect_count')).toBe(before);
    expect(await userStat(me.id, 'collect_count')).toBe(mine);
  });
});

describe('comments', () => {
  it('publish stores HTML verbatim and answers it verbatim in JSON; delete restores the count', async () => {
    const id = await freshVideo('likes');
    const before = await videoStat(id, 'comment_count');
    const html = `<img src=x onerror="alert('x')"><b>粗体</b> & "引号" </script>`;
    const res = await ok('POST', `${W}/comment/publish`, { token, form: { aweme_id: id, text: html } });
    expect(res.comment.text).toBe(html);
    expect(res.comment_count).toBe(before + 1);
    expect(res.comment.user.uid).toBe(String(me.id));
    const stored = await one<{ text: string }>(
      ctx,
      sql`select text from comments where id = ${Number(res.comment.cid)}`,
    );
    expect(stored.text).toBe(html);
    const raw = await call('GET', `/api${W}/comment/list/`, { query: { aweme_id: id, count: 50 } });
    expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
    expect(raw.headers.get('x-content-type-options')).toBe('nosniff');
    expect(raw.body.comments.map((c: { text: string }) => c.text)).toContain(html);

    const reply = await ok('POST', `${W}/comment/publish`, {
      token,
      form: { aweme_id: id, text: '回复一下', reply_id: res.comment.cid },
    });
    expect(reply.comment.reply_id).toBe(res.comment.cid);
    expect(reply.comment_count).toBe(before + 2);
    const replies = await ok('GET', `${W}/comment/list/reply/`, {
      query: { item_id: id, comment_id: res.comment.cid },
    });
    expect(replies.comments.map((c: { cid: string }) => c.cid)).toEqual([reply.comment.cid]);

    const del = await ok('POST', `${W}/comment/delete`, { token, form: { cid: res.comment.cid } });
    expect(del.comment_count).toBe(before);
    expect(await videoStat(id, 'comment_count')).toBe(before);
    // Deleting again finds nothing and changes nothing.
    expectErrorA(await call('POST', `/api${W}/comment/delete`, { token, form: { cid: res.comment.cid } }), 404, 4);
    expect(await videoStat(id, 'comment_count')).toBe(before);
  });

  it("deleting someone else's comment on someone else's video is a 403", async () => {
    const c = await one<{ id: number }>(
      ctx,
      sql`
      select c.id from comments c join videos v on v.id = c.video_id
      where c.deleted_at is null and v.deleted_at is null and c.user_id <> ${me.id} and v.author_id <> ${me.id} limit 1`,
    );
    expectErrorA(await call('POST', `/api${W}/comment/delete`, { token, form: { cid: c.id } }), 403, 9);
  });

  it('comment/digg likes once, a repeat stays, undo restores', async () => {
    const c = await one<{ id: number; video_id: number; digg_count: number }>(
      ctx,
      sql`
      select c.id, c.video_id, c.digg_count from comments c join videos v on v.id = c.video_id
      where c.deleted_at is null and v.deleted_at is null
        and not exists (select 1 from comment_likes cl where cl.comment_id = c.id and cl.user_id = ${me.id})
      order by c.id limit 1`,
    );
    const form = { cid: c.id, aweme_id: c.video_id, digg_type: 1 };
    expect(await ok('POST', `${W}/comment/digg`, { token, form })).toEqual({
      status_code: 0,
      user_digged: 1,
      digg_count: c.digg_count + 1,
    });
    expect((await ok('POST', `${W}/comment/digg`, { token, form })).digg_count).toBe(c.digg_count + 1);
    const list = await ok('GET', `${W}/comment/list/`, { token, query: { aweme_id: c.video_id, count: 50 } });
    const shown = list.comments.find((x: { cid: string }) => x.cid === String(c.id));
    if (shown) expect(shown.user_digged).toBe(1);
    expect((await ok('POST', `${W}/comment/digg`, { token, form: { ...form, digg_type: 0 } })).digg_count).toBe(
      c.digg_count,
    );
    await ok('POST', `${W}/comment/digg`, { token, form: { ...form, digg_type: 0 } });
    expect((await one<{ n: number }>(ctx, sql`select digg_count as n from comments where id = ${c.id}`)).n).toBe(
      c.digg_count,
    );
    // The comment must belong to aweme_id when it is given.
    expectErrorA(
      await call('POST', `/api${W}/comment/digg`, { token, form: { ...form, aweme_id: c.video_id + 1 } }),
      404,
      4,
    );
  });
});

describe('commit/follow/user', () => {
  it('follows once, a repeat stays, unfollow restores both counts', async () => {
    const other = await one<{ id: number; sec_uid: string; follower_count: number; follows_me: boolean }>(
      ctx,
      sql`
      select u.id, u.sec_uid, u.follower_count,
        exists (select 1 from follows b where b.follower_id = u.id and b.followee_id = ${me.id}) as follows_me
      from users u where u.id <> ${me.id}
        and not exists (select 1 from follows f where f.follower_id = ${me.id} and f.followee_id = u.id)
      order by u.id limit 1`,
    );
    const following = await userStat(me.id, 'following_count');
    const res = await ok('POST', `${W}/commit/follow/user/`, { token, form: { sec_user_id: other.sec_uid, type: 1 } });
    expect(res).toEqual({
      status_code: 0,
      follow_status: other.follows_me ? 2 : 1,
      follower_count: other.follower_count + 1,
      following_count: following + 1,
    });
    const again = await ok('POST', `${W}/commit/follow/user/`, { token, form: { user_id: other.id, type: 1 } });
    expect(again.follower_count).toBe(other.follower_count + 1);
    const list = await ok('GET', `${W}/user/following/list/`, { token, query: { count: 1 } });
    expect(list.followings[0].uid).toBe(String(other.id));
    const undo = await ok('POST', `${W}/commit/follow/user/`, { token, form: { sec_user_id: other.sec_uid, type: 0 } });
    expect(undo).toEqual({
      status_code: 0,
      follow_status: 0,
      follower_count: other.follower_count,
      following_count: following,
    });
    await ok('POST', `${W}/commit/follow/user/`, { token, form: { sec_user_id: other.sec_uid, type: 0 } });
    expect(await userStat(other.id, 'follower_count')).toBe(other.follower_count);
    expect(await userStat(me.id, 'following_count')).toBe(following);
  });

  it('following oneself is a 400', async () => {
    expectErrorA(
      await call('POST', `/api${W}/commit/follow/user/`, { token, form: { sec_user_id: me.sec_uid, type: 1 } }),
      400,
      2,
    );
  });
});

describe('watch later, history, not interested, share', () => {
  it('watch later add is idempotent and remove undoes it', async () => {
    const id = await freshVideo('watch_later');
    const rows = async () =>
      (
        await one<{ n: number }>(
          ctx,
          sql`select count(*)::int as n from watch_later where user_id = ${me.id} and video_id = ${id}`,
        )
      ).n;
    expect(await ok('POST', `${W}/aweme/watchlater/add/`, { token, form: { aweme_id: id } })).toEqual({
      status_code: 0,
      in_watch_later: 1,
    });
    await ok('POST', `${W}/aweme/watchlater/add/`, { token, form: { aweme_id: id } });
    expect(await rows()).toBe(1);
    const tab = await ok('GET', '/video/self', { token, query: { showTab: 'watch_later', size: 50 } });
    expect(tab.data.videosList.map((v: { id: number }) => v.id)).toContain(id);
    expect(await ok('POST', `${W}/aweme/watchlater/remove/`, { token, form: { aweme_id: id } })).toEqual({
      status_code: 0,
      in_watch_later: 0,
    });
    await ok('POST', `${W}/aweme/watchlater/remove/`, { token, form: { aweme_id: id } });
    expect(await rows()).toBe(0);
  });

  it('history/write counts a play once for a fresh watch, not again for progress updates', async () => {
    const id = await freshVideo('watch_history');
    const plays = await videoStat(id, 'play_count');
    expect(
      (await ok('POST', `${W}/history/write/`, { token, form: { aweme_id: id, progress: 1000 } })).play_count,
    ).toBe(plays + 1);
    expect(
      (await ok('POST', `${W}/history/write/`, { token, form: { aweme_id: id, progress: 2000 } })).play_count,
    ).toBe(plays + 1);
    const read = await ok('GET', `${W}/history/read/`, { token, query: { count: 1 } });
    expect(read.aweme_list[0].aweme_id).toBe(String(id));
    expect(read.aweme_list[0].history_info.progress_ms).toBeLessThanOrEqual(2000);
  });

  it('commit/dislike/item takes a video out of the viewer’s recommend feed', async () => {
    const feed = await ok('GET', `${W}/tab/feed/`, { token, query: { count: 5 } });
    const id = feed.aweme_list[0].aweme_id;
    await ok('POST', `${W}/commit/dislike/item/`, { token, form: { aweme_id: id } });
    await ok('POST', `${W}/commit/dislike/item/`, { token, form: { aweme_id: id } });
    const after = await ok('GET', `${W}/tab/feed/`, { token, query: { count: 50 } });
    expect(after.aweme_list.map((a: { aweme_id: string }) => a.aweme_id)).not.toContain(id);
    const anon = await ok('GET', `${W}/tab/feed/`, { query: { count: 5 } });
    expect(anon.aweme_list.map((a: { aweme_id: string }) => a.aweme_id)).toContain(id);
  });

  it('aweme/share counts each share', async () => {
    const id = await freshVideo('likes');
    const before = await videoStat(id, 'share_count');
    expect(await ok('POST', `${W}/aweme/share/`, { token, form: { aweme_id: id } })).toEqual({
      status_code: 0,
      share_count: before + 1,
    });
    expect((await ok('POST', `${W}/aweme/share/`, { token, form: { aweme_id: id } })).share_count).toBe(before + 2);
  });

  it('every write refuses a request without the Token header', async () => {
    const id = await freshVideo('likes');
    for (const path of [
      'commit/item/digg/',
      'aweme/collect/',
      'comment/publish',
      'comment/delete',
      'comment/digg',
      'commit/follow/user/',
      'aweme/watchlater/add/',
      'aweme/watchlater/remove/',
      'history/write/',
      'commit/dislike/item/',
      'aweme/share/',
    ]) {
      expectErrorA(await call('POST', `/api${W}/${path}`, { form: { aweme_id: id } }), 401, 8);
      expectErrorA(
        await call('POST', `/api${W}/${path}`, { cookie: `sy_session=${token}`, form: { aweme_id: id } }),
        401,
        8,
      );
    }
  });
});
