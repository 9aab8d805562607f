/**
 * The douyin.com web endpoints a client calls in normal browsing beyond the profile and feed reads: v2 module/feed,
 * 关注 (videos and live rooms), 稍后再看, 收藏夹, collected 合集, 短剧, 私密作品, 移除粉丝, the 私信 friends, @ candidates
 * and the home search. Each answers in douyin's envelope, pages without repeats or gaps, refuses bad input with
 * status_code 2 and anonymous callers of personal lists with status_code 8, and never shows another user's hidden work.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { REMOVE_FOLLOWER_RATE } from '../../src/server/services/social.ts';
import { reset } from '../../src/server/services/rate-limit.ts';
import { tokenize } from '../../src/server/services/search-tokens.ts';
import { call, expectErrorA, ok, one, pageAll, tokenFor, useApiDb } from './helpers.ts';

const ctx = useApiDb();
const W = '/aweme/v1/web';

interface User {
  id: number;
  sec_uid: string;
  token: string;
}

let made = 0;

/** A new account with no relations, and a session for it. */
async function newUser(name: string): Promise<User> {
  const n = ++made;
  const row = await one<{ id: number; sec_uid: string }>(
    ctx,
    sql`
    insert into users (sec_uid, nickname, avatar) values (${`endpoints-user-${n}`}, ${`${name}${n}`}, 'avatars/a.webp') returning id, sec_uid`,
  );
  return { ...row, token: await tokenFor(row.id) };
}

/** A published work of `authorId`; the title is searchable as the seed's are. */
async function newWork(
  authorId: number,
  visibility: 'public' | 'friends' | 'private' = 'public',
  title = '测试作品',
): Promise<number> {
  const row = await one<{ id: number }>(
    ctx,
    sql`
    insert into videos (author_id, channel_id, "desc", media, poster, duration_ms, width, height, size_bytes, visibility, search_tokens)
    values (${authorId}, 300201, ${title}, 'clips/a.mp4', 'posters/a.webp', 10000, 540, 960, 1000, ${visibility},
      ${sql`array[${sql.join(
        tokenize(title).map((t) => sql`${t}`),
        sql`, `,
      )}]::text[]`})
    returning id`,
  );
  return row.id;
}

async function follow(followerId: number, followeeId: number): Promise<void> {
  await ctx.db.execute(
    sql`insert into follows (follower_id, followee_id) values (${followerId}, ${followeeId}) on conflict do nothing`,
  );
}

const awemeIds = (body: { aweme_list: { aweme_id: string }[] }) => body.aweme_list.map((a) => a.aweme_id);
const uids = (list: { uid: string }[]) => list.map((u) => u.uid);
const sorted = (xs: (string | number)[]) => xs.map(String).sort();

/** Walks a list page by page (`size` a page) and checks the pages add up to one big page: no repeats, no gaps, same order. */
async function walkMatchesOnePage(
  fetch: (cursor: string, count: number) => Promise<{ ids: string[]; next: string; hasMore: boolean }>,
  size: number,
): Promise<string[]> {
  const whole = await fetch('0', 50);
  expect(whole.hasMore, 'the list fits one page of 50').toBe(false);
  const walked = await pageAll((cursor) => fetch(cursor, size));
  expect(new Set(walked).size).toBe(walked.length);
  expect(walked).toEqual(whole.ids);
  return walked;
}

