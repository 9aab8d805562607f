/**
 * What a moderator hid stays hidden until a moderator shows it again: a removed work cannot be made public or
 * friends-only by its author, nor can a banned member's hidden works; lifting a ban does not undo a removal made
 * during it, nor does restoring a removal show a banned member's work; a removed comment comes back through no door of
 * its author's, and a removed reply does not come back under a thread that was deleted since.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDb, type TestDb } from '../../../tests/setup/test-db.ts';
import { comments, removals, sanctions, users, videos } from '../db/schema.ts';
import { deleteComment, publishComment } from '../services/comment-writes.ts';
import { setCommentLike } from '../services/interactions.ts';
import { editWork } from '../services/studio.ts';
import { removeContent, restoreContent } from './removals.ts';
import { ban, lift } from './sanctions.ts';

let t: TestDb;
let moderator: number;

beforeAll(async () => {
  t = await freshDb();
  const [staff] = await t.db.select({ id: users.id }).from(users).orderBy(users.id).limit(1);
  moderator = staff!.id;
});

afterAll(async () => {
  await t.close();
});

/** A public, published work of a member with at least `atLeast` of them, other than the moderator, and its author. */
async function publicWork(skip: number[] = [], atLeast = 1): Promise<{ id: number; authorId: number }> {
  const { rows } = await t.pool.query<{ id: number; author_id: number }>(
    `select v.id, v.author_id from videos v
      where v.visibility = 'public' and v.status = 'published' and v.deleted_at is null and v.author_id <> $1
        and not (v.author_id = any($2::int[]))
        and (select count(*) from videos w where w.author_id = v.author_id and w.visibility = 'public') >= $3
      order by v.id limit 1`,
    [moderator, skip, atLeast],
  );
  return { id: rows[0]!.id, authorId: rows[0]!.author_id };
}

const visibilityOf = async (id: number) =>
  (await t.db.select({ v: videos.visibility }).from(videos).where(eq(videos.id, id)))[0]!.v;

const used: number[] = [];
async function freshWork(atLeast = 1) {
  const work = await publicWork(used, atLeast);
  used.push(work.authorId);
  return work;
}

describe('a removed work stays removed', () => {
  it('its author cannot make it public or friends-only, with the reason named; private, a title or comments still change', async () => {
    const work = await freshWork();
    await removeContent(moderator, 'video', work.id, '搬运他人作品');
    expect(await visibilityOf(work.id)).toBe('private');
    for (const visibility of ['public', 'friends'] as const) {
      await expect(editWork(work.authorId, { workId: work.id, visibility })).rejects.toMatchObject({
        kind: 'forbidden',
        key: 'error.workRemoved',
        vars: { reason: '搬运他人作品' },
      });
      // Nothing else of the same edit was saved either.
      await expect(editWork(work.authorId, { workId: work.id, visibility, title: '改个标题' })).rejects.toMatchObject({
        key: 'error.workRemoved',
      });
    }
    expect(await visibilityOf(work.id)).toBe('private');
    const edited = await editWork(work.authorId, {
      workId: work.id,
      visibility: 'private',
      title: '新的标题',
      allowComments: false,
    });
    expect(edited).toMatchObject({ title: '新的标题', visibility: 'private', allowComments: false });
  });

  it('once a moderator restores it, it shows again and its author may change it as before', async () => {
    const work = await freshWork();
    await removeContent(moderator, 'video', work.id, '违规');
    await restoreContent(moderator, 'video', work.id);
    expect(await visibilityOf(work.id)).toBe('public');
    await editWork(work.authorId, { workId: work.id, visibility: 'private' });
    expect((await editWork(work.authorId, { workId: work.id, visibility: 'friends' })).visibility).toBe('friends');
  });
});

