import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useFreshDb } from '../../../tests/setup/test-db.ts';
import { COMMENT_MAX } from '../../shared/comment-text.ts';
import type { Db } from '../db/client.ts';
import { recountAll } from '../db/recount.ts';
import { deleteComment, publishComment } from './comment-writes.ts';
import { list, replies } from './comments.ts';

let db: Db;
useFreshDb((fresh) => (db = fresh));

let picks = 0;

/** A live video, its author and two other distinct users. */
async function scene(): Promise<{ videoId: number; author: number; alice: number; bob: number }> {
  const { rows: videos } = await db.execute<{ id: number; author: number }>(sql`
    select id, author_id as author from videos where deleted_at is null order by md5(id::text) limit 1 offset ${picks++}`);
  const video = videos[0];
  if (!video) throw new Error('no live video in the seed');
  const { rows: people } = await db.execute<{ id: number }>(sql`
    select id from users where id <> ${video.author} order by md5(id || ':' || ${video.id}) limit 2`);
  const [alice, bob] = people;
  if (!alice || !bob) throw new Error('too few users in the seed');
  return { videoId: video.id, author: video.author, alice: alice.id, bob: bob.id };
}

const videoComments = async (id: number) =>
  (await db.execute<{ n: number }>(sql`select comment_count as n from videos where id = ${id}`)).rows[0]!.n;
const replyCount = async (id: number) =>
  (await db.execute<{ n: number }>(sql`select reply_count as n from comments where id = ${id}`)).rows[0]!.n;
const nickname = async (id: number) =>
  (await db.execute<{ nickname: string }>(sql`select nickname from users where id = ${id}`)).rows[0]!.nickname;
const notesFor = async (commentId: number) =>
  (
    await db.execute<{ user_id: number; kind: string }>(
      sql`select user_id, kind from notifications where comment_id = ${commentId} order by user_id, kind`,
    )
  ).rows;
const kindOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { kind?: string }) => e.kind,
  );