describe('/aweme/v2/web/module/feed/', () => {
  const V2 = '/aweme/v2/web/module/feed/';

  it('answers the awemes of v1 module/feed as aweme_list, by GET and by a POSTed form with douyin’s extra fields', async () => {
    const v1 = await ok('GET', `${W}/module/feed/`, { query: { count: 12, refresh_index: 2 } });
    const v1Ids = v1.cards.map((c: { aweme: string }) => JSON.parse(c.aweme).aweme_id);
    const get = await ok('GET', V2, { query: { count: 12, refresh_index: 2 } });
    expect(awemeIds(get)).toEqual(v1Ids);
    const post = await ok('POST', V2, {
      form: {
        count: 12,
        refresh_index: 2,
        module_id: 3003101,
        pull_type: 2,
        tag_id: '',
        filterGids: '',
        presented_ids: '',
        awemePcRecRawData: '{"is_xigua_user":0,"danmaku_switch_status":0,"is_client":false}',
        'Seo-Flag': 0,
        pre_item_ids: '1,2,3',
      },
    });
    expect(awemeIds(post)).toEqual(v1Ids);
    expect(post.has_more).toBe(1);
    expect(post.aweme_list[0].video.play_addr.url_list.length).toBeGreaterThan(0);
  });

  it('pages by refresh_index and by cursor without repeats or gaps', async () => {
    const big = awemeIds(await ok('POST', V2, { form: { count: 40 } }));
    const byIndex: string[] = [];
    for (let i = 1; i <= 4; i++)
      byIndex.push(...awemeIds(await ok('POST', V2, { form: { count: 10, refresh_index: i } })));
    expect(byIndex).toEqual(big);
    const byCursor: string[] = [];
    let cursor = '0';
    for (let i = 0; i < 4; i++) {
      const b = await ok('POST', V2, { form: { count: 10, cursor } });
      expect(b.cursor).not.toBe(cursor);
      byCursor.push(...awemeIds(b));
      cursor = b.cursor;
    }
    expect(byCursor).toEqual(big);
  });

  it('a channel tag_id pages that channel, as channel/feed does', async () => {
    const channel = await ok('GET', `${W}/channel/feed/`, { query: { tag_id: 300203, count: 15 } });
    const tagged = await ok('POST', V2, { form: { tag_id: 300203, count: 15 } });
    expect(awemeIds(tagged)).toEqual(awemeIds(channel));
  });

  it('refuses bad input with status_code 2, and v1 module/feed still answers cards', async () => {
    expectErrorA(await call('POST', `/api${V2}`, { form: { count: 0 } }), 400, 2);
    expectErrorA(await call('GET', `/api${V2}`, { query: { count: 51 } }), 400, 2);
    expectErrorA(await call('POST', `/api${V2}`, { form: { tag_id: 'abc' } }), 400, 2);
    expectErrorA(await call('POST', `/api${V2}`, { form: { cursor: -1 } }), 400, 2);
    expectErrorA(await call('POST', `/api${V2}`, { form: { cursor: 'not-one-of-ours' } }), 400, 2);
    const v1 = await ok('GET', `${W}/module/feed/`, { query: { count: 3 } });
    expect(v1.cards).toHaveLength(3);
    expect(v1.aweme_list).toBeUndefined();
  });
});

