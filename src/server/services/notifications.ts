/** Notifications (互动消息): written by the other services inside their transactions, read by the recipient. */
import { and, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { db } from '../db/client.ts';
import type { DbOrTx } from '../db/types.ts';
import { follows, notifications, users, videos } from '../db/schema.ts';
import { notBlockedBy } from './blocks.ts';
import { notMutedText, notMutedWork } from './mutes.ts';
import { publish, userTopic } from '../realtime/events.ts';
import { NOTICE_GROUPS, type NoticeGroup, type NoticeKind } from '../../shared/messaging.ts';
import { visibleWorks } from './visibility.ts';

export type NotificationKind = NoticeKind;

/** Default and largest page of the notification list. */
export const NOTICE_PAGE = 20;
const NOTICE_PAGE_MAX = 50;

export interface NewNotification {
  userId: number;
  actorId: number;
  kind: NotificationKind;
  videoId?: number;
  commentId?: number;
  text?: string;
}

/** What one notification is about: recipient, actor, kind and target. At most one row exists per target. */
export type NoticeTarget = Omit<NewNotification, 'text'>;

export interface NotificationView {
  id: number;
  kind: NotificationKind;
  createdAt: Date;
  readAt: Date | null;
  actor: { id: number; secUid: string; nickname: string; avatar: string };
  video: { id: number; poster: string } | null;
  /** The text the notification is about: the comment, reply, mention or danmaku, or the liked comment. */
  comment: string | null;
  /** The broadcast of a 开播了 notification. */
  roomId: number | null;
  /** The recipient follows the actor (the 你的关注 tag). */
  actorIsFollowed: boolean;
  /** The actor follows the recipient. */
  followsMe: boolean;
  /** The data export an export_ready notification announces. */
  exportId: number | null;
}

export interface NoticePage {
  items: NotificationView[];
  /** Pass back to get the next page; 0 when there is none. */
  cursor: number;
  hasMore: boolean;
  /** Every unread notification of the user, whatever the group (the badge). */
  unread: number;
}

function sameTarget(n: NoticeTarget): SQL {
  return and(
    eq(notifications.userId, n.userId),
    eq(notifications.actorId, n.actorId),
    eq(notifications.kind, n.kind),
    n.videoId === undefined ? isNull(notifications.videoId) : eq(notifications.videoId, n.videoId),
    n.commentId === undefined ? isNull(notifications.commentId) : eq(notifications.commentId, n.commentId),
  )!;
}

/** Tells the user's open pages that their unread count changed; delivered only if the transaction commits. */
async function announce(tx: DbOrTx, userIds: Iterable<number>): Promise<void> {
  for (const id of new Set(userIds)) await publish(userTopic(id), { type: 'notice', data: null }, tx);
}

/**
 * Stores a notification unless it is the actor's own action or the recipient turned that kind off; true when stored.
 * A repeat about the same target (like, unlike, like again; a second danmaku) replaces the earlier row, so the
 * recipient sees one unread notification with the latest time.
 */
export async function notify(tx: DbOrTx, n: NewNotification): Promise<boolean> {
  if (n.userId === n.actorId) return false;
  // Two transactions repeating the same target would each see no earlier row and both insert; this serialises them.
  // Its own statement, so the delete below reads a snapshot taken after the other transaction committed.
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`notice:${n.userId}:${n.actorId}:${n.kind}:${n.videoId ?? ''}:${n.commentId ?? ''}`}, 0))`,
  );
  // The recipient's setting is read by the same statement; only an explicit false silences a kind, and a silenced
  // kind leaves any earlier row alone.
  const rows = await tx.execute(sql`
    with allowed as (
      select 1 from ${users} u where u.id = ${n.userId} and (u.notify_settings -> ${n.kind}) is distinct from 'false'::jsonb
    ), replaced as (
      delete from ${notifications} where ${sameTarget(n)} and exists (select 1 from allowed)
    )
    insert into ${notifications} (user_id, actor_id, kind, video_id, comment_id, text)
    select ${n.userId}, ${n.actorId}, ${n.kind}, ${n.videoId ?? null}, ${n.commentId ?? null}, ${n.text ?? null}
    from allowed
    returning id`);
  if (rows.rows.length === 0) return false;
  await announce(tx, [n.userId]);
  return true;
}

/** Tells a member that their data export is ready (its own notice: the member is both actor and recipient). */
export async function notifyExportReady(tx: DbOrTx, userId: number, exportId: number): Promise<void> {
  await tx.insert(notifications).values({ userId, actorId: userId, kind: 'export_ready', exportId });
  await announce(tx, [userId]);
}

/** Removes the notification of an undone action (unlike, unfollow), read or not. */
export async function retract(tx: DbOrTx, n: NoticeTarget): Promise<void> {
  const gone = await tx.delete(notifications).where(sameTarget(n)).returning({ userId: notifications.userId });
  if (gone.length > 0) await announce(tx, [n.userId]);
}

/** Removes every notification about deleted comments (comment, reply, mention, liked comment): they would point at nothing. */
export async function retractAboutComments(tx: DbOrTx, commentIds: number[]): Promise<void> {
  if (commentIds.length === 0) return;
  const gone = await tx
    .delete(notifications)
    .where(inArray(notifications.commentId, commentIds))
    .returning({ userId: notifications.userId });
  await announce(
    tx,
    gone.map((g) => g.userId),
  );
}

// Notifications about a video the recipient may not see (deleted since, made private, friends-only to a non-friend)
// are hidden rather than shown half-empty or pointing at a work they may not open.
function visibleTo(userId: number, group: NoticeGroup = 'all'): SQL {
  return and(
    eq(notifications.userId, userId),
    group === 'all' ? undefined : inArray(notifications.kind, [...NOTICE_GROUPS[group]]),
    or(isNull(notifications.videoId), visibleWorks(userId)),
    // Someone the recipient blocked is not heard from, here as in comments and danmaku.
    notBlockedBy(userId, notifications.actorId),
    // Nor someone they muted, words they muted, or a work their mutes hide from every feed.
    notMutedText(userId, sql`${notifications.actorId}`, sql`${notifications.text}`),
    or(isNull(notifications.videoId), eq(videos.authorId, userId), notMutedWork(userId)),
  )!;
}

/** The badge's ceiling: it shows 99+ past 99, so counting stops at 100 (notifications_unread_idx holds only unread rows). */
export const UNREAD_COUNT_MAX = 100;

/** The number of unread notifications the badge shows, at most UNREAD_COUNT_MAX. */
export async function unreadCount(userId: number): Promise<number> {
  const unread = db()
    .select({ one: sql`1` })
    .from(notifications)
    .leftJoin(videos, eq(videos.id, notifications.videoId))
    .where(and(visibleTo(userId), isNull(notifications.readAt)))
    .limit(UNREAD_COUNT_MAX)
    .as('unread');
  const [row] = await db().select({ n: count() }).from(unread);
  return row?.n ?? 0;
}

// created_at in microseconds: a Date keeps only milliseconds, and the cursor must name a row's time exactly.
const micros = sql<string>`(extract(epoch from ${notifications.createdAt}) * 1000000)::bigint`;

function page(userId: number, group: NoticeGroup, where: SQL | undefined, limit?: number) {
  const q = db()
    .select({
      id: notifications.id,
      kind: notifications.kind,
      createdAt: notifications.createdAt,
      micros,
      readAt: notifications.readAt,
      actor: { id: users.id, secUid: users.secUid, nickname: users.nickname, avatar: users.avatar },
      videoId: videos.id,
      poster: videos.poster,
      comment: notifications.text,
      exportId: notifications.exportId,
      roomId: notifications.roomId,
      actorIsFollowed: sql<boolean>`exists (select 1 from ${follows} f where f.follower_id = ${userId} and f.followee_id = ${notifications.actorId})`,
      followsMe: sql<boolean>`exists (select 1 from ${follows} f where f.follower_id = ${notifications.actorId} and f.followee_id = ${userId})`,
    })
    .from(notifications)
    .innerJoin(users, eq(users.id, notifications.actorId))
    .leftJoin(videos, eq(videos.id, notifications.videoId))
    .where(and(visibleTo(userId, group), where))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .$dynamic();
  return limit === undefined ? q : q.limit(limit);
}

/**
 * A page of a user's notifications of one group (NOTICE_GROUPS), newest first (created_at, then id).
 * The cursor is the time of the last row in microseconds and a page never ends inside a run of equal times, so
 * rows written or removed between pages neither repeat nor leave gaps.
 */
export async function listNotifications(
  userId: number,
  opts: { group?: NoticeGroup; cursor?: number; count?: number } = {},
): Promise<NoticePage> {
  const group = opts.group ?? 'all';
  const limit = Math.min(Math.max(Math.trunc(opts.count ?? NOTICE_PAGE), 1), NOTICE_PAGE_MAX);
  const before = opts.cursor
    ? sql`${notifications.createdAt} < 'epoch'::timestamptz + ${opts.cursor}::bigint * interval '1 microsecond'`
    : undefined;
  const [rows, unread] = await Promise.all([page(userId, group, before, limit + 1), unreadCount(userId)]);
  let items = rows.slice(0, limit);
  let hasMore = rows.length > limit;
  const last = items[items.length - 1];
  if (hasMore && last && rows[limit]!.micros === last.micros) {
    // The next row shares the last one's time: take the whole run so the next page can start strictly before it.
    const same = sql`${micros} = ${last.micros}::bigint and ${notifications.id} < ${last.id}`;
    const older = sql`${notifications.createdAt} < 'epoch'::timestamptz + ${last.micros}::bigint * interval '1 microsecond'`;
    const [run, next] = await Promise.all([page(userId, group, same), page(userId, group, older, 1)]);
    items = [...items, ...run];
    hasMore = next.length > 0;
  }
  const views = items.map(({ videoId, poster, micros: _, ...r }) => ({
    ...r,
    video: videoId !== null && poster !== null ? { id: videoId, poster } : null,
  }));
  const end = items[items.length - 1];
  return { items: views, cursor: hasMore && end ? Number(end.micros) : 0, hasMore, unread };
}

/** Marks every notification of the user read; every open page of theirs hears the count drop. */
export async function markAllRead(userId: number): Promise<void> {
  await db().transaction(async (tx) => {
    const changed = await tx
      .update(notifications)
      .set({ readAt: sql`now()` })
      .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
      .returning({ id: notifications.id });
    if (changed.length > 0) await announce(tx, [userId]);
  });
}
