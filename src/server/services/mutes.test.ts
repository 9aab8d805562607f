import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { listDanmaku } from './danmaku.ts';
import { ServiceError } from '../errors.ts';
import { addMute, memberMutes, removeMute } from './mutes.ts';
import { listNotifications } from './notifications.ts';
import { searchVideos } from './search.ts';
import { byChannel, discover, followFeed, hot, recommend, related } from './videos.ts';
import { isMuted } from '../../shared/mutes.ts';

let t: TestDb;
let viewer: number;
let stranger: number;
let author: number;
let work: number;
let onOther: number;
let channel: number;
let neighbour: number;
/** A keyword from the title of a work by someone else, and that work. */
let keyword: string;
let worded: { id: number; desc: string };
let tag: string;

const q = async (sql: string, params: unknown[] = []) => (await t.pool.query(sql, params)).rows;

beforeAll(async () => {
  t = await freshDb();
  [{ author_id: author, id: work }] = (await q(
    `select author_id, id from videos where deleted_at is null and status = 'published' and visibility = 'public'
      order by digg_count desc limit 1`,
  )) as [{ author_id: number; id: number }];
  [{ id: viewer }, { id: stranger }] = (await q('select id from users where id <> $1 order by id limit 2', [
    author,
  ])) as [{ id: number }, { id: number }];
  await q('insert into follows (follower_id, followee_id) values ($1, $2) on conflict do nothing', [viewer, author]);
  [{ id: onOther }] = (await q(
    `select id from videos where author_id <> $1 and deleted_at is null and visibility = 'public' order by id limit 1`,
    [author],
  )) as [{ id: number }];
  await q(`insert into danmaku (video_id, user_id, text, offset_ms) values ($1, $2, '作者的弹幕', 100)`, [
    onOther,
    author,
  ]);
  await q(`insert into danmaku (video_id, user_id, text, offset_ms) values ($1, $2, '这里有个暗号词', 200)`, [
    onOther,
    stranger,
  ]);
  await q(`insert into notifications (user_id, actor_id, kind) values ($1, $2, 'follow')`, [viewer, author]);
  [{ channel_id: channel }] = (await q('select channel_id from videos where id = $1', [work])) as [
    { channel_id: number },
  ];
  [{ id: neighbour }] = (await q(
    `select id from videos where channel_id = $1 and id <> $2 and deleted_at is null and visibility = 'public'
      order by id limit 1`,
    [channel, work],
  )) as [{ id: number }];
  await q('insert into likes (user_id, video_id) values ($1, $2) on conflict do nothing', [stranger, work]);
  // The most popular work by someone else: its title's first three characters are the keyword.
  [worded] = (await q(
    `select id, "desc" from videos where author_id <> $1 and deleted_at is null and visibility = 'public'
      order by video_rank_score(digg_count, comment_count, collect_count, share_count, play_count, created_at) desc limit 1`,
    [author],
  )) as [{ id: number; desc: string }];
  keyword = [...worded.desc.split(' #')[0]!].slice(0, 3).join('');
  [{ name: tag }] = (await q(
    `select h.name from video_hashtags vh join hashtags h on h.id = vh.hashtag_id where vh.video_id = $1 limit 1`,
    [work],
  )) as [{ name: string }];
});

afterAll(async () => {
  await t.close();
});

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

type Card = { id: number; desc: string; author: { id: number } };

/** Every list a member reads works from, as `who` reads them. */
async function lists(who: number): Promise<Record<string, Card[]>> {
  const feed: Card[] = [];
  for (let cursor: string | undefined, more = true; more && feed.length < 400;) {
    const page = await recommend(who, { cursor, count: 50 });
    feed.push(...page.items);
    cursor = page.cursor;
    more = page.hasMore;
  }
  return {
    recommend: feed,
    follow: (await followFeed(who, { count: 50 })).items,
    discover: (await discover({ count: 50 }, who)).items,
    channel: (await byChannel(channel, { count: 50 }, who)).items,
    hot: await everyPage((cursor) => hot({ cursor, count: 50 }, who)),
    related: await everyPage((cursor) => related(neighbour, { cursor, count: 50, viewerId: who })),
  };
}

/** Per list, whether `who` meets a work that `test` picks. */
async function meets(who: number, test: (c: Card) => boolean): Promise<Record<string, boolean>> {
  return Object.fromEntries(Object.entries(await lists(who)).map(([k, items]) => [k, items.some(test)]));
}

const everywhere = (on: boolean) =>
  Object.fromEntries(['recommend', 'follow', 'discover', 'channel', 'hot', 'related'].map((p) => [p, on]));

describe('muting an author (不看TA的作品)', () => {
  it('takes their works out of every list, their danmaku and their notifications for the member only; undo brings all back', async () => {
    const byAuthor = (c: Card) => c.author.id === author;
    expect(await meets(viewer, byAuthor)).toEqual(everywhere(true));
    const entry = await addMute(viewer, { kind: 'author', authorId: author });
    expect(entry.author?.id).toBe(author);
    expect(await meets(viewer, byAuthor)).toEqual(everywhere(false));
    expect((await listDanmaku(onOther, viewer))!.some((d) => d.userId === author)).toBe(false);
    expect((await listNotifications(viewer)).items.some((n) => n.actor.id === author)).toBe(false);
    // Someone else still meets them everywhere.
    expect((await meets(stranger, byAuthor)).discover).toBe(true);
    expect((await listDanmaku(onOther, stranger))!.some((d) => d.userId === author)).toBe(true);
    await removeMute(viewer, { id: entry.id });
    expect(await meets(viewer, byAuthor)).toEqual(everywhere(true));
    expect((await listNotifications(viewer)).items.some((n) => n.actor.id === author)).toBe(true);
  });

  it('refuses an unknown author and oneself, storing nothing', async () => {
    for (const authorId of [2_000_000_000, viewer]) {
      const e = await addMute(viewer, { kind: 'author', authorId }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ServiceError);
    }
    expect((await memberMutes(viewer)).authors).toEqual([]);
  });
});