describe('关注: follow/feed and webcast/web/feed/follow', () => {
  let viewer: User;
  let friend: User;
  let idol: User;
  let stranger: User;
  const works: Record<string, number> = {};

  beforeAll(async () => {
    [viewer, friend, idol, stranger] = [
      await newUser('fan'),
      await newUser('friend'),
      await newUser('idol'),
      await newUser('stranger'),
    ];
    await follow(viewer.id, friend.id);
    await follow(friend.id, viewer.id);
    await follow(viewer.id, idol.id);
    for (const [who, u] of [
      ['friend', friend],
      ['idol', idol],
      ['stranger', stranger],
    ] as const) {
      for (const v of ['public', 'friends', 'private'] as const) works[`${who}:${v}`] = await newWork(u.id, v);
      for (let i = 0; i < 4; i++) works[`${who}:extra${i}`] = await newWork(u.id);
    }
  });

  it('needs a login: 401 with status_code 8', async () => {
    expectErrorA(await call('GET', `/api${W}/follow/feed/`), 401, 8);
    expectErrorA(await call('GET', '/api/webcast/web/feed/follow/'), 401, 8);
  });

  it('follow/feed holds the followed users’ works the viewer may see, newest first, walked 4 at a time', async () => {
    const walked = await walkMatchesOnePage(async (cursor, count) => {
      const b = await ok('GET', `${W}/follow/feed/`, { query: { cursor, count }, token: viewer.token });
      return { ids: awemeIds(b), next: b.cursor, hasMore: b.has_more === 1 };
    }, 4);
    const expected = [
      'friend:public',
      'friend:friends',
      'idol:public',
      ...[0, 1, 2, 3].flatMap((i) => [`friend:extra${i}`, `idol:extra${i}`]),
    ];
    expect(sorted(walked)).toEqual(sorted(expected.map((k) => works[k]!)));
    // Hidden from a one-way follower and from everyone but the author.
    expect(walked).not.toContain(String(works['idol:friends']));
    expect(walked).not.toContain(String(works['friend:private']));
    expect(walked).not.toContain(String(works['stranger:public']));
    expect(walked).toEqual([...walked].sort((a, b) => Number(b) - Number(a)));
  });

  it('webcast/web/feed/follow lists the rooms on air of followed hosts in douyin’s data.data, each with its room', async () => {
    const rooms = // The seed's rooms are past broadcasts: three go on air again, as publishers would put them.
      (
        await ctx.db.execute<{ id: number }>(
          sql`update live_rooms set status = 'live', ended_at = null where id in (select id from live_rooms order by id limit 3) returning id`,
        )
      ).rows.sort((x, y) => Number(x.id) - Number(y.id));
    expect(rooms.length).toBe(3);
    const [a, b, c] = rooms.map((r) => Number(r.id));
    await ctx.db.execute(
      sql`update live_rooms set host_id = ${friend.id}, started_at = now() - interval '1 minute' where id = ${a}`,
    );
    await ctx.db.execute(sql`update live_rooms set host_id = ${idol.id}, started_at = now() where id = ${b}`);
    await ctx.db.execute(sql`update live_rooms set host_id = ${stranger.id} where id = ${c}`);
    const body = await ok('GET', '/webcast/web/feed/follow/', {
      token: viewer.token,
      query: { scene: 'aweme_pc_follow_top' },
    });
    const rows = body.data.data;
    expect(rows.map((r: { web_rid: string }) => r.web_rid)).toEqual([String(b), String(a)]);
    expect(rows[0].room).toEqual(rows[0].data);
    expect(rows[0].room.owner.sec_uid).toBe(idol.sec_uid);
    expect(body.data.has_more).toBe(0);
    const first = await ok('GET', '/webcast/web/feed/follow/', { token: viewer.token, query: { count: 1 } });
    const second = await ok('GET', '/webcast/web/feed/follow/', {
      token: viewer.token,
      query: { count: 1, cursor: first.data.cursor },
    });
    expect(second.data.data.map((r: { web_rid: string }) => r.web_rid)).toEqual([String(a)]);
    await ctx.db.execute(sql`update live_rooms set status = 'ended' where id = ${a}`);
    const after = await ok('GET', '/webcast/web/feed/follow/', { token: viewer.token });
    expect(after.data.data.map((r: { web_rid: string }) => r.web_rid)).toEqual([String(b)]);
  });

  it('an unknown /webcast path answers in Family A; bad paging input is status_code 2', async () => {
    expectErrorA(await call('GET', '/api/webcast/web/nothing/'), 404, 4);
    expectErrorA(
      await call('GET', '/api/webcast/web/feed/follow/', { token: viewer.token, query: { count: 'x' } }),
      400,
      2,
    );
    expectErrorA(await call('GET', `/api${W}/follow/feed/`, { token: viewer.token, query: { cursor: -1 } }), 400, 2);
  });
});

