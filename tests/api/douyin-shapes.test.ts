/**
 * The answers a douyin.com web client reads on its 关注, 稍后再看, 搜索TA的作品, 观看历史 (直播, 影视综, 用户) and 收藏 → 音乐
 * pages, held to Douyin-shaped examples of each (src/server/api/douyin-examples.ts): every path of the example is in our
 * answer with the same JSON type, each list the example fills is filled here too, and none of the calls is a 404.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as examples from '../../src/server/api/douyin-examples.ts';
import { recordLiveWatch } from '../../src/server/services/live-history.ts';
import { loadFixture, type Fixture } from './fixture.ts';
import { call, expectErrorA, ok, one, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
let f: Fixture;
let author: { id: number; sec_uid: string };
let fan: { id: number; token: string };

const W = '/aweme/v1/web';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * A list's position, where douyin answers a number: ours is an opaque token (list-cursor.ts) that a client passes back
 * unchanged, so a string stands for it.
 */
const POSITION = /(^|\.)(cursor|max_cursor|min_cursor|offset)$/;

/**
 * Every path of `example` that `ours` lacks or holds with another JSON type, as 'a.b[].c: wanted string, got number'.
 * A list the example fills must be filled in ours, and each of our entries must hold the example's first entry.
 */
function missing(example: Json, ours: unknown, path = ''): string[] {
  if (POSITION.test(path) && typeof example === 'number' && typeof ours === 'string') return [];
  if (kind(example) !== kind(ours)) return [`${path || '(root)'}: wanted ${kind(example)}, got ${kind(ours)}`];
  if (Array.isArray(example)) {
    const list = ours as unknown[];
    if (example.length === 0) return [];
    if (list.length === 0) return [`${path}: empty, the example has entries`];
    return list.flatMap((entry) => missing(example[0]!, entry, `${path}[]`));
  }
  if (example !== null && typeof example === 'object') {
    const object = ours as Record<string, unknown>;
    return Object.entries(example).flatMap(([key, value]) =>
      key in object
        ? missing(value, object[key], path ? `${path}.${key}` : key)
        : [`${path ? `${path}.` : ''}${key}: absent`],
    );
  }
  return [];
}

beforeAll(async () => {
  f = await loadFixture(ctx);
  // A creator the demo account does not follow yet, with public works.
  author = await one(
    ctx,
    sql`select u.id, u.sec_uid from users u where not u.is_demo and u.aweme_count >= 3
      and not exists (select 1 from follows where follower_id = ${f.demo.id} and followee_id = u.id)
      order by u.id limit 1`,
  );
  // A new account: nothing of its own yet (history, 稍后再看, follows) but what the tests below give it.
  const made = await one<{ id: number }>(
    ctx,
    sql`insert into users (sec_uid, nickname, avatar) values ('douyin-shapes-fan', '形状测试', 'avatars/a.webp') returning id`,
  );
  fan = { id: made.id, token: await tokenFor(made.id) };
});

