/**
 * The moderators' queue: open reports grouped by what they are about (a member's 举报 and the watched words' flags
 * alike), each target shown in its context, and the reports closed by the action taken on it.
 */
import { and, asc, desc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { ModerationTarget, ReportState } from '../../shared/staff.ts';
import { db, type Db } from '../db/client.ts';
import { comments, conversations, liveRooms, messages, reports, users, videos } from '../db/schema.ts';
import { mediaUrl } from '../media-url.ts';
import { notFound } from '../errors.ts';
import { audit } from './audit.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Groups of reports one queue page shows. */
export const QUEUE_PAGE = 50;

export interface QueueGroup {
  targetType: ModerationTarget;
  targetId: number;
  count: number;
  reasons: string[];
  words: string[];
  lastAt: Date;
  preview: string | null;
}

/** Open (or closed) reports grouped by target, the most recently reported first. */
export async function reportQueue(state: 'open' | 'closed' = 'open'): Promise<QueueGroup[]> {
  const where = state === 'open' ? sql`r.status = 'open'` : sql`r.status <> 'open'`;
  const { rows } = await db().execute<{
    target_type: ModerationTarget;
    target_id: number;
    n: number;
    reasons: string[];
    words: string[];
    last_at: string;
    preview: string | null;
  }>(sql`
    select r.target_type, r.target_id, count(*)::int as n,
           array_agg(distinct r.reason) as reasons,
           array_remove(array_agg(distinct r.detail), null) as words,
           max(r.created_at) as last_at,
           case r.target_type
             when 'comment' then (select text from comments where id = r.target_id)
             when 'video' then (select "desc" from videos where id = r.target_id)
             when 'message' then (select text from messages where id = r.target_id)
             when 'user' then (select nickname from users where id = r.target_id)
             when 'live' then (select title from live_rooms where id = r.target_id)
             else null end as preview
    from ${reports} r where ${where}
    group by r.target_type, r.target_id
    order by max(r.created_at) desc
    limit ${QUEUE_PAGE}`);
  return rows.map((r) => ({
    targetType: r.target_type,
    targetId: Number(r.target_id),
    count: Number(r.n),
    reasons: r.reasons,
    words: r.words,
    lastAt: new Date(r.last_at),
    preview: r.preview,
  }));
}

/** How many targets wait in the queue. */
export async function openTargets(): Promise<number> {
  const { rows } = await db().execute<{ n: number }>(
    sql`select count(distinct (target_type, target_id))::int as n from ${reports} where status = 'open'`,
  );
  return Number(rows[0]?.n ?? 0);
}

export interface ReportRow {
  id: number;
  reporter: { id: number; nickname: string; secUid: string } | null;
  reason: string;
  source: string;
  detail: string | null;
  status: ReportState;
  createdAt: Date;
}

/** Every report of one target, newest first. */
export async function reportsAbout(targetType: ModerationTarget, targetId: number): Promise<ReportRow[]> {
  const rows = await db()
    .select({
      id: reports.id,
      reporterId: users.id,
      nickname: users.nickname,
      secUid: users.secUid,
      reason: reports.reason,
      source: reports.source,
      detail: reports.detail,
      status: reports.status,
      createdAt: reports.createdAt,
    })
    .from(reports)
    .leftJoin(users, eq(users.id, reports.reporterId))
    .where(and(eq(reports.targetType, targetType), eq(reports.targetId, targetId)))
    .orderBy(desc(reports.id))
    .limit(100);
  return rows.map(({ reporterId, nickname, secUid, ...r }) => ({
    ...r,
    reporter: reporterId !== null && nickname !== null && secUid !== null ? { id: reporterId, nickname, secUid } : null,
  }));
}

/** Closes the open reports of a target (inside the action's transaction; the action's audit row covers it). */
export async function resolveReports(
  tx: Tx,
  actorId: number,
  targetType: ModerationTarget,
  targetId: number,
  status: 'dismissed' | 'actioned',
): Promise<number> {
  const closed = await tx
    .update(reports)
    .set({ status, resolvedBy: actorId, resolvedAt: sql`now()` })
    .where(and(eq(reports.targetType, targetType), eq(reports.targetId, targetId), eq(reports.status, 'open')))
    .returning({ id: reports.id });
  return closed.length;
}

/** Dismisses every open report of a target. */
export async function dismissReports(actorId: number, targetType: ModerationTarget, targetId: number): Promise<number> {
  return db().transaction(async (tx) => {
    const n = await resolveReports(tx, actorId, targetType, targetId, 'dismissed');
    if (n === 0) throw notFound('staff.error.reportNotFound');
    await audit(tx, {
      actorId,
      action: 'report.dismiss',
      targetType,
      targetId,
      before: { open: n },
      after: { status: 'dismissed' },
    });
    return n;
  });
}

interface Person {
  id: number;
  nickname: string;
  secUid: string;
  avatar: string;
}
const person = { id: users.id, nickname: users.nickname, secUid: users.secUid, avatar: users.avatar };

/** A comment as the queue shows it. */
export interface ContextComment {
  id: number;
  text: string;
  author: Person;
  createdAt: Date;
  removed: boolean;
  parentId: number | null;
}

/** A message as the queue shows it. */
export interface ContextMessage {
  id: number;
  text: string;
  senderId: number;
  createdAt: Date;
  removed: boolean;
}

export type TargetContext =
  | { kind: 'gone' }
  | { kind: 'user'; user: Person & { signature: string; awemeCount: number } }
  | { kind: 'video'; video: VideoContext }
  | { kind: 'comment'; video: VideoContext; comment: ContextComment; thread: ContextComment[] }
  | { kind: 'message'; parties: Person[]; around: ContextMessage[]; messageId: number | null }
  | { kind: 'live'; room: { id: number; title: string; status: string; cover: string; media: string; host: Person } };

export interface VideoContext {
  id: number;
  desc: string;
  media: string;
  poster: string;
  author: Person;
  visibility: string;
  removed: boolean;
}

/** Messages around a reported one (each side). */
const AROUND = 5;

async function videoContext(id: number): Promise<VideoContext | null> {
  const [v] = await db()
    .select({
      id: videos.id,
      desc: videos.desc,
      media: videos.media,
      poster: videos.poster,
      visibility: videos.visibility,
      deletedAt: videos.deletedAt,
      author: person,
    })
    .from(videos)
    .innerJoin(users, eq(users.id, videos.authorId))
    .where(eq(videos.id, id));
  if (!v) return null;
  const removed =
    (
      await db().execute(
        sql`select 1 from removals where target_type = 'video' and target_id = ${id} and restored_at is null`,
      )
    ).rows.length > 0;
  return {
    id: v.id,
    desc: v.desc,
    media: mediaUrl(v.media),
    poster: mediaUrl(v.poster),
    visibility: v.visibility,
    author: v.author,
    removed: removed || v.deletedAt !== null,
  };
}

const commentColumns = {
  id: comments.id,
  text: comments.text,
  createdAt: comments.createdAt,
  deletedAt: comments.deletedAt,
  parentId: comments.parentId,
  author: person,
};

/** The target of a report in its context: the work playing, the comment in its thread, the message among its neighbours. */
export async function targetContext(targetType: ModerationTarget, targetId: number): Promise<TargetContext> {
  switch (targetType) {
    case 'user': {
      const [u] = await db()
        .select({ ...person, signature: users.signature, awemeCount: users.awemeCount })
        .from(users)
        .where(eq(users.id, targetId));
      return u ? { kind: 'user', user: u } : { kind: 'gone' };
    }
    case 'video': {
      const video = await videoContext(targetId);
      return video ? { kind: 'video', video } : { kind: 'gone' };
    }
    case 'comment': {
      const [c] = await db()
        .select({ ...commentColumns, videoId: comments.videoId })
        .from(comments)
        .innerJoin(users, eq(users.id, comments.userId))
        .where(eq(comments.id, targetId));
      if (!c) return { kind: 'gone' };
      const video = await videoContext(c.videoId);
      if (!video) return { kind: 'gone' };
      const rootId = c.parentId ?? c.id;
      const thread = await db()
        .select(commentColumns)
        .from(comments)
        .innerJoin(users, eq(users.id, comments.userId))
        .where(sql`${comments.id} = ${rootId} or ${comments.parentId} = ${rootId}`)
        .orderBy(asc(comments.createdAt), asc(comments.id))
        .limit(30);
      const view = ({ deletedAt, ...r }: typeof c | (typeof thread)[number]): ContextComment => ({
        id: r.id,
        text: r.text,
        author: r.author,
        createdAt: r.createdAt,
        parentId: r.parentId,
        removed: deletedAt !== null,
      });
      return { kind: 'comment', video, comment: view(c), thread: thread.map(view) };
    }
    case 'message':
    case 'conversation': {
      const [m] =
        targetType === 'message'
          ? await db()
              .select({ id: messages.id, conversationId: messages.conversationId, createdAt: messages.createdAt })
              .from(messages)
              .where(eq(messages.id, targetId))
          : [];
      const conversationId = targetType === 'message' ? m?.conversationId : targetId;
      if (conversationId === undefined) return { kind: 'gone' };
      const [conv] = await db().select().from(conversations).where(eq(conversations.id, conversationId));
      if (!conv) return { kind: 'gone' };
      const parties = await db()
        .select(person)
        .from(users)
        .where(inArray(users.id, [conv.userA, conv.userB]));
      const pick = {
        id: messages.id,
        text: messages.text,
        senderId: messages.senderId,
        createdAt: messages.createdAt,
        deletedAt: messages.deletedAt,
      };
      const inConversation = eq(messages.conversationId, conversationId);
      // Only the reported conversation, and only a few messages each side of the reported one.
      const rows = m
        ? [
            ...(
              await db()
                .select(pick)
                .from(messages)
                .where(and(inConversation, lt(messages.id, m.id)))
                .orderBy(desc(messages.id))
                .limit(AROUND)
            ).reverse(),
            ...(await db()
              .select(pick)
              .from(messages)
              .where(and(inConversation, eq(messages.id, m.id)))),
            ...(await db()
              .select(pick)
              .from(messages)
              .where(and(inConversation, gt(messages.id, m.id)))
              .orderBy(asc(messages.id))
              .limit(AROUND)),
          ]
        : (
            await db()
              .select(pick)
              .from(messages)
              .where(inConversation)
              .orderBy(desc(messages.id))
              .limit(AROUND * 2)
          ).reverse();
      return {
        kind: 'message',
        parties,
        messageId: m?.id ?? null,
        around: rows.map(({ deletedAt, ...r }) => ({ ...r, removed: deletedAt !== null })),
      };
    }
    case 'live': {
      const [r] = await db()
        .select({
          id: liveRooms.id,
          title: liveRooms.title,
          status: liveRooms.status,
          cover: liveRooms.cover,
          media: liveRooms.media,
          host: person,
        })
        .from(liveRooms)
        .innerJoin(users, eq(users.id, liveRooms.hostId))
        .where(eq(liveRooms.id, targetId));
      return r
        ? { kind: 'live', room: { ...r, cover: mediaUrl(r.cover), media: mediaUrl(r.media) } }
        : { kind: 'gone' };
    }
  }
}

/** The author of a target (whom a mute or ban is for), or null. */
export async function authorOf(targetType: ModerationTarget, targetId: number): Promise<number | null> {
  const q = {
    user: sql`select id as author from users where id = ${targetId}`,
    video: sql`select author_id as author from videos where id = ${targetId}`,
    comment: sql`select user_id as author from comments where id = ${targetId}`,
    message: sql`select sender_id as author from messages where id = ${targetId}`,
    live: sql`select host_id as author from live_rooms where id = ${targetId}`,
    conversation: sql`select null::int as author`,
  }[targetType];
  const { rows } = await db().execute<{ author: number | null }>(q);
  return rows[0]?.author ?? null;
}
