/**
 * Mutes and bans. A muted member may not comment, send danmaku, write messages or chat in live rooms until the mute
 * ends; a banned one loses every session, cannot log in, and their works are made private until the ban is lifted.
 * Both are reversible and both tell the member why (the refusal they meet carries the reason).
 */
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { MODERATION_REASON_MAX, MUTE_DAYS, type MuteDays } from '../../shared/staff.ts';
import { db } from '../db/client.ts';
import type { DbOrTx } from '../db/types.ts';
import { removals, sanctions, staffRoles, videos } from '../db/schema.ts';
import { formatNoticeDate } from '../../i18n/t.ts';
import { invalid, notFound, ServiceError } from '../errors.ts';
import { revokeAllSessions } from '../services/sessions.ts';
import { announceWrite } from '../cache/shared-writes.ts';
import { audit } from './audit.ts';

const DAY_MS = 86_400_000;

/** The reason a moderator gives, trimmed and checked. */
export function moderationReason(raw: string): string {
  const reason = raw.trim();
  if (reason === '') throw invalid('staff.error.reasonEmpty');
  if ([...reason].length > MODERATION_REASON_MAX)
    throw invalid('staff.error.reasonTooLong', { max: MODERATION_REASON_MAX });
  return reason;
}

const active = (kind: 'mute' | 'ban') =>
  and(
    eq(sanctions.kind, kind),
    isNull(sanctions.liftedAt),
    or(isNull(sanctions.endsAt), gt(sanctions.endsAt, sql`now()`)),
    sql`${sanctions.startsAt} <= now()`,
  );

export interface SanctionView {
  id: number;
  kind: 'mute' | 'ban';
  reason: string;
  startsAt: Date;
  endsAt: Date | null;
}

/** The member's mute or ban in force, or null (read through `q`, a transaction's own view when given one). */
export async function activeSanction(
  userId: number,
  kind: 'mute' | 'ban',
  q: DbOrTx = db(),
): Promise<SanctionView | null> {
  const [row] = await q
    .select({
      id: sanctions.id,
      kind: sanctions.kind,
      reason: sanctions.reason,
      startsAt: sanctions.startsAt,
      endsAt: sanctions.endsAt,
    })
    .from(sanctions)
    .where(and(eq(sanctions.userId, userId), active(kind)))
    .orderBy(desc(sanctions.id))
    .limit(1);
  return row ?? null;
}

/** Refuses (403, with the end and the reason) a comment, danmaku, message or live chat line of a muted member. */
export async function assertCanSpeak(userId: number): Promise<void> {
  const mute = await activeSanction(userId, 'mute');
  if (mute)
    throw new ServiceError('forbidden', 'error.muted', {
      until: mute.endsAt ? formatNoticeDate(mute.endsAt) : '',
      reason: mute.reason,
    });
}

/** Refuses a login of a banned member (every login opens its session through auth/login.ts `issue`). */
export async function assertNotBanned(userId: number): Promise<void> {
  const ban = await activeSanction(userId, 'ban');
  if (ban) throw new ServiceError('forbidden', 'error.banned', { reason: ban.reason });
}

async function refuseStaffTarget(userId: number): Promise<void> {
  const [held] = await db().select({ role: staffRoles.role }).from(staffRoles).where(eq(staffRoles.userId, userId));
  if (held) throw invalid('staff.error.staffTarget');
}

/** Mutes a member for 1, 7 or 30 days (a mute in force is replaced). */
export async function mute(actorId: number, userId: number, days: MuteDays, rawReason: string): Promise<SanctionView> {
  if (!MUTE_DAYS.includes(days)) throw invalid('error.badRequest');
  const reason = moderationReason(rawReason);
  await refuseStaffTarget(userId);
  return db().transaction(async (tx) => {
    const lifted = await tx
      .update(sanctions)
      .set({ liftedAt: sql`now()`, liftedBy: actorId })
      .where(and(eq(sanctions.userId, userId), active('mute')))
      .returning({ id: sanctions.id, endsAt: sanctions.endsAt });
    const [row] = await tx
      .insert(sanctions)
      .values({
        userId,
        kind: 'mute',
        reason,
        endsAt: sql`now() + ${`${days * DAY_MS} milliseconds`}::interval`,
        createdBy: actorId,
      })
      .returning();
    await audit(tx, {
      actorId,
      action: 'member.mute',
      targetType: 'user',
      targetId: userId,
      before: lifted[0] ? { mute: lifted[0] } : null,
      after: { mute: { id: row!.id, days, endsAt: row!.endsAt, reason } },
    });
    return { id: row!.id, kind: 'mute', reason, startsAt: row!.startsAt, endsAt: row!.endsAt };
  });
}

