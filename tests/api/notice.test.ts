/** 互动消息 doors (notice list, count, read) and block hiding in the comment and danmaku lists. */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { NOTICE_GROUP_NAMES, NOTICE_GROUPS, type Notice } from '../../src/shared/messaging.ts';
import { publishComment } from '../../src/server/services/comment-writes.ts';
import { sendDanmaku } from '../../src/server/services/danmaku.ts';
import { setCommentLike, setVideoLike } from '../../src/server/services/interactions.ts';
import { setFollow } from '../../src/server/services/social.ts';
import { call, expectErrorA, ok, one, tokenFor, useApiDb } from './helpers.ts';

const W = '/aweme/v1/web';
const ctx = useApiDb();

interface Cast {
  me: { id: number; token: string };
  video: { id: number; poster: string };
  friend: { id: number; nickname: string };
  stranger: { id: number };
}
let cast: Cast;

beforeAll(async () => {
  // A user with no notifications and a video of theirs; a friend (mutual follow) and a stranger who both act on it.
  const me = await one<{ id: number; video: number; poster: string }>(
    ctx,
    sql`
    select u.id, v.id as video, v.poster from users u join videos v on v.author_id = u.id and v.deleted_at is null
    where not u.is_demo and not exists (select 1 from notifications n where n.user_id = u.id) order by u.id, v.id limit 1`,
  );
  const others = (
    await ctx.db.execute<{ id: number; nickname: string }>(sql`
    select id, nickname from users u where u.id <> ${me.id} and not u.is_demo
      and not exists (select 1 from follows f where (f.follower_id, f.followee_id) in ((u.id, ${me.id}), (${me.id}, u.id)))
    order by id limit 2`)
  ).rows;
  const [friend, stranger] = others as [{ id: number; nickname: string }, { id: number; nickname: string }];
  cast = {
    me: { id: me.id, token: await tokenFor(me.id) },
    video: { id: me.video, poster: me.poster },
    friend,
    stranger: { id: stranger.id },
  };

  await setFollow(me.id, friend.id, true);
  await setFollow(friend.id, me.id, true);
  await setVideoLike(stranger.id, me.video, true);
  const mine = await publishComment(me.id, me.video, '作者自己的评论');
  await setCommentLike(friend.id, mine.id, true);
  await publishComment(stranger.id, me.video, '拍得真好');
  await publishComment(friend.id, me.video, '谢谢', mine.id);
  const [self] = (await ctx.db.execute<{ nickname: string }>(sql`select nickname from users where id = ${me.id}`)).rows;
  // On someone else's work: on the viewer's own, the comment notice would stand for the mention.
  const elsewhere = await one<{ id: number }>(
    ctx,
    sql`select min(id) as id from videos where author_id <> ${me.id} and deleted_at is null`,
  );
  await publishComment(stranger.id, elsewhere.id, `@${self!.nickname} 快看`);
  await sendDanmaku(friend.id, me.video, '前方高能', 1000);
});

const list = (query: Record<string, string | number> = {}) =>
  ok('GET', `${W}/notice/`, { token: cast.me.token, query });

