/**
 * Removing content (a work, a comment with its replies, a message, a live room) and restoring it: hidden everywhere at
 * once through the same columns every read already honours (deleted_at; a work's visibility; a room's status), the
 * author told why, and everything the removal took along put back exactly by a restore.
 */
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { RemovableTarget } from '../../shared/staff.ts';
import { db, type Db } from '../db/client.ts';
import { comments, liveRooms, messages, notifications, removals, sanctions, videos } from '../db/schema.ts';
import { announceWrite } from '../cache/shared-writes.ts';
import { addVideoStat } from '../services/daily-stats.ts';
import { invalid, notFound } from '../errors.ts';
import { retractAboutComments } from '../services/notifications.ts';
import { publish, userTopic } from '../realtime/events.ts';
import { t } from '../../i18n/t.ts';
import { audit } from './audit.ts';
import { resolveReports } from './reports.ts';
import { activeSanction, moderationReason } from './sanctions.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** A short excerpt of removed text for the author's notice. */
function excerpt(text: string): string {
  const chars = [...text.replace(/\s+/g, ' ').trim()];
  return chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : chars.join('');
}

/** Tells the author (a 系统通知 in 互动消息) that their content was removed or restored, with the reason. */
async function tellAuthor(tx: Tx, authorId: number, text: string): Promise<void> {
  await tx.insert(notifications).values({ userId: authorId, actorId: authorId, kind: 'moderation', text });
  await publish(userTopic(authorId), { type: 'notice', data: null }, tx);
}

interface Hidden {
  authorId: number;
  hiddenIds: number[];
  previous: Record<string, unknown> | null;
  what: string;
  videos: number[];
}

async function hide(tx: Tx, target: RemovableTarget, id: number): Promise<Hidden> {
  switch (target) {
    case 'comment': {
      const [c] = await tx
        .select({
          id: comments.id,
          userId: comments.userId,
          parentId: comments.parentId,
          videoId: comments.videoId,
          text: comments.text,
        })
        .from(comments)
        .where(and(eq(comments.id, id), isNull(comments.deletedAt)));
      if (!c) throw notFound('staff.error.targetGone');
      const rootId = c.parentId ?? c.id;
      await tx.execute(sql`select 1 from ${comments} where id = ${rootId} for no key update`);
      const gone = await tx
        .update(comments)
        .set({ deletedAt: sql`now()` })
        .where(
          and(
            isNull(comments.deletedAt),
            c.parentId === null ? or(eq(comments.id, id), eq(comments.parentId, id)) : eq(comments.id, id),
          ),
        )
        .returning({ id: comments.id, parentId: comments.parentId });
      const replies = gone.filter((g) => g.parentId !== null).length;
      if (replies > 0)
        await tx
          .update(comments)
          .set({ replyCount: sql`${comments.replyCount} - ${replies}` })
          .where(eq(comments.id, rootId));
      await tx
        .update(videos)
        .set({ commentCount: sql`${videos.commentCount} - ${gone.length}` })
        .where(eq(videos.id, c.videoId));
      await addVideoStat(c.videoId, 'comments', -gone.length, tx);
      await retractAboutComments(
        tx,
        gone.filter((g) => g.id !== id).map((g) => g.id),
      );
      await retractAboutComments(tx, [id]);
      return {
        authorId: c.userId,
        hiddenIds: gone.map((g) => g.id),
        previous: { videoId: c.videoId, rootId },
        what: excerpt(c.text),
        videos: [c.videoId],
      };
    }
    case 'video': {
      const [v] = await tx
        .select({ id: videos.id, authorId: videos.authorId, visibility: videos.visibility, desc: videos.desc })
        .from(videos)
        .where(and(eq(videos.id, id), isNull(videos.deletedAt)))
        .for('update');
      if (!v) throw notFound('staff.error.targetGone');
      if (await removedNow(tx, 'video', id)) throw invalid('staff.error.alreadyRemoved');
      await tx.update(videos).set({ visibility: 'private' }).where(eq(videos.id, id));
      return {
        authorId: v.authorId,
        hiddenIds: [id],
        previous: { visibility: v.visibility },
        what: excerpt(v.desc),
        videos: [id],
      };
    }
    case 'message': {
      const [m] = await tx
        .update(messages)
        .set({ deletedAt: sql`now()` })
        .where(and(eq(messages.id, id), isNull(messages.deletedAt)))
        .returning({ senderId: messages.senderId, text: messages.text });
      if (!m) throw notFound('staff.error.targetGone');
      return { authorId: m.senderId, hiddenIds: [id], previous: null, what: excerpt(m.text), videos: [] };
    }
    case 'live': {
      const [r] = await tx.select().from(liveRooms).where(eq(liveRooms.id, id)).for('update');
      if (!r) throw notFound('staff.error.targetGone');
      if (await removedNow(tx, 'live', id)) throw invalid('staff.error.alreadyRemoved');
      await tx.update(liveRooms).set({ status: 'ended' }).where(eq(liveRooms.id, id));
      return {
        authorId: r.hostId,
        hiddenIds: [id],
        previous: { status: r.status },
        what: excerpt(r.title),
        videos: [],
      };
    }
  }
}

