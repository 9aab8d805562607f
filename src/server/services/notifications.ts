/** Notifications (互动消息): written by the other services inside their transactions, read by the recipient. */
import { and, count, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { db } from '../db/client.ts';
import type { DbOrTx } from '../db/recount.ts';
import { follows, notifications, users, videos } from '../db/schema.ts';
import { publish, userTopic } from '../realtime/events.ts';
import { bounds, toPage, type Page, type Paged } from './video-cards.ts';

export type NotificationKind = 'like_video' | 'like_comment' | 'comment' | 'reply' | 'follow' | 'mention' | 'danmaku';

export interface NewNotification {
  userId: number;
  actorId: number;
  kind: NotificationKind;
  videoId?: number;
  commentId?: number;
  text?: string;
}

export interface NotificationView {
  id: number;
  kind: NotificationKind;
  createdAt: Date;
  readAt: Date | null;
  actor: { secUid: string; nickname: string; avatar: string };
  video: { id: number; poster: string } | null;
  /** The comment text the notification is about (comment, reply, mention, liked comment). */
  comment: string | null;
  /** The recipient follows the actor (the 你的关注 tag). */
  actorIsFollowed: boolean;
}

/** Stores a notification unless it is the actor's own action or the recipient turned that kind off; true when stored. */
export async function notify(tx: DbOrTx, n: NewNotification): Promise<boolean> {
  if (n.userId === n.actorId) return false;
  // One statement: the recipient's setting is read by the insert itself; only an explicit false silences a kind.
  const rows = await tx.execute(sql`
    insert into ${notifications} (user_id, actor_id, kind, video_id, comment_id, text)
    select ${n.userId}, ${n.actorId}, ${n.kind}, ${n.videoId ?? null}, ${n.commentId ?? null}, ${n.text ?? null}
    from ${users} u
    where u.id = ${n.userId} and (u.notify_settings -> ${n.kind}) is distinct from 'false'::jsonb
    returning id`);
  if (rows.rows.length === 0) return false;
  // Delivered through LISTEN/NOTIFY only if the surrounding transaction commits: the bell updates live (/api/events).
  await publish(userTopic(n.userId), { type: 'notice', data: null }, tx);
  return true;
}

/** Removes an actor's still-unread notification of one kind about one thing (an undone like or follow). */
export async function retractUnread(
  tx: DbOrTx,
  n: { userId: number; actorId: number; kind: NotificationKind; videoId?: number; commentId?: number },
): Promise<void> {
  await tx
    .delete(notifications)
    .where(
      and(
        eq(notifications.userId, n.userId),
        eq(notifications.actorId, n.actorId),
        eq(notifications.kind, n.kind),
        n.videoId === undefined ? isNull(notifications.videoId) : eq(notifications.videoId, n.videoId),
        n.commentId === undefined ? isNull(notifications.commentId) : eq(notifications.commentId, n.commentId),
        isNull(notifications.readAt),
      ),
    );
}

// Notifications about a video that was deleted since are hidden rather than shown half-empty.
function visibleTo(userId: number, kind?: NotificationKind | 'all'): SQL {
  return and(
    eq(notifications.userId, userId),
    kind && kind !== 'all' ? eq(notifications.kind, kind) : undefined,
    or(isNull(notifications.videoId), isNull(videos.deletedAt)),
  )!;
}

/** A page of a user's notifications, newest first; `unread` counts every unread kind (the badge). */
export async function listNotifications(
  userId: number,
  opts: { kind?: NotificationKind | 'all' } & Page = {},
): Promise<Paged<NotificationView> & { unread: number }> {
  const { offset, limit } = bounds(opts, 20);
  const rows = await db()
    .select({
      id: notifications.id,
      kind: notifications.kind,
      createdAt: notifications.createdAt,
      readAt: notifications.readAt,
      actor: { secUid: users.secUid, nickname: users.nickname, avatar: users.avatar },
      videoId: videos.id,
      poster: videos.poster,
      comment: notifications.text,
      actorIsFollowed: sql<boolean>`exists (select 1 from ${follows} f where f.follower_id = ${userId} and f.followee_id = ${notifications.actorId})`,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.actorId))
    .leftJoin(videos, eq(videos.id, notifications.videoId))
    .where(visibleTo(userId, opts.kind))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit + 1)
    .offset(offset);
  const [unread] = await db()
    .select({ n: count() })
    .from(notifications)
    .leftJoin(videos, eq(videos.id, notifications.videoId))
    .where(and(visibleTo(userId), isNull(notifications.readAt)));
  const items = rows.map(({ videoId, poster, ...r }) => ({
    ...r,
    video: videoId !== null && poster !== null ? { id: videoId, poster } : null,
  }));
  return { ...toPage(items, offset, limit), unread: unread?.n ?? 0 };
}

/** Marks every notification of the user read. */
export async function markAllRead(userId: number): Promise<void> {
  await db()
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}
