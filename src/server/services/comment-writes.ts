/** Writing comments: publish a comment or reply (with its notifications) and delete one. */
import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { collapseBlankLines } from '../../shared/blank-lines.ts';
import { COMMENT_MAX, commentLength } from '../../shared/comment-text.ts';
import { db } from '../db/client.ts';
import { claimOnce, type OnceKey } from './idempotency.ts';
import { comments, users, videos } from '../db/schema.ts';
import type { CommentView } from './comments.ts';
import { addVideoStat } from './daily-stats.ts';
import { forbidden, invalid, notFound } from '../errors.ts';
import { enforce } from './rate-limit.ts';
import { visibleWorks } from './visibility.ts';
import { extractMentions, resolveMentions } from './mentions.ts';
import { notify, retractAboutComments, type NotificationKind } from './notifications.ts';
import { userCardColumns } from './user-cards.ts';
import { assertCanSpeak } from '../staff/sanctions.ts';
import { flagWatched } from '../staff/watched-words.ts';

/** Comments and replies one account may publish (every write also counts against write-limits.ts, per address too). */
export const COMMENT_RATE = { limit: 30, windowMs: 60_000 };

// Lock order shared by publish and delete: the thread's root comment, then its replies, then the video.
// Holding the root while replying means a concurrent delete of the thread either sees the new reply or
// makes the reply fail, never leaves a live reply under a deleted root.

/**
 * The text as stored (blank lines collapsed, trimmed), or invalid when empty or longer than COMMENT_MAX code points.
 * Otherwise stored as given: rendering escapes.
 */
function checkText(text: string): string {
  const trimmed = collapseBlankLines(text).trim();
  if (trimmed === '') throw invalid('error.commentEmpty');
  if (commentLength(trimmed) > COMMENT_MAX) throw invalid('comment.tooLong', { max: COMMENT_MAX });
  return trimmed;
}

/** Publishes a comment on a video, or a reply to one of its comments; returns it as the readers see it. */
export async function publishComment(
  userId: number,
  videoId: number,
  text: string,
  replyToCommentId?: number,
  once?: OnceKey,
): Promise<CommentView> {
  const body = checkText(text);
  await assertCanSpeak(userId);
  await enforce(`comment:${userId}`, COMMENT_RATE.limit, COMMENT_RATE.windowMs);
  const published = await db().transaction(async (tx) => {
    const [video] = await tx
      .select({ authorId: videos.authorId, allowComments: videos.allowComments })
      .from(videos)
      .where(and(eq(videos.id, videoId), visibleWorks(userId)));
    if (!video) throw notFound('error.videoNotFound');
    if (!video.allowComments) throw forbidden('error.commentsClosed');

    let parentId: number | null = null;
    let repliedAuthor: number | null = null;
    if (replyToCommentId !== undefined) {
      const [replied] = await tx
        .select({ id: comments.id, parentId: comments.parentId, userId: comments.userId })
        .from(comments)
        .where(and(eq(comments.id, replyToCommentId), eq(comments.videoId, videoId), isNull(comments.deletedAt)));
      if (!replied) throw notFound('error.commentNotFound');
      parentId = replied.parentId ?? replied.id;
      repliedAuthor = replied.userId;
      const [root] = await tx
        .update(comments)
        .set({ replyCount: sql`${comments.replyCount} + 1` })
        .where(and(eq(comments.id, parentId), isNull(comments.deletedAt)))
        .returning({ id: comments.id });
      if (!root) throw notFound('error.commentNotFound');
    }

    const [row] = await tx
      .insert(comments)
      .values({ videoId, userId, parentId, replyToUserId: repliedAuthor, text: body })
      .returning({ id: comments.id, createdAt: comments.createdAt });
    if (row) await claimOnce(tx, once, row.id);
    const [bumped] = await tx
      .update(videos)
      .set({ commentCount: sql`${videos.commentCount} + 1` })
      .where(and(eq(videos.id, videoId), isNull(videos.deletedAt)))
      .returning({ id: videos.id });
    if (!row || !bumped) throw notFound('error.videoNotFound');
    await addVideoStat(videoId, 'comments', 1, tx);

    // One notification per user per comment: a mention outranks the comment or reply notice of the same user, so
    // @-naming the author (or the one replied to) lands under their @我的 as well as in 全部消息.
    const told = new Set<number>([userId]);
    const tell = async (recipient: number, kind: NotificationKind) => {
      if (told.has(recipient)) return;
      if (await notify(tx, { userId: recipient, actorId: userId, kind, videoId, commentId: row.id, text: body }))
        told.add(recipient);
    };
    for (const m of await resolveMentions(extractMentions(body), tx)) await tell(m.id, 'mention');
    if (repliedAuthor !== null) await tell(repliedAuthor, 'reply');
    else await tell(video.authorId, 'comment');

    const people = await tx
      .select(userCardColumns)
      .from(users)
      .where(inArray(users.id, repliedAuthor === null ? [userId] : [userId, repliedAuthor]));
    const me = people.find((p) => p.id === userId);
    const to = people.find((p) => p.id === repliedAuthor);
    if (!me) throw notFound('error.userNotFound');
    // Built here rather than re-read: comments.ts has no read by id, and the typed CommentView keeps the shape identical.
    return {
      id: row.id,
      videoId,
      parentId,
      text: body,
      diggCount: 0,
      replyCount: 0,
      createdAt: row.createdAt,
      user: me,
      replyTo: to ? { secUid: to.secUid, nickname: to.nickname } : null,
      authorLiked: false,
      isAuthor: userId === video.authorId,
    };
  });
  await flagWatched('comment', published.id, body);
  return published;
}