describe('稍后再看, 收藏夹 and 私密作品', () => {
  let viewer: User;
  let other: User;
  let author: User;
  const later: number[] = [];
  const collected: number[] = [];

  beforeAll(async () => {
    [viewer, other, author] = [await newUser('saver'), await newUser('other'), await newUser('maker')];
    for (let i = 0; i < 9; i++) {
      const id = await newWork(author.id);
      later.push(id);
      await ok('POST', `${W}/aweme/watchlater/add/`, { form: { aweme_id: id }, token: viewer.token });
    }
    for (let i = 0; i < 7; i++) {
      const id = await newWork(author.id);
      collected.push(id);
      await ok('POST', `${W}/aweme/collect/`, { form: { aweme_id: id, action: 1 }, token: viewer.token });
    }
  });

  it('each personal list needs a login', async () => {
    for (const path of ['watchlater/list/', 'collects/list/', 'private/aweme/', 'mix/listcollection/']) {
      expectErrorA(await call('GET', `/api${W}/${path}`), 401, 8);
    }
  });

  it('watchlater/list walks the viewer’s 稍后再看, latest added first, and drops a work its author made private', async () => {
    const walked = await walkMatchesOnePage(async (offset, count) => {
      const b = await ok('GET', `${W}/watchlater/list/`, {
        query: { offset, count, list_type: 0, operate_type: 0 },
        token: viewer.token,
      });
      return { ids: awemeIds(b), next: b.offset, hasMore: b.has_more === 1 };
    }, 2);
    expect(walked).toEqual(later.map(String).reverse());
    await ctx.db.execute(sql`update videos set visibility = 'private' where id = ${later[0]!}`);
    const after = awemeIds(await ok('GET', `${W}/watchlater/list/`, { query: { count: 50 }, token: viewer.token }));
    expect(after).not.toContain(String(later[0]));
    expect(after).toHaveLength(later.length - 1);
    await ctx.db.execute(sql`update videos set visibility = 'public' where id = ${later[0]!}`);
  });

  it('collects/list answers one folder of every collected video; collects/video/list walks it as aweme/listcollection lists it', async () => {
    const list = await ok('GET', `${W}/collects/list/`, { token: viewer.token });
    expect(list.collects_list).toHaveLength(1);
    expect(list.total_number).toBe(1);
    expect(list.has_more).toBe(0);
    const folder = list.collects_list[0];
    expect(folder).toMatchObject({
      collects_id_str: String(viewer.id),
      collects_name: '默认收藏夹',
      total_number: collected.length,
      is_private: 0,
    });
    expect(folder.collects_cover.url_list[0]).toMatch(/posters\/a\.webp$/);
    expect(folder.last_collect_time).toBeGreaterThan(0);
    expect(
      (await ok('GET', `${W}/collects/list/`, { token: viewer.token, query: { cursor: list.cursor } })).collects_list,
    ).toEqual([]);

    const walked = await walkMatchesOnePage(async (cursor, count) => {
      const b = await ok('GET', `${W}/collects/video/list/`, {
        query: { collects_id: folder.collects_id_str, cursor, count },
        token: viewer.token,
      });
      return { ids: awemeIds(b), next: b.cursor, hasMore: b.has_more === 1 };
    }, 3);
    expect(walked).toEqual(collected.map(String).reverse());
    const listed = await ok('GET', `${W}/aweme/listcollection/`, { query: { count: 50 }, token: viewer.token });
    expect(awemeIds(listed)).toEqual(walked);
  });

  it('another user’s folder opens only while they keep 收藏 public; unknown and bad folder ids are 404 and 400', async () => {
    const path = `${W}/collects/video/list/`;
    expect(
      awemeIds(await ok('GET', path, { query: { collects_id: viewer.id, count: 50 }, token: other.token })).length,
    ).toBe(collected.length);
    expect(awemeIds(await ok('GET', path, { query: { collects_id: viewer.id, count: 50 } })).length).toBe(
      collected.length,
    );
    await ctx.db.execute(
      sql`update users set privacy = '{"likesPublic": true, "collectsPublic": false}'::jsonb where id = ${viewer.id}`,
    );
    expectErrorA(await call('GET', `/api${path}`, { query: { collects_id: viewer.id }, token: other.token }), 403, 9);
    expectErrorA(await call('GET', `/api${path}`, { query: { collects_id: viewer.id } }), 403, 9);
    const own = await ok('GET', `${W}/collects/list/`, { token: viewer.token });
    expect(own.collects_list[0].is_private).toBe(1);
    await ctx.db.execute(
      sql`update users set privacy = '{"likesPublic": true, "collectsPublic": true}'::jsonb where id = ${viewer.id}`,
    );
    expectErrorA(
      await call('GET', `/api${path}`, { query: { collects_id: 2_000_000_000 }, token: viewer.token }),
      404,
      4,
    );
    expectErrorA(await call('GET', `/api${path}`, { query: { collects_id: 'abc' }, token: viewer.token }), 400, 2);
    expectErrorA(await call('GET', `/api${path}`, { token: viewer.token }), 400, 2);
  });

  it('a collected work its author hid leaves the folder, its count and its cover', async () => {
    const hidden = collected.at(-1)!;
    await ctx.db.execute(sql`update videos set visibility = 'friends' where id = ${hidden}`);
    const folder = (await ok('GET', `${W}/collects/list/`, { token: viewer.token })).collects_list[0];
    expect(folder.total_number).toBe(collected.length - 1);
    const videos = awemeIds(
      await ok('GET', `${W}/collects/video/list/`, {
        query: { collects_id: viewer.id, count: 50 },
        token: viewer.token,
      }),
    );
    expect(videos).not.toContain(String(hidden));
    await ctx.db.execute(sql`update videos set visibility = 'public' where id = ${hidden}`);
  });

  it('private/aweme walks the viewer’s own 仅自己可见 works only', async () => {
    const mine: number[] = [];
    for (let i = 0; i < 5; i++) mine.push(await newWork(viewer.id, 'private'));
    await newWork(viewer.id, 'public');
    await newWork(viewer.id, 'friends');
    await newWork(other.id, 'private');
    const walked = await walkMatchesOnePage(async (cursor, count) => {
      const b = await ok('GET', `${W}/private/aweme/`, { query: { max_cursor: cursor, count }, token: viewer.token });
      expect(b.min_cursor).toBe(cursor);
      return { ids: awemeIds(b), next: b.max_cursor, hasMore: b.has_more === 1 };
    }, 2);
    expect(walked).toEqual(mine.map(String).reverse());
    expect((await ok('GET', `${W}/private/aweme/`, { token: other.token })).aweme_list).toHaveLength(1);
    expectErrorA(
      await call('GET', `/api${W}/private/aweme/`, { query: { max_cursor: 'x' }, token: viewer.token }),
      400,
      2,
    );
  });
});