describe('a ban’s hidden works', () => {
  it('cannot be made public by the banned member, and come back when the ban is lifted', async () => {
    const work = await freshWork();
    await ban(moderator, work.authorId, '诈骗');
    expect(await visibilityOf(work.id)).toBe('private');
    await expect(editWork(work.authorId, { workId: work.id, visibility: 'public' })).rejects.toMatchObject({
      kind: 'forbidden',
      key: 'error.banned',
    });
    expect(await visibilityOf(work.id)).toBe('private');
    await lift(moderator, work.authorId, 'ban');
    expect(await visibilityOf(work.id)).toBe('public');
  });

  it('lifting a ban leaves a work removed during it removed; its restore then shows it as it was before the ban', async () => {
    const work = await freshWork();
    await ban(moderator, work.authorId, '诈骗');
    await removeContent(moderator, 'video', work.id, '违规内容');
    await lift(moderator, work.authorId, 'ban');
    expect(await visibilityOf(work.id)).toBe('private');
    await expect(editWork(work.authorId, { workId: work.id, visibility: 'public' })).rejects.toMatchObject({
      key: 'error.workRemoved',
    });
    await restoreContent(moderator, 'video', work.id);
    expect(await visibilityOf(work.id)).toBe('public');
  });

  it('restoring a removal while its author is banned keeps the work hidden until the ban is lifted', async () => {
    const work = await freshWork();
    await removeContent(moderator, 'video', work.id, '违规内容');
    await ban(moderator, work.authorId, '诈骗');
    await restoreContent(moderator, 'video', work.id);
    expect(await visibilityOf(work.id)).toBe('private');
    await expect(editWork(work.authorId, { workId: work.id, visibility: 'public' })).rejects.toMatchObject({
      key: 'error.banned',
    });
    const [held] = await t.db
      .select({ works: sanctions.hiddenWorks })
      .from(sanctions)
      .where(and(eq(sanctions.userId, work.authorId), isNull(sanctions.liftedAt)));
    expect(held!.works).toContainEqual({ id: work.id, visibility: 'public' });
    await lift(moderator, work.authorId, 'ban');
    expect(await visibilityOf(work.id)).toBe('public');
  });
});

describe('a removed comment', () => {
  async function comment(text: string, replyTo?: number) {
    const work = await publicWork();
    const [author] = await t.db
      .select({ id: users.id })
      .from(users)
      .where(sql`${users.id} not in (${moderator}, ${work.authorId})`)
      .orderBy(sql`${users.id} desc`)
      .limit(1);
    return { ...(await publishComment(author!.id, work.id, text, replyTo)), authorId: author!.id, work };
  }
  const deletedAt = async (id: number) =>
    (await t.db.select({ at: comments.deletedAt }).from(comments).where(eq(comments.id, id)))[0]!.at;

  it('comes back through none of its author’s doors: delete, reply, like', async () => {
    const c = await comment('加我微信领红包');
    await removeContent(moderator, 'comment', c.id, '广告');
    await expect(deleteComment(c.authorId, c.id)).rejects.toMatchObject({ key: 'error.commentNotFound' });
    await expect(publishComment(c.authorId, c.videoId, '我没有违规', c.id)).rejects.toMatchObject({
      key: 'error.commentNotFound',
    });
    await expect(setCommentLike(c.authorId, c.id, true)).rejects.toMatchObject({ kind: 'not_found' });
    expect(await deletedAt(c.id)).not.toBeNull();
    const [removal] = await t.db
      .select({ restoredAt: removals.restoredAt })
      .from(removals)
      .where(and(eq(removals.targetType, 'comment'), eq(removals.targetId, c.id)));
    expect(removal!.restoredAt).toBeNull();
  });

  it('a removed reply is not restored under a thread deleted since, and the counts stay true', async () => {
    const root = await comment('楼主');
    const reply = await comment('回复里的广告', root.id);
    await removeContent(moderator, 'comment', reply.id, '广告');
    await deleteComment(root.authorId, root.id);
    const before = (await t.db.select({ n: videos.commentCount }).from(videos).where(eq(videos.id, root.videoId)))[0]!;
    await expect(restoreContent(moderator, 'comment', reply.id)).rejects.toMatchObject({
      key: 'staff.error.threadGone',
    });
    expect(await deletedAt(reply.id)).not.toBeNull();
    const after = (await t.db.select({ n: videos.commentCount }).from(videos).where(eq(videos.id, root.videoId)))[0]!;
    expect(after.n).toBe(before.n);
  });
});