describe('muting a keyword', () => {
  it('drops works whose text holds it as a plain substring, in feeds and search, and danmaku holding it', async () => {
    const holds = (c: Card) => c.desc.toLowerCase().includes(keyword.toLowerCase());
    const before = await meets(viewer, holds);
    expect(before.discover).toBe(true);
    const found = (who: number) => searchVideos(keyword, { count: 50 }, { viewerId: who });
    expect((await found(viewer)).items.some(holds)).toBe(true);
    await addMute(viewer, { kind: 'keyword', value: ` ${keyword.toUpperCase()} ` });
    expect(Object.values(await meets(viewer, holds)).every((v) => !v)).toBe(true);
    expect((await found(viewer)).items.some(holds)).toBe(false);
    expect((await found(stranger)).items.some(holds)).toBe(true);
    await addMute(viewer, { kind: 'keyword', value: '暗号' });
    expect((await listDanmaku(onOther, viewer))!.some((d) => d.text.includes('暗号'))).toBe(false);
    expect((await listDanmaku(onOther, stranger))!.some((d) => d.text.includes('暗号'))).toBe(true);
    await removeMute(viewer, { kind: 'keyword', value: keyword });
    await removeMute(viewer, { kind: 'keyword', value: '暗号' });
    expect((await meets(viewer, holds)).discover).toBe(true);
  });

  it('matches the characters of patterns and regular expressions as plain text', async () => {
    const specials = ['%', '_', '|', '.*', '(', '\\', '[a-z]', '^'];
    const before = (await discover({ count: 50 }, viewer)).items.length;
    for (const value of specials) await addMute(viewer, { kind: 'keyword', value });
    expect((await discover({ count: 50 }, viewer)).items.length).toBe(before);
    // A keyword with them still matches where it is written.
    await t.pool.query(`update videos set "desc" = $2 where id = $1`, [worded.id, `${worded.desc} a.b(c`]);
    await addMute(viewer, { kind: 'keyword', value: 'a.b(c' });
    expect((await discover({ count: 50 }, viewer)).items.some((v) => v.id === worded.id)).toBe(false);
    await t.pool.query(`update videos set "desc" = $2 where id = $1`, [worded.id, worded.desc]);
    await t.pool.query(`delete from mutes where user_id = $1`, [viewer]);
  });

  it('keeps at most 200 keywords of at most 20 characters without control characters; a refusal stores nothing', async () => {
    const refused = async (value: string) => {
      const e = await addMute(viewer, { kind: 'keyword', value }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ServiceError);
      return (e as ServiceError).key;
    };
    expect(await refused('字'.repeat(21))).toBe('error.muteKeywordLong');
    expect(await refused('a\u0000b')).toBe('error.muteChars');
    expect(await refused('a\u0007b')).toBe('error.muteChars');
    expect(await refused('   ')).toBe('error.muteEmpty');
    await addMute(viewer, { kind: 'keyword', value: '字'.repeat(20) });
    for (let i = 1; i < 200; i++) await addMute(viewer, { kind: 'keyword', value: `词${i}` });
    // Muting one already muted is no new entry, and no refusal at the cap.
    await addMute(viewer, { kind: 'keyword', value: '词1' });
    expect(await refused('第二百零一')).toBe('error.muteKeywordsFull');
    const kept = (await memberMutes(viewer)).keywords;
    expect(kept).toHaveLength(200);
    expect(kept).not.toContain('第二百零一');
    await t.pool.query(`delete from mutes where user_id = $1`, [viewer]);
  });
});

describe('muting a hashtag', () => {
  it('drops the works that carry it, by its name with or without #', async () => {
    const tagged = (await q(
      `select video_id from video_hashtags vh join hashtags h on h.id = vh.hashtag_id where h.name = $1`,
      [tag],
    )) as { video_id: number }[];
    const ids = new Set(tagged.map((r) => r.video_id));
    const carries = (c: Card) => ids.has(c.id);
    expect((await meets(viewer, carries)).discover).toBe(true);
    await addMute(viewer, { kind: 'hashtag', value: `#${tag}` });
    expect(Object.values(await meets(viewer, carries)).every((v) => !v)).toBe(true);
    await removeMute(viewer, { kind: 'hashtag', value: tag });
    expect((await meets(viewer, carries)).discover).toBe(true);
  });
});

describe('the browser’s copy of the rule', () => {
  it('agrees with the server on author, substring, case and hashtag', () => {
    const mutes = { keywords: ['猫咪'], authors: ['u7'], hashtags: ['美食'] };
    expect(isMuted(mutes, { author: 'u7' })).toBe(true);
    expect(isMuted(mutes, { text: '我家的小猫咪睡着了' })).toBe(true);
    expect(isMuted(mutes, { text: '小猫 咪' })).toBe(false);
    expect(isMuted({ ...mutes, keywords: ['vlog'] }, { text: 'My VLOG day' })).toBe(true);
    expect(isMuted(mutes, { hashtags: ['美食'] })).toBe(true);
    expect(isMuted(mutes, { hashtags: ['美食家'], author: 'u8', text: '别的' })).toBe(false);
  });
});