describe('合集 and 短剧: mix/listcollection and series/list', () => {
  let viewer: User;
  let author: User;
  let mixes: number[];
  let drama: number;

  beforeAll(async () => {
    [viewer, author] = [await newUser('binge'), await newUser('studio')];
    mixes = [];
    for (let i = 0; i < 3; i++) {
      const mix = await one<{ id: number }>(
        ctx,
        sql`
        insert into series (author_id, kind, title, cover, item_count) values (${author.id}, 'mix', ${`合集${i}`}, 'x.webp', 2) returning id`,
      );
      mixes.push(mix.id);
      for (let e = 1; e <= 2; e++) {
        const work = await newWork(author.id);
        await ctx.db.execute(
          sql`insert into series_items (series_id, video_id, position) values (${mix.id}, ${work}, ${e})`,
        );
        // The second episode of each mix goes into the viewer's 收藏, mix by mix.
        if (e === 2)
          await ok('POST', `${W}/aweme/collect/`, { form: { aweme_id: work, action: 1 }, token: viewer.token });
      }
    }
    ({ id: drama } = await one<{ id: number }>(
      ctx,
      sql`
      insert into series (author_id, kind, title, cover, item_count) values (${author.id}, 'theatre', '短剧', 'x.webp', 0) returning id`,
    ));
  });

  it('mix/listcollection walks the 合集 the viewer collected from, latest collect first', async () => {
    const walked = await walkMatchesOnePage(async (cursor, count) => {
      const b = await ok('GET', `${W}/mix/listcollection/`, { query: { cursor, count }, token: viewer.token });
      return { ids: b.mix_infos.map((m: { mix_id: string }) => m.mix_id), next: b.cursor, hasMore: b.has_more === 1 };
    }, 2);
    expect(walked).toEqual(mixes.map(String).reverse());
    const stranger = await newUser('nobody');
    expect((await ok('GET', `${W}/mix/listcollection/`, { token: stranger.token })).mix_infos).toEqual([]);
  });

  it('a mix whose collected episode became private to someone else leaves the list', async () => {
    const episode = await one<{ video_id: number }>(
      ctx,
      sql`select video_id from series_items where series_id = ${mixes[0]!} and position = 2`,
    );
    await ctx.db.execute(sql`update videos set visibility = 'private' where id = ${episode.video_id}`);
    const ids = (await ok('GET', `${W}/mix/listcollection/`, { token: viewer.token })).mix_infos.map(
      (m: { mix_id: string }) => m.mix_id,
    );
    expect(ids).toEqual([String(mixes[2]), String(mixes[1])]);
    await ctx.db.execute(sql`update videos set visibility = 'public' where id = ${episode.video_id}`);
  });

  it('series/list answers a user’s 短剧 only, as series_infos', async () => {
    const body = await ok('GET', `${W}/series/list/`, { query: { sec_user_id: author.sec_uid } });
    expect(body.series_infos.map((s: { series_id: string }) => s.series_id)).toEqual([String(drama)]);
    expect(body.series_infos[0]).toMatchObject({ mix_type: 'theatre', series_name: '短剧', mix_name: '短剧' });
    const seeded = await one<{ sec_uid: string; n: number }>(
      ctx,
      sql`
      select u.sec_uid, count(*)::int as n from series s join users u on u.id = s.author_id where s.kind = 'theatre'
      group by u.sec_uid order by n desc limit 1`,
    );
    const walked = await walkMatchesOnePage(async (cursor, count) => {
      const b = await ok('GET', `${W}/series/list/`, { query: { sec_user_id: seeded.sec_uid, cursor, count } });
      return {
        ids: b.series_infos.map((s: { series_id: string }) => s.series_id),
        next: b.cursor,
        hasMore: b.has_more === 1,
      };
    }, 1);
    expect(walked).toHaveLength(seeded.n);
    expectErrorA(await call('GET', `/api${W}/series/list/`, { query: { sec_user_id: 'nobody-at-all' } }), 404, 4);
    expectErrorA(await call('GET', `/api${W}/series/list/`, { query: { sec_user_id: '<x>' } }), 400, 2);
    expectErrorA(await call('GET', `/api${W}/series/list/`), 400, 2);
  });
});