describe('publishComment', () => {
  it('adds a top-level comment once, notifies the video author, and returns what the list shows', async () => {
    const { videoId, author, alice } = await scene();
    const before = await videoComments(videoId);
    const c = await publishComment(alice, videoId, '  好看！  ');
    expect(c).toMatchObject({
      videoId,
      parentId: null,
      text: '好看！',
      diggCount: 0,
      replyCount: 0,
      replyTo: null,
      isAuthor: false,
    });
    expect(await videoComments(videoId)).toBe(before + 1);
    expect(await notesFor(c.id)).toEqual([{ user_id: author, kind: 'comment' }]);

    let page = await list(videoId, { count: 50 }, null);
    let listed = page.items.find((x) => x.id === c.id);
    while (!listed && page.hasMore) {
      page = await list(videoId, { cursor: page.cursor, count: 50 }, null);
      listed = page.items.find((x) => x.id === c.id);
    }
    expect(listed).toEqual(c);
  });

  it('threads replies under the root, names the replied author, and notifies them', async () => {
    const { videoId, author, alice, bob } = await scene();
    const before = await videoComments(videoId);
    const root = await publishComment(alice, videoId, '第一');
    const r1 = await publishComment(bob, videoId, '同意', root.id);
    expect(r1).toMatchObject({ parentId: root.id, replyTo: { nickname: await nickname(alice) } });
    const r2 = await publishComment(alice, videoId, '谢谢', r1.id);
    expect(r2).toMatchObject({ parentId: root.id, replyTo: { nickname: await nickname(bob) } });
    expect(await replyCount(root.id)).toBe(2);
    expect(await videoComments(videoId)).toBe(before + 3);
    expect(await notesFor(r1.id)).toEqual([{ user_id: alice, kind: 'reply' }]);
    expect(await notesFor(r2.id)).toEqual([{ user_id: bob, kind: 'reply' }]);
    expect((await replies(root.id, {}, null)).items).toEqual([r1, r2]);

    const own = await publishComment(author, videoId, '作者来了', root.id);
    expect(own.isAuthor).toBe(true);
  });

  it('refuses a reply to a comment of another video or a deleted one', async () => {
    const a = await scene();
    const b = await scene();
    const other = await publishComment(b.alice, b.videoId, '别处');
    expect(await kindOf(publishComment(a.alice, a.videoId, '串台', other.id))).toBe('not_found');
    expect(await kindOf(publishComment(a.alice, a.videoId, '无', 2_000_000_000))).toBe('not_found');
    expect(await kindOf(publishComment(a.alice, 2_000_000_000, '无'))).toBe('not_found');
    await deleteComment(b.alice, other.id);
    expect(await kindOf(publishComment(b.bob, b.videoId, '晚了', other.id))).toBe('not_found');
  });

  it('rejects empty and overlong text and stores nothing', async () => {
    const { videoId, alice } = await scene();
    const before = await videoComments(videoId);
    const rows = async () => (await db.execute(sql`select 1 from comments where user_id = ${alice}`)).rows.length;
    const stored = await rows();
    await expect(publishComment(alice, videoId, '   \n ')).rejects.toMatchObject({
      kind: 'invalid',
      key: 'error.commentEmpty',
    });
    await expect(publishComment(alice, videoId, '长'.repeat(COMMENT_MAX + 1))).rejects.toMatchObject({
      kind: 'invalid',
      key: 'comment.tooLong',
      vars: { max: COMMENT_MAX },
    });
    expect(await rows()).toBe(stored);
    expect(await videoComments(videoId)).toBe(before);
  });

  it('counts characters as code points: 500 emoji fit', async () => {
    const { videoId, alice } = await scene();
    const text = '😀'.repeat(COMMENT_MAX);
    expect((await publishComment(alice, videoId, text)).text).toBe(text);
    await expect(publishComment(alice, videoId, `${text}😀`)).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('stores HTML verbatim', async () => {
    const { videoId, alice } = await scene();
    const html = '<img src=x onerror=alert(1)>';
    const c = await publishComment(alice, videoId, html);
    const { rows } = await db.execute<{ text: string }>(sql`select text from comments where id = ${c.id}`);
    expect(rows[0]!.text).toBe(html);
    expect(c.text).toBe(html);
  });

  it('notifies mentioned users that exist, once each, and no one else; the author @-named counts as a mention', async () => {
    const { videoId, author, alice, bob } = await scene();
    const [authorName, bobName] = [await nickname(author), await nickname(bob)];
    const c = await publishComment(alice, videoId, `@${bobName} @${bobName} @${authorName} @不存在的人xyz 快来看`);
    const expected = [
      { user_id: author, kind: 'mention' },
      { user_id: bob, kind: 'mention' },
    ].sort((x, y) => x.user_id - y.user_id);
    expect(await notesFor(c.id)).toEqual(expected);

    const self = await publishComment(alice, videoId, `@${await nickname(alice)} 自言自语`);
    expect((await notesFor(self.id)).filter((n) => n.user_id === alice)).toEqual([]);
  });

  it('respects a recipient who turned comment notices off but still tells them of a mention', async () => {
    const { videoId, author, alice } = await scene();
    await db.execute(sql`update users set notify_settings = '{"comment": false}' where id = ${author}`);
    try {
      const plain = await publishComment(alice, videoId, '路过');
      expect(await notesFor(plain.id)).toEqual([]);
      const named = await publishComment(alice, videoId, `@${await nickname(author)} 看这里`);
      expect(await notesFor(named.id)).toEqual([{ user_id: author, kind: 'mention' }]);
    } finally {
      await db.execute(sql`update users set notify_settings = '{}' where id = ${author}`);
    }
  });
});

describe('deleteComment', () => {
  it('lets the comment author and the video author delete, nobody else', async () => {
    const { videoId, author, alice, bob } = await scene();
    const mine = await publishComment(alice, videoId, '我的');
    const theirs = await publishComment(alice, videoId, '也是我的');
    const before = await videoComments(videoId);
    await expect(deleteComment(bob, mine.id)).rejects.toMatchObject({
      kind: 'forbidden',
      key: 'error.commentDeleteOthers',
    });
    expect(await videoComments(videoId)).toBe(before);
    expect(await deleteComment(alice, mine.id)).toEqual({ commentCount: before - 1 });
    expect(await deleteComment(author, theirs.id)).toEqual({ commentCount: before - 2 });
    expect(await kindOf(deleteComment(alice, mine.id))).toBe('not_found');
    expect(await kindOf(deleteComment(alice, 2_000_000_000))).toBe('not_found');
  });

  it('deleting a reply lowers the root’s reply count and the video’s count by one', async () => {
    const { videoId, alice, bob } = await scene();
    const root = await publishComment(alice, videoId, '根');
    const reply = await publishComment(bob, videoId, '回复', root.id);
    const before = await videoComments(videoId);
    expect(await deleteComment(bob, reply.id)).toEqual({ commentCount: before - 1 });
    expect(await replyCount(root.id)).toBe(0);
    expect(await notesFor(reply.id)).toEqual([]);
  });

  it('deleting a root takes its live replies along and counts exactly those', async () => {
    const { videoId, author, alice, bob } = await scene();
    const root = await publishComment(alice, videoId, '根');
    const r1 = await publishComment(bob, videoId, '一', root.id);
    await publishComment(author, videoId, '二', root.id);
    await publishComment(bob, videoId, '三', r1.id);
    await deleteComment(bob, r1.id);
    const before = await videoComments(videoId);
    expect(await replyCount(root.id)).toBe(2);
    expect(await deleteComment(alice, root.id)).toEqual({ commentCount: before - 3 });
    const { rows } = await db.execute(
      sql`select 1 from comments where (id = ${root.id} or parent_id = ${root.id}) and deleted_at is null`,
    );
    expect(rows).toEqual([]);
    expect(await kindOf(deleteComment(alice, root.id))).toBe('not_found');
  });

  it('keeps the thread consistent when a reply races the deletion of its root', async () => {
    const { videoId, alice, bob } = await scene();
    const root = await publishComment(alice, videoId, '根');
    await Promise.allSettled([publishComment(bob, videoId, '抢', root.id), deleteComment(alice, root.id)]);
    const { rows } = await db.execute(sql`select 1 from comments where parent_id = ${root.id} and deleted_at is null`);
    expect(rows).toEqual([]);
  });
});

describe('counts stay true', () => {
  it('equal a full recount after a mixed sequence', async () => {
    for (let i = 0; i < 3; i++) {
      const { videoId, author, alice, bob } = await scene();
      const root = await publishComment(alice, videoId, `根${i}`);
      const r = await publishComment(bob, videoId, `回${i}`, root.id);
      await publishComment(author, videoId, `再${i}`, r.id);
      if (i === 0) await deleteComment(author, root.id);
      if (i === 1) await deleteComment(bob, r.id);
    }
    const snapshot = async () => ({
      videos: (await db.execute(sql`select id, comment_count from videos order by id`)).rows,
      comments: (await db.execute(sql`select id, reply_count, digg_count from comments order by id`)).rows,
    });
    const before = await snapshot();
    await recountAll(db);
    expect(await snapshot()).toEqual(before);
  });
});