/** Soft-deletes a comment (a root takes its replies along); its author or the video's author may. */
export async function deleteComment(userId: number, commentId: number): Promise<{ commentCount: number }> {
  return db().transaction(async (tx) => {
    const [target] = await tx
      .select({
        id: comments.id,
        userId: comments.userId,
        parentId: comments.parentId,
        videoId: comments.videoId,
        videoAuthor: videos.authorId,
      })
      .from(comments)
      .innerJoin(videos, eq(videos.id, comments.videoId))
      .where(and(eq(comments.id, commentId), isNull(comments.deletedAt)));
    if (!target) throw notFound('error.commentNotFound');
    if (userId !== target.userId && userId !== target.videoAuthor) throw forbidden('error.commentDeleteOthers');

    const rootId = target.parentId ?? target.id;
    await tx.execute(sql`select 1 from ${comments} where id = ${rootId} for no key update`);
    // A new statement after the lock: it sees every reply committed before we got the root.
    const gone = await tx
      .update(comments)
      .set({ deletedAt: sql`now()` })
      .where(
        and(
          isNull(comments.deletedAt),
          target.parentId === null
            ? or(eq(comments.id, commentId), eq(comments.parentId, commentId))
            : eq(comments.id, commentId),
        ),
      )
      .returning({ id: comments.id, parentId: comments.parentId });
    if (!gone.some((c) => c.id === commentId)) throw notFound('error.commentNotFound');

    const replies = gone.filter((c) => c.parentId !== null).length;
    if (replies > 0) {
      await tx
        .update(comments)
        .set({ replyCount: sql`${comments.replyCount} - ${replies}` })
        .where(eq(comments.id, rootId));
    }
    const [video] = await tx
      .update(videos)
      .set({ commentCount: sql`${videos.commentCount} - ${gone.length}` })
      .where(eq(videos.id, target.videoId))
      .returning({ commentCount: videos.commentCount });
    await addVideoStat(target.videoId, 'comments', -gone.length, tx);
    await retractAboutComments(
      tx,
      gone.map((c) => c.id),
    );
    return { commentCount: video?.commentCount ?? 0 };
  });
}
