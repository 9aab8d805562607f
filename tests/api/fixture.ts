/**
 * Seeded things the shape tests ask the API about, found once per file: the demo viewer and ids their reads need, and
 * today's activity the seed (made as of a fixed past moment) cannot have: a like for 热点, two entries of history.
 */
import { sql } from 'drizzle-orm';
import { call, one, tokenFor, type Ctx } from './helpers.ts';

export interface Fixture {
  /** The demo account (likes, collects, history, follows, notifications and conversations of its own). */
  demo: { id: number; secUid: string; token: string };
  /** A public video with a top-level comment that has replies. */
  video: number;
  comment: number;
  /** A creator with works, followers and a 合集 (mix). */
  author: { secUid: string; nickname: string };
  mix: number;
  /** A word of the video's title, which the search finds. */
  word: string;
  /** One of the demo account's conversations and its peer. */
  conversation: number;
  peer: string;
  /** A theatre episode in the demo account's history (lvideo/query/history). */
  episode: number;
  /** The author of that episode's 短剧 (series/list). */
  dramatist: string;
  /** A pending QR login ticket. */
  ticket: string;
}

/** Finds the fixture in the cloned seed (call in beforeAll, after useApiDb's). */
export async function loadFixture(ctx: Ctx): Promise<Fixture> {
  const demo = await one<{ id: number; sec_uid: string }>(
    ctx,
    sql`select id, sec_uid from users where is_demo limit 1`,
  );
  const busy = await one<{ video_id: number; comment_id: number; title: string }>(
    ctx,
    sql`
    select c.video_id, c.id as comment_id, split_part(v."desc", ' #', 1) as title
    from comments c join videos v on v.id = c.video_id
    where c.parent_id is null and c.deleted_at is null and v.deleted_at is null and v.visibility = 'public' and v.status = 'published'
      and (select count(*) from comments r where r.parent_id = c.id and r.deleted_at is null) >= 2
    order by c.id limit 1`,
  );
  const mix = await one<{ id: number; sec_uid: string; nickname: string }>(
    ctx,
    sql`
    select s.id, u.sec_uid, u.nickname from series s join users u on u.id = s.author_id
    where s.kind = 'mix' and u.follower_count > 0 order by s.id limit 1`,
  );
  const chat = await one<{ id: number; peer: string }>(
    ctx,
    sql`
    select c.id, u.sec_uid as peer from conversations c
    join users u on u.id = case when c.user_a = ${demo.id} then c.user_b else c.user_a end
    where ${demo.id} in (c.user_a, c.user_b) order by c.last_message_at desc limit 1`,
  );
  const episode = await one<{ id: number; dramatist: string }>(
    ctx,
    sql`
    select si.video_id as id, u.sec_uid as dramatist from series_items si join series s on s.id = si.series_id
    join videos v on v.id = si.video_id join users u on u.id = s.author_id
    where s.kind = 'theatre' and v.deleted_at is null and v.visibility = 'public' order by si.video_id limit 1`,
  );
  const token = await tokenFor(demo.id);
  const W = '/api/aweme/v1/web';
  await call('POST', `${W}/commit/item/digg/`, { form: { aweme_id: busy.video_id, type: 1 }, token });
  for (const id of [episode.id, busy.video_id])
    await call('POST', `${W}/history/write/`, { form: { aweme_id: id, progress: 1000 }, token });
  const qr = await call('POST', '/api/passport/qr/create', { form: {} });
  return {
    demo: { id: demo.id, secUid: demo.sec_uid, token },
    video: busy.video_id,
    comment: busy.comment_id,
    author: { secUid: mix.sec_uid, nickname: mix.nickname },
    mix: mix.id,
    word: [...busy.title].slice(0, 2).join(''),
    conversation: chat.id,
    peer: chat.peer,
    episode: episode.id,
    dramatist: episode.dramatist,
    ticket: qr.body.ticket,
  };
}