describe('POST user/follower/remove/ (移除粉丝)', () => {
  let me: User;
  let fan: User;

  beforeAll(async () => {
    [me, fan] = [await newUser('host'), await newUser('fan')];
  });

  const counts = (id: number) =>
    one<{ followers: number; following: number }>(
      ctx,
      sql`
    select follower_count as followers, following_count as following from users where id = ${id}`,
    );
  const followNote = async () =>
    (
      await ctx.db.execute(
        sql`select 1 from notifications where user_id = ${me.id} and actor_id = ${fan.id} and kind = 'follow'`,
      )
    ).rows.length;

  it('removes the follow with both counts, the notification, and what the follow opened', async () => {
    await ok('POST', `${W}/commit/follow/user/`, { form: { user_id: me.id, type: 1 }, token: fan.token });
    await ok('POST', `${W}/commit/follow/user/`, { form: { user_id: fan.id, type: 1 }, token: me.token });
    const friendsOnly = await newWork(me.id, 'friends');
    expect(awemeIds(await ok('GET', `${W}/follow/feed/`, { token: fan.token }))).toContain(String(friendsOnly));
    const [me0, fan0] = [await counts(me.id), await counts(fan.id)];
    expect(await followNote()).toBe(1);

    const body = await ok('POST', `${W}/user/follower/remove/`, {
      form: { sec_user_id: fan.sec_uid },
      token: me.token,
    });
    expect(body).toEqual({ status_code: 0, follower_status: 0, follower_count: me0.followers - 1 });
    expect(await counts(me.id)).toEqual({ followers: me0.followers - 1, following: me0.following });
    expect(await counts(fan.id)).toEqual({ followers: fan0.followers, following: fan0.following - 1 });
    expect(await followNote()).toBe(0);
    // The fan's 关注 no longer holds my works, and my friends-only work is hidden from them (no longer friends).
    expect(awemeIds(await ok('GET', `${W}/follow/feed/`, { token: fan.token }))).toEqual([]);
    expectErrorA(
      await call('GET', `/api${W}/aweme/detail/`, { query: { aweme_id: friendsOnly }, token: fan.token }),
      404,
      4,
    );
    const followers = await ok('GET', `${W}/user/follower/list/`, { token: me.token });
    expect(uids(followers.followers)).not.toContain(String(fan.id));
    // I still follow the fan.
    expect(
      (await ok('GET', `${W}/user/following/list/`, { token: me.token })).followings.map((u: { uid: string }) => u.uid),
    ).toContain(String(fan.id));
  });

  it('someone who does not follow (any more) changes nothing', async () => {
    const [me0, fan0] = [await counts(me.id), await counts(fan.id)];
    const body = await ok('POST', `${W}/user/follower/remove/`, { form: { user_id: fan.id }, token: me.token });
    expect(body.follower_count).toBe(me0.followers);
    expect([await counts(me.id), await counts(fan.id)]).toEqual([me0, fan0]);
  });

  it('refuses oneself (2), an unknown user (4), no user named (2) and an anonymous caller (8)', async () => {
    expectErrorA(
      await call('POST', `/api${W}/user/follower/remove/`, { form: { user_id: me.id }, token: me.token }),
      400,
      2,
    );
    expectErrorA(
      await call('POST', `/api${W}/user/follower/remove/`, { form: { user_id: 2_000_000_000 }, token: me.token }),
      404,
      4,
    );
    expectErrorA(
      await call('POST', `/api${W}/user/follower/remove/`, { form: { sec_user_id: 'nobody-at-all' }, token: me.token }),
      404,
      4,
    );
    expectErrorA(
      await call('POST', `/api${W}/user/follower/remove/`, {
        form: { sec_user_id: fan.sec_uid, user_id: me.id },
        token: me.token,
      }),
      404,
      4,
    );
    expectErrorA(await call('POST', `/api${W}/user/follower/remove/`, { form: {}, token: me.token }), 400, 2);
    expectErrorA(
      await call('POST', `/api${W}/user/follower/remove/`, { form: { user_id: 'x' }, token: me.token }),
      400,
      2,
    );
    expectErrorA(await call('POST', `/api${W}/user/follower/remove/`, { form: { user_id: fan.id } }), 401, 8);
  });

  it(`allows ${REMOVE_FOLLOWER_RATE.limit} removals an hour, then 429 with Retry-After`, async () => {
    await reset(`follower-remove:${me.id}`);
    const limit = REMOVE_FOLLOWER_RATE.limit;
    // Self and unknown users are refused before they count; the counted calls used above were reset.
    for (let i = 0; i < limit; i++)
      await ok('POST', `${W}/user/follower/remove/`, { form: { user_id: fan.id }, token: me.token });
    const refused = await call('POST', `/api${W}/user/follower/remove/`, {
      form: { user_id: fan.id },
      token: me.token,
    });
    expectErrorA(refused, 429, 7);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    await reset(`follower-remove:${me.id}`);
  });
});