describe('GET notice/', () => {
  it('answers every kind newest first, with the actor as the viewer relates to them and the work with its cover', async () => {
    const body = await list();
    const items: Notice[] = body.notice_list;
    expect(items.map((n) => n.type)).toEqual([
      'danmaku',
      'mention',
      'reply',
      'comment',
      'like_comment',
      'like_video',
      'follow',
    ]);
    expect(body).toMatchObject({ status_code: 0, has_more: 0, cursor: 0, total_unread: 7 });
    const byType = Object.fromEntries(items.map((n) => [n.type, n]));
    expect(byType.follow).toMatchObject({
      is_read: 0,
      content: null,
      aweme: null,
      actor: { uid: String(cast.friend.id), nickname: cast.friend.nickname, follow_status: 2, follower_status: 1 },
    });
    expect(byType.like_video!.actor).toMatchObject({
      uid: String(cast.stranger.id),
      follow_status: 0,
      follower_status: 0,
    });
    expect(byType.like_video!.aweme).toEqual({
      aweme_id: String(cast.video.id),
      cover: { url_list: [expect.stringContaining(cast.video.poster)] },
    });
    expect(byType.comment!.content).toBe('拍得真好');
    expect(byType.reply!.content).toBe('谢谢');
    expect(byType.danmaku!.content).toBe('前方高能');
    expect(byType.like_comment!.content).toBe('作者自己的评论');
    expect(byType.mention!.content).toMatch(/快看$/);
    for (const n of items) {
      expect(n.nid).toMatch(/^\d+$/);
      expect(Math.abs(n.create_time - Date.now())).toBeLessThan(60_000);
      expect(n.actor.avatar_thumb.url_list[0]).toMatch(/^\/media\//);
    }
  });

  it.each(NOTICE_GROUP_NAMES)('notice_group=%s answers only its kinds', async (group) => {
    const { notice_list } = await list({ notice_group: group });
    const kinds = new Set<string>(NOTICE_GROUPS[group]);
    expect(notice_list.length).toBeGreaterThan(0);
    for (const n of notice_list as Notice[]) expect(kinds.has(n.type)).toBe(true);
  });

  it('pages with the cursor it answers, without repeats or gaps', async () => {
    const all: string[] = (await list({ count: 50 })).notice_list.map((n: Notice) => n.nid);
    const seen: string[] = [];
    let cursor = 0;
    for (let i = 0; i < 10; i++) {
      const page = await list({ count: 2, cursor });
      seen.push(...page.notice_list.map((n: Notice) => n.nid));
      if (page.has_more === 0) break;
      cursor = page.cursor;
    }
    expect(seen).toEqual(all);
  });

  it('refuses an unknown group, a bad cursor or count with 400, and a visitor with 401', async () => {
    expectErrorA(
      await call('GET', `/api${W}/notice/`, { token: cast.me.token, query: { notice_group: 'likes' } }),
      400,
      2,
    );
    expectErrorA(await call('GET', `/api${W}/notice/`, { token: cast.me.token, query: { cursor: 'abc' } }), 400, 2);
    expectErrorA(await call('GET', `/api${W}/notice/`, { token: cast.me.token, query: { cursor: -1 } }), 400, 2);
    expectErrorA(await call('GET', `/api${W}/notice/`, { token: cast.me.token, query: { count: 0 } }), 400, 2);
    expectErrorA(await call('GET', `/api${W}/notice/`, { token: cast.me.token, query: { count: 51 } }), 400, 2);
    expectErrorA(await call('GET', `/api${W}/notice/`), 401, 8);
    expectErrorA(await call('GET', `/api${W}/notice/count/`), 401, 8);
    expectErrorA(await call('POST', `/api${W}/notice/read/`, { form: {} }), 401, 8);
  });
});

describe('OpenAPI', () => {
  it('documents the three notice doors', async () => {
    const doc = await ok('GET', '/openapi.json');
    for (const path of ['/notice/', '/notice/read/', '/notice/count/'])
      expect(Object.keys(doc.paths)).toContain(`${W}${path}`);
  });
});

describe('notice/count/ and notice/read/', () => {
  it('counts unread, marks all read, and an undone like leaves the list', async () => {
    expect(await ok('GET', `${W}/notice/count/`, { token: cast.me.token })).toEqual({
      status_code: 0,
      total_unread: 7,
    });
    expect(await ok('POST', `${W}/notice/read/`, { token: cast.me.token, form: {} })).toEqual({
      status_code: 0,
      total_unread: 0,
    });
    expect(await ok('GET', `${W}/notice/count/`, { token: cast.me.token })).toEqual({
      status_code: 0,
      total_unread: 0,
    });
    const read = await list();
    expect(read.total_unread).toBe(0);
    expect(read.notice_list.every((n: Notice) => n.is_read === 1)).toBe(true);

    await setVideoLike(cast.stranger.id, cast.video.id, false);
    expect((await list({ notice_group: 'digg' })).notice_list.map((n: Notice) => n.type)).toEqual(['like_comment']);
    await setVideoLike(cast.stranger.id, cast.video.id, true);
    const again = await list({ notice_group: 'digg' });
    expect(again.notice_list.map((n: Notice) => [n.type, n.is_read])).toEqual([
      ['like_video', 0],
      ['like_comment', 1],
    ]);
    expect(again.total_unread).toBe(1);
  });
});

describe('block hiding', () => {
  it('hides a blocked user’s comments, replies and danmaku from the blocker only, on every door', async () => {
    const thread = await one<{ root: number; video: number; author: number; replier: number }>(
      ctx,
      sql`
      select p.id as root, p.video_id as video, p.user_id as author, r.user_id as replier
      from comments p join comments r on r.parent_id = p.id and r.deleted_at is null and r.user_id <> p.user_id
      join videos v on v.id = p.video_id and v.deleted_at is null
      where p.parent_id is null and p.deleted_at is null order by p.id limit 1`,
    );
    // Someone other than the two blocked users and the bystander (cast.me) checked last.
    const blocker = await one<{ id: number }>(
      ctx,
      sql`select min(id) as id from users where id not in (${thread.author}, ${thread.replier}, ${cast.me.id})`,
    );
    const token = await tokenFor(blocker.id);
    const danmakuBy = await sendDanmaku(thread.author, thread.video, '被屏蔽者的弹幕', 0);
    await ctx.db.execute(
      sql`insert into blocks (blocker_id, blocked_id) values (${blocker.id}, ${thread.author}), (${blocker.id}, ${thread.replier})`,
    );

    const doors = async (auth: { token?: string }) => {
      const roots = await ok('GET', `${W}/comment/list/`, { ...auth, query: { aweme_id: thread.video, count: 50 } });
      const replies = await ok('GET', `${W}/comment/list/reply/`, {
        ...auth,
        query: { item_id: thread.video, comment_id: thread.root, count: 50 },
      });
      const familyB = await ok('POST', '/comment/list', { ...auth, form: { vid: thread.video, size: 50 } });
      const danmaku = await ok('GET', `${W}/danmaku/list/`, { ...auth, query: { aweme_id: thread.video } });
      return {
        root: roots.comments.some((c: { cid: string }) => c.cid === String(thread.root)),
        reply: replies.comments.some((c: { user: { uid: string } }) => c.user.uid === String(thread.replier)),
        familyB: familyB.data.some((c: { id: number }) => c.id === thread.root),
        danmaku: danmaku.danmaku_list.some((d: { danmaku_id: string }) => d.danmaku_id === String(danmakuBy.id)),
      };
    };
    expect(await doors({ token })).toEqual({ root: false, reply: false, familyB: false, danmaku: false });
    expect(await doors({})).toEqual({ root: true, reply: true, familyB: true, danmaku: true });
    expect(await doors({ token: cast.me.token })).toEqual({ root: true, reply: true, familyB: true, danmaku: true });
  });
});