async function removedNow(tx: Tx, target: RemovableTarget, id: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: removals.id })
    .from(removals)
    .where(and(eq(removals.targetType, target), eq(removals.targetId, id), isNull(removals.restoredAt)));
  return Boolean(row);
}

/** Removes content, tells its author why, and closes the open reports about it; returns the removal's id. */
export async function removeContent(
  actorId: number,
  target: RemovableTarget,
  id: number,
  rawReason: string,
): Promise<number> {
  const reason = moderationReason(rawReason);
  const { removalId, touched } = await db().transaction(async (tx) => {
    const hidden = await hide(tx, target, id);
    const [row] = await tx
      .insert(removals)
      .values({
        targetType: target,
        targetId: id,
        authorId: hidden.authorId,
        hiddenIds: hidden.hiddenIds,
        previous: hidden.previous,
        reason,
        createdBy: actorId,
      })
      .returning({ id: removals.id });
    await tellAuthor(tx, hidden.authorId, `「${hidden.what}」：${reason}`);
    await resolveReports(tx, actorId, target, id, 'actioned');
    await audit(tx, {
      actorId,
      action: 'content.remove',
      targetType: target,
      targetId: id,
      before: { visible: true, ...(hidden.previous ?? {}) },
      after: { removal: row!.id, hidden: hidden.hiddenIds, reason },
    });
    return { removalId: row!.id, touched: hidden.videos };
  });
  announceWrite(touched);
  return removalId;
}

/** Puts back what a removal hid (what its author deleted since stays deleted) and tells the author. */
export async function restoreContent(actorId: number, target: RemovableTarget, id: number): Promise<void> {
  const touched = await db().transaction(async (tx) => {
    const [r] = await tx
      .select()
      .from(removals)
      .where(and(eq(removals.targetType, target), eq(removals.targetId, id), isNull(removals.restoredAt)))
      .for('update');
    if (!r) throw notFound('staff.error.notRemoved');
    const videoIds: number[] = [];
    if (target === 'comment') {
      const prev = r.previous as { videoId: number; rootId: number };
      if (!r.hiddenIds.includes(prev.rootId)) {
        // A removed reply comes back only under a live thread (the lock order of comment-writes.ts: the root first).
        const root = await tx.execute(
          sql`select id from ${comments} where id = ${prev.rootId} and deleted_at is null for no key update`,
        );
        if (root.rows.length === 0) throw notFound('staff.error.threadGone');
      }
      const back = await tx
        .update(comments)
        .set({ deletedAt: null })
        .where(inArray(comments.id, r.hiddenIds))
        .returning({ id: comments.id, parentId: comments.parentId, videoId: comments.videoId });
      const replies = back.filter((b) => b.parentId !== null).length;
      if (replies > 0)
        await tx
          .update(comments)
          .set({ replyCount: sql`${comments.replyCount} + ${replies}` })
          .where(eq(comments.id, prev.rootId));
      await tx
        .update(videos)
        .set({ commentCount: sql`${videos.commentCount} + ${back.length}` })
        .where(eq(videos.id, prev.videoId));
      await addVideoStat(prev.videoId, 'comments', back.length, tx);
      videoIds.push(prev.videoId);
    } else if (target === 'video') {
      const visibility = (r.previous as { visibility: 'public' | 'friends' | 'private' }).visibility;
      const ban = r.authorId === null ? null : await activeSanction(r.authorId, 'ban', tx);
      if (ban && visibility !== 'private') {
        // Its author is banned: the work stays private with the others the ban hid, and lifting the ban shows it.
        await tx
          .update(sanctions)
          .set({ hiddenWorks: sql`${sanctions.hiddenWorks} || ${JSON.stringify([{ id, visibility }])}::jsonb` })
          .where(
            and(eq(sanctions.id, ban.id), sql`not ${sanctions.hiddenWorks} @> ${JSON.stringify([{ id }])}::jsonb`),
          );
      } else {
        await tx
          .update(videos)
          .set({ visibility })
          .where(and(eq(videos.id, id), eq(videos.visibility, 'private')));
      }
      videoIds.push(id);
    } else if (target === 'message') {
      await tx.update(messages).set({ deletedAt: null }).where(eq(messages.id, id));
    } else {
      const status = (r.previous as { status: 'live' | 'ended' }).status;
      await tx.update(liveRooms).set({ status }).where(eq(liveRooms.id, id));
    }
    await tx
      .update(removals)
      .set({ restoredAt: sql`now()`, restoredBy: actorId })
      .where(eq(removals.id, r.id));
    if (r.authorId !== null) {
      await tx.insert(notifications).values({
        userId: r.authorId,
        actorId: r.authorId,
        kind: 'moderation',
        text: t('notice.action.moderationRestored'),
      });
      await publish(userTopic(r.authorId), { type: 'notice', data: null }, tx);
    }
    await audit(tx, {
      actorId,
      action: 'content.restore',
      targetType: target,
      targetId: id,
      before: { removal: r.id, hidden: r.hiddenIds },
      after: { visible: true },
    });
    return videoIds;
  });
  announceWrite(touched);
}

/** Whether content is removed now (the queue shows it so, and offers a restore). */
export async function isRemoved(target: RemovableTarget, id: number): Promise<boolean> {
  return removedNow(db() as unknown as Tx, target, id);
}