describe('im/spotlight/relation, familiar/atlist and home/search/item', () => {
  let viewer: User;
  const friends: User[] = [];
  const followed: User[] = [];

  beforeAll(async () => {
    viewer = await newUser('social');
    for (let i = 0; i < 5; i++) {
      const f = await newUser(i % 2 ? '星河好友' : '海边好友');
      await follow(viewer.id, f.id);
      await follow(f.id, viewer.id);
      friends.push(f);
    }
    for (let i = 0; i < 4; i++) {
      const u = await newUser(i % 2 ? '星河关注' : '山间关注');
      await follow(viewer.id, u.id);
      followed.push(u);
    }
    // Fans the viewer does not follow back are neither friends nor mentionable.
    const fan = await newUser('星河粉丝');
    await follow(fan.id, viewer.id);
  });

  it('im/spotlight/relation walks the viewer’s friends (mutual follows) as followings', async () => {
    expectErrorA(await call('GET', `/api${W}/im/spotlight/relation/`), 401, 8);
    const walked = await walkMatchesOnePage(async (cursor, count) => {
      const b = await ok('GET', `${W}/im/spotlight/relation/`, {
        query: { cursor, count, min_time: 1550248238 },
        token: viewer.token,
      });
      for (const u of b.followings) expect(u.follow_status).toBe(2);
      return { ids: uids(b.followings), next: b.cursor, hasMore: b.has_more === 1 };
    }, 2);
    expect(sorted(walked)).toEqual(sorted(friends.map((f) => f.id)));
    expectErrorA(
      await call('GET', `/api${W}/im/spotlight/relation/`, { query: { count: 0 }, token: viewer.token }),
      400,
      2,
    );
  });

  it('familiar/atlist walks everyone the viewer follows, friends first; keyword filters by nickname', async () => {
    expectErrorA(await call('GET', `/api${W}/familiar/atlist/`), 401, 8);
    const walked = await walkMatchesOnePage(async (cursor, count) => {
      const b = await ok('GET', `${W}/familiar/atlist/`, { query: { cursor, count, scene: 2 }, token: viewer.token });
      return { ids: uids(b.user_list), next: b.cursor, hasMore: b.has_more === 1 };
    }, 3);
    expect(sorted(walked.slice(0, friends.length))).toEqual(sorted(friends.map((f) => f.id)));
    expect(sorted(walked.slice(friends.length))).toEqual(sorted(followed.map((f) => f.id)));
    const star = await ok('GET', `${W}/familiar/atlist/`, { query: { keyword: '星河' }, token: viewer.token });
    const starIds = [...friends, ...followed].filter((_, i) =>
      i < friends.length ? i % 2 === 1 : (i - friends.length) % 2 === 1,
    );
    expect(sorted(uids(star.user_list))).toEqual(sorted(starIds.map((u) => u.id)));
    expect(star.user_list[0].follow_status).toBe(2);
    expectErrorA(
      await call('GET', `/api${W}/familiar/atlist/`, { query: { keyword: '长'.repeat(21) }, token: viewer.token }),
      400,
      2,
    );
  });

  it('home/search/item answers as general/search/single does, and from_user keeps that user’s public works', async () => {
    const word = '珊瑚灯笼';
    const author = friends[0]!;
    const own = [await newWork(author.id, 'public', `${word}一`), await newWork(author.id, 'public', `${word}二`)];
    const hidden = await newWork(author.id, 'friends', `${word}三`);
    const elsewhere = await newWork(followed[0]!.id, 'public', `${word}四`);
    const general = await ok('GET', `${W}/general/search/single/`, { query: { keyword: word, count: 20 } });
    const home = await ok('GET', `${W}/home/search/item/`, {
      query: { keyword: word, count: 20, search_channel: 'aweme_video_web' },
    });
    const ids = (b: { data: { aweme_info: { aweme_id: string } }[] }) => b.data.map((d) => d.aweme_info.aweme_id);
    expect(ids(home)).toEqual(ids(general));
    expect(sorted(ids(home))).toEqual(sorted([...own, elsewhere]));
    // Even the author's friend does not find a friends-only work in search: search lists are the same for everyone.
    const scoped = await ok('GET', `${W}/home/search/item/`, {
      query: { keyword: word, from_user: author.sec_uid },
      token: viewer.token,
    });
    expect(sorted(ids(scoped))).toEqual(sorted(own));
    expect(ids(scoped)).not.toContain(String(hidden));
    const walked = await walkMatchesOnePage(async (offset, count) => {
      const b = await ok('GET', `${W}/home/search/item/`, { query: { keyword: word, offset, count } });
      return { ids: ids(b), next: b.cursor, hasMore: b.has_more === 1 };
    }, 1);
    expect(walked).toHaveLength(3);
    expectErrorA(await call('GET', `/api${W}/home/search/item/`, { query: { keyword: ' ' } }), 400, 2);
    expectErrorA(
      await call('GET', `/api${W}/home/search/item/`, { query: { keyword: word, from_user: 'nobody-at-all' } }),
      404,
      4,
    );
    expectErrorA(await call('GET', `/api${W}/home/search/item/`, { query: { keyword: word, offset: -1 } }), 400, 2);
  });
});