/** Bans a member: every session ends, logins are refused, and their public and friends-only works become private. */
export async function ban(actorId: number, userId: number, rawReason: string): Promise<SanctionView> {
  const reason = moderationReason(rawReason);
  await refuseStaffTarget(userId);
  const made = await db().transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: sanctions.id })
      .from(sanctions)
      .where(and(eq(sanctions.userId, userId), active('ban')));
    if (existing) throw invalid('staff.error.alreadyBanned');
    const hidden = await tx.execute<{ id: number; visibility: string }>(sql`
      with shown as (
        select id, visibility from ${videos} where author_id = ${userId} and visibility <> 'private' and deleted_at is null for update
      )
      update ${videos} v set visibility = 'private' from shown where v.id = shown.id
      returning v.id, shown.visibility`);
    const works = hidden.rows.map((r) => ({ id: Number(r.id), visibility: r.visibility }));
    const [row] = await tx
      .insert(sanctions)
      .values({ userId, kind: 'ban', reason, hiddenWorks: works, createdBy: actorId })
      .returning();
    await audit(tx, {
      actorId,
      action: 'member.ban',
      targetType: 'user',
      targetId: userId,
      before: null,
      after: { ban: { id: row!.id, reason, hiddenWorks: works.length } },
    });
    return { view: { id: row!.id, kind: 'ban' as const, reason, startsAt: row!.startsAt, endsAt: null }, works };
  });
  await revokeAllSessions(userId);
  announceWrite(made.works.map((w) => w.id));
  return made.view;
}

/**
 * Lifts a mute or ban in force; lifting a ban gives back each hidden work's visibility (unless its author changed it, or
 * a moderator removed the work meanwhile: that removal's restore gives it back).
 */
export async function lift(actorId: number, userId: number, kind: 'mute' | 'ban'): Promise<void> {
  const shown = await db().transaction(async (tx) => {
    const [row] = await tx
      .update(sanctions)
      .set({ liftedAt: sql`now()`, liftedBy: actorId })
      .where(and(eq(sanctions.userId, userId), active(kind)))
      .returning();
    if (!row) throw notFound('staff.error.notSanctioned');
    const ids: number[] = [];
    for (const work of row.hiddenWorks) {
      const visibility = work.visibility as 'public' | 'friends';
      // A work a moderator removed while the ban was in force stays removed: its restore gives this visibility back.
      const removed = await tx
        .update(removals)
        .set({ previous: { visibility } })
        .where(and(eq(removals.targetType, 'video'), eq(removals.targetId, work.id), isNull(removals.restoredAt)))
        .returning({ id: removals.id });
      if (removed.length > 0) continue;
      const back = await tx
        .update(videos)
        .set({ visibility })
        .where(and(eq(videos.id, work.id), eq(videos.visibility, 'private')))
        .returning({ id: videos.id });
      ids.push(...back.map((b) => b.id));
    }
    await audit(tx, {
      actorId,
      action: kind === 'mute' ? 'member.unmute' : 'member.unban',
      targetType: 'user',
      targetId: userId,
      before: { [kind]: { id: row.id, endsAt: row.endsAt, reason: row.reason } },
      after: kind === 'ban' ? { worksShown: ids.length } : null,
    });
    return ids;
  });
  if (shown.length) announceWrite(shown);
}

/** A member's sanctions, newest first (the console's member view). */
export async function sanctionsOf(userId: number) {
  return db()
    .select({
      id: sanctions.id,
      kind: sanctions.kind,
      reason: sanctions.reason,
      startsAt: sanctions.startsAt,
      endsAt: sanctions.endsAt,
      liftedAt: sanctions.liftedAt,
      active: sql<boolean>`${sanctions.liftedAt} is null and (${sanctions.endsAt} is null or ${sanctions.endsAt} > now())`,
    })
    .from(sanctions)
    .where(eq(sanctions.userId, userId))
    .orderBy(desc(sanctions.id))
    .limit(20);
}
