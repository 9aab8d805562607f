import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { setBlock } from './blocks.ts';
import { list as listComments } from './comments.ts';
import { listDanmaku } from './danmaku.ts';
import { ServiceError } from '../errors.ts';
import { fileReport } from './reports.ts';
import { byChannel, discover, followFeed, hot, recommend, related } from './videos.ts';

let t: TestDb;
let viewer: number;
let author: number;
let work: number;
let comment: number;
let onOther: number;
let channel: number;
let neighbour: number;

beforeAll(async () => {
  t = await freshDb();
  const q = async (sql: string, params: unknown[] = []) => (await t.pool.query(sql, params)).rows;
  // An author with public works, a comment and a danmaku by them on someone else's work, and a viewer following them.
  [{ author_id: author, id: work }] = (await q(
    `select author_id, id from videos where deleted_at is null and status = 'published' and visibility = 'public'
      order by digg_count desc limit 1`,
  )) as [{ author_id: number; id: number }];
  [{ id: viewer }] = (await q('select id from users where id <> $1 order by id limit 1', [author])) as [{ id: number }];
  await q('insert into follows (follower_id, followee_id) values ($1, $2) on conflict do nothing', [viewer, author]);
  const [other] = (await q(
    `select id from videos where author_id <> $1 and deleted_at is null and visibility = 'public' order by id limit 1`,
    [author],
  )) as [{ id: number }];
  [{ id: comment }] = (await q(
    `insert into comments (video_id, user_id, text) values ($1, $2, '作者的评论') returning id`,
    [other.id, author],
  )) as [{ id: number }];
  await q(`insert into danmaku (video_id, user_id, text, offset_ms) values ($1, $2, '作者的弹幕', 100)`, [
    other.id,
    author,
  ]);
  onOther = other.id;
  // The author's work in 热点 (a like just now), and a work of its channel whose related videos hold it.
  [{ channel_id: channel }] = (await q('select channel_id from videos where id = $1', [work])) as [
    { channel_id: number },
  ];
  [{ id: neighbour }] = (await q(
    `select id from videos where channel_id = $1 and id <> $2 and deleted_at is null and visibility = 'public'
      order by id limit 1`,
    [channel, work],
  )) as [{ id: number }];
  await q('insert into likes (user_id, video_id) values ($1, $2) on conflict do nothing', [onOtherLiker(), work]);
});

/** Someone who is neither the viewer nor the author (a like of theirs puts the author's work in 热点). */
function onOtherLiker(): number {
  return viewer === 1 || author === 1 ? (viewer === 2 || author === 2 ? 3 : 2) : 1;
}

afterAll(async () => {
  await t.close();
});

/** Every item of a list, page by page (the seed's lists end within a few pages). */
async function everyPage<T>(
  fetch: (cursor: string | undefined) => Promise<{ items: T[]; cursor: string; hasMore: boolean }>,
): Promise<T[]> {
  const all: T[] = [];
  for (let cursor: string | undefined, more = true, k = 0; more && k < 20; k++) {
    const page = await fetch(cursor);
    all.push(...page.items);
    cursor = page.cursor;
    more = page.hasMore;
  }
  return all;
}

/** Whether the viewer still meets the author anywhere the block reaches. */
async function meets(): Promise<Record<string, boolean>> {
  const other = onOther;
  const feed = [];
  for (let cursor: string | undefined, more = true; more && feed.length < 400;) {
    const page = await recommend(viewer, { cursor, count: 50 });
    feed.push(...page.items);
    cursor = page.cursor;
    more = page.hasMore;
  }
  return {
    recommend: feed.some((v) => v.author.id === author),
    follow: (await followFeed(viewer, { count: 50 })).items.some((v) => v.author.id === author),
    comments: (await listComments(other, { count: 50 }, viewer)).items.some((c) => c.id === comment),
    danmaku: ((await listDanmaku(other, viewer)) ?? []).some((d) => d.userId === author),
    discover: (await discover({ count: 50 }, viewer)).items.some((v) => v.author.id === author),
    channel: (await byChannel(channel, { count: 50 }, viewer)).items.some((v) => v.author.id === author),
    hot: (await everyPage((cursor) => hot({ cursor, count: 50 }, viewer))).some((v) => v.author.id === author),
    related: (await everyPage((cursor) => related(neighbour, { cursor, count: 50, viewerId: viewer }))).some(
      (v) => v.author.id === author,
    ),
  };
}

const PLACES = ['recommend', 'follow', 'comments', 'danmaku', 'discover', 'channel', 'hot', 'related'] as const;
const everywhere = (on: boolean) => Object.fromEntries(PLACES.map((p) => [p, on]));

describe('举报 with 同时拉黑', () => {
  it('files the report and blocks the author at once: their works, comments and danmaku leave the viewer’s feeds', async () => {
    expect(await meets()).toEqual(everywhere(true));
    const filed = await fileReport(viewer, 'video', work, 'spam', { block: true });
    expect(filed.blockedId).toBe(author);
    const { rows } = await t.pool.query('select target_type, target_id from reports where id = $1', [filed.id]);
    expect(rows[0]).toEqual({ target_type: 'video', target_id: work });
    expect(await meets()).toEqual(everywhere(false));
    // Others still see everything.
    const stranger = (
      await t.pool.query('select id from users where id not in ($1, $2) order by id limit 1', [viewer, author])
    ).rows[0].id;
    expect((await listDanmaku(onOther, stranger))!.some((d) => d.userId === author)).toBe(true);
    await setBlock(viewer, author, false);
    expect(await meets()).toEqual(everywhere(true));
  });

  it('blocks the writer of a reported comment, and never the reporter themself', async () => {
    const filed = await fileReport(viewer, 'comment', comment, 'abuse', { block: true });
    expect(filed.blockedId).toBe(author);
    await setBlock(viewer, author, false);
    const own = await fileReport(author, 'comment', comment, 'other', { block: true });
    expect(own.blockedId).toBeNull();
  });

  it('answers 404 for what the reporter cannot see, and stores nothing', async () => {
    const before = Number((await t.pool.query('select count(*) from reports')).rows[0].count);
    for (const [target, id] of [
      ['video', 2_000_000_000],
      ['comment', 2_000_000_000],
      ['message', 2_000_000_000],
    ] as const) {
      const refused = await fileReport(viewer, target, id, 'spam', { block: true }).catch((e: ServiceError) => e);
      expect(refused).toBeInstanceOf(ServiceError);
      expect((refused as ServiceError).kind).toBe('not_found');
    }
    expect(Number((await t.pool.query('select count(*) from reports')).rows[0].count)).toBe(before);
  });
});