describe('Douyin-shaped answers of the calls a web client makes', () => {
  it('follow/feed answers the followed works under data[].aweme', async () => {
    await ok('POST', `${W}/commit/follow/user/`, {
      form: { sec_user_id: author.sec_uid, type: 1 },
      token: fan.token,
    });
    const body = await ok('GET', `${W}/follow/feed/`, { query: { count: 6 }, token: fan.token });
    expect(missing(examples.followFeedExample, body)).toEqual([]);
    expect(body.data.map((d: { aweme: { aweme_id: string } }) => d.aweme.aweme_id)).toEqual(
      body.aweme_list.map((a: { aweme_id: string }) => a.aweme_id),
    );
  });

  it('watchlater/list answers items and names the entries whose work no longer plays', async () => {
    const works = await ctx.db.execute<{ id: number }>(
      sql`select id from videos where author_id = ${author.id} and deleted_at is null and visibility = 'public' order by id limit 2`,
    );
    const [kept, gone] = works.rows.map((r) => r.id);
    for (const id of [kept, gone])
      await ok('POST', `${W}/aweme/watchlater/add/`, { form: { aweme_id: id! }, token: fan.token });
    await ctx.db.execute(sql`update videos set deleted_at = now() where id = ${gone}`);
    const body = await ok('GET', `${W}/watchlater/list/`, { query: { count: 10 }, token: fan.token });
    expect(missing(examples.watchLaterExample, body)).toEqual([]);
    expect(body.items.map((a: { aweme_id: string }) => a.aweme_id)).toContain(String(kept));
    expect(body.invalid_item_ids).toEqual([String(gone)]);
    await ctx.db.execute(sql`update videos set deleted_at = null where id = ${gone}`);
  });

  it('home/search/item takes from_user as a numeric uid and answers aweme_list[].item', async () => {
    const work = await one<{ title: string }>(
      ctx,
      sql`select split_part("desc", ' #', 1) as title from videos where author_id = ${author.id}
        and deleted_at is null and visibility = 'public' order by id limit 1`,
    );
    const keyword = [...work.title].slice(0, 2).join('');
    const byUid = await ok('GET', `${W}/home/search/item/`, { query: { keyword, from_user: author.id, count: 5 } });
    expect(missing(examples.homeSearchItemExample, byUid)).toEqual([]);
    for (const r of byUid.aweme_list) expect(r.item.author.uid).toBe(String(author.id));
    const bySec = await ok('GET', `${W}/home/search/item/`, {
      query: { keyword, from_user: author.sec_uid, count: 5 },
    });
    expect(bySec.aweme_list.map((r: { item: { aweme_id: string } }) => r.item.aweme_id)).toEqual(
      byUid.aweme_list.map((r: { item: { aweme_id: string } }) => r.item.aweme_id),
    );
    expectErrorA(
      await call('GET', `/api${W}/home/search/item/`, { query: { keyword, from_user: 2_000_000_000 } }),
      404,
      4,
    );
  });

  it('webcast/feed answers a member the rooms they watched as live records, paged by extra.max_time', async () => {
    // The seed's rooms are past broadcasts: a member's history holds those as well as rooms on air.
    const rooms = await ctx.db.execute<{ id: number }>(sql`select id from live_rooms order by id limit 3`);
    expect(rooms.rows).toHaveLength(3);
    for (const r of rooms.rows) {
      await recordLiveWatch(fan.id, r.id);
      await ctx.db.execute(sql`select pg_sleep(0.002)`);
    }
    const seen: string[] = [];
    let maxTime = 0;
    for (let i = 0; i < 5; i++) {
      const body = await ok('GET', `${W}/webcast/feed/`, { query: { max_time: maxTime, count: 2 }, token: fan.token });
      expect(missing(examples.webcastFeedExample, body)).toEqual([]);
      seen.push(...body.data.map((r: { rid: string }) => r.rid));
      expect(body.extra.has_more).toBe(body.has_more === 1);
      if (!body.extra.has_more) break;
      maxTime = body.extra.max_time;
    }
    expect(seen).toEqual(rooms.rows.map((r) => String(r.id)).reverse());
    // A visitor is shown the rooms on air in the same shape.
    const onAir = rooms.rows[0]!.id;
    await ctx.db.execute(sql`update live_rooms set status = 'live', ended_at = null where id = ${onAir}`);
    const anonymous = await ok('GET', `${W}/webcast/feed/`, { query: { count: 3 } });
    expect(missing(examples.webcastFeedExample, anonymous)).toEqual([]);
    expect(anonymous.data.map((r: { rid: string }) => r.rid)).toEqual([String(onAir)]);
  });

  it('lvideo/query/history answers one lvideo_history_list entry per series, at the episode watched last', async () => {
    const drama = await ctx.db.execute<{ video_id: number; position: number; series_id: number }>(
      sql`select si.video_id, si.position, si.series_id from series_items si join series s on s.id = si.series_id
        join videos v on v.id = si.video_id
        where s.kind = 'theatre' and v.deleted_at is null and v.visibility = 'public'
          and s.id = (select series_id from series_items where video_id = ${f.episode})
        order by si.position limit 2`,
    );
    for (const [i, e] of drama.rows.entries())
      await ok('POST', `${W}/history/write/`, { form: { aweme_id: e.video_id, progress: 2000 + i }, token: fan.token });
    const body = await ok('GET', `${W}/lvideo/query/history/`, { query: { count: 10 }, token: fan.token });
    expect(missing(examples.lvideoHistoryExample, body)).toEqual([]);
    const last = drama.rows.at(-1)!;
    expect(body.lvideo_history_list).toHaveLength(1);
    expect(body.lvideo_history_list[0]).toMatchObject({
      album_id: String(last.series_id),
      episode_id: String(last.video_id),
      seq: last.position,
      msec: 2000 + drama.rows.length - 1,
    });
    expect(body.aweme_list.map((a: { aweme_id: string }) => a.aweme_id)).toEqual([String(last.video_id)]);
  });

  it('music/listcollection lists the sounds collected with music/collect, latest first, and lets one go', async () => {
    const works = await ctx.db.execute<{ id: number }>(
      sql`select id from videos where deleted_at is null and visibility = 'public' order by id limit 2`,
    );
    for (const w of works.rows) {
      const r = await ok('POST', `${W}/music/collect/`, { form: { music_id: w.id, action: 1 }, token: fan.token });
      expect(r.collect_stat).toBe(1);
      await ctx.db.execute(sql`select pg_sleep(0.002)`);
    }
    const body = await ok('GET', `${W}/music/listcollection/`, { query: { count: 10 }, token: fan.token });
    expect(missing(examples.musicCollectionExample, body)).toEqual([]);
    expect(body.mc_list.map((m: { id_str: string }) => m.id_str)).toEqual(
      works.rows.map((w) => String(w.id)).reverse(),
    );
    await ok('POST', `${W}/music/collect/`, { form: { music_id: works.rows[0]!.id, action: 0 }, token: fan.token });
    const after = await ok('GET', `${W}/music/listcollection/`, { token: fan.token });
    expect(after.mc_list.map((m: { id_str: string }) => m.id_str)).toEqual([String(works.rows[1]!.id)]);
    expectErrorA(
      await call('POST', `/api${W}/music/collect/`, { form: { music_id: 2_000_000_000, action: 1 }, token: fan.token }),
      404,
      4,
    );
  });

  it('view/user/visited/list lists the profiles a member opened, latest visit first, never their own', async () => {
    const others = await ctx.db.execute<{ sec_uid: string; id: number }>(
      sql`select sec_uid, id from users where id not in (${fan.id}, ${author.id}) order by id limit 2`,
    );
    for (const u of others.rows) {
      await ok('GET', `${W}/user/profile/other/`, { query: { sec_user_id: u.sec_uid }, token: fan.token });
      await ctx.db.execute(sql`select pg_sleep(0.002)`);
    }
    const self = await one<{ sec_uid: string }>(ctx, sql`select sec_uid from users where id = ${fan.id}`);
    await ok('GET', `${W}/user/profile/other/`, { query: { sec_user_id: self.sec_uid }, token: fan.token });
    // A visitor's read is nobody's visit.
    await ok('GET', `${W}/user/profile/other/`, { query: { sec_user_id: others.rows[0]!.sec_uid } });
    const first = await ok('GET', `${W}/view/user/visited/list/`, { query: { count: 1 }, token: fan.token });
    expect(missing(examples.visitedUsersExample, first)).toEqual([]);
    expect(first.has_more).toBe(true);
    const rest = await ok('GET', `${W}/view/user/visited/list/`, {
      query: { cursor: first.next_cursor, count: 10 },
      token: fan.token,
    });
    const order = [...first.visit_user_list, ...rest.visit_user_list].map((u: { uid: string }) => u.uid);
    expect(order).toEqual(others.rows.map((u) => String(u.id)).reverse());
    expect(rest.has_more).toBe(false);
  });

  it('each of the calls is in the OpenAPI document with its Douyin-shaped example, and asks for a login where it reads a member’s own', async () => {
    const doc = await ok('GET', '/openapi.json');
    const byPath: Record<string, unknown> = {
      [`${W}/follow/feed/`]: examples.followFeedExample,
      [`${W}/watchlater/list/`]: examples.watchLaterExample,
      [`${W}/home/search/item/`]: examples.homeSearchItemExample,
      [`${W}/webcast/feed/`]: examples.webcastFeedExample,
      [`${W}/lvideo/query/history/`]: examples.lvideoHistoryExample,
      [`${W}/music/listcollection/`]: examples.musicCollectionExample,
      [`${W}/view/user/visited/list/`]: examples.visitedUsersExample,
    };
    for (const [path, example] of Object.entries(byPath)) {
      const schema = doc.paths[path]?.get?.responses?.['200']?.content?.['application/json']?.schema;
      expect(schema?.examples, path).toEqual([example]);
      const res = await call('GET', `/api${path}`, { query: { keyword: f.word }, token: f.demo.token });
      expect(res.status, `${path} ${res.text}`).toBe(200);
    }
    for (const path of ['/music/listcollection/', '/view/user/visited/list/'])
      expectErrorA(await call('GET', `/api${W}${path}`), 401, 8);
  });
});
