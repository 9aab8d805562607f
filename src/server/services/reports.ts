/**
 * Reports (举报) of a user, a work, a comment, a direct message, a conversation or a live room, stored for the
 * moderators' queue; with `block`, the reporter also blocks the one behind it (同时拉黑) in the same call: the user,
 * the work's author, the comment's writer, the other side of the chat, or the room's host.
 */
import { sql } from 'drizzle-orm';
import { REPORT_REASONS, REPORT_TARGETS, type ReportReason, type ReportTarget } from '../../shared/messaging.ts';
import type { MessageKey } from '../../i18n/zh-CN.ts';
import { db } from '../db/client.ts';
import { reports } from '../db/schema.ts';
import { setBlock } from './blocks.ts';
import { invalid, notFound } from '../errors.ts';
import { enforce } from './rate-limit.ts';
import { visibleWorks } from './visibility.ts';

/** Reports one user may file per day. */
export const REPORT_DAILY = { limit: 20, windowMs: 86_400_000 };

const NOT_FOUND: Record<ReportTarget, MessageKey> = {
  user: 'error.userNotFound',
  video: 'error.videoNotFound',
  comment: 'error.commentNotFound',
  message: 'error.messageNotFound',
  conversation: 'error.conversationNotFound',
  live: 'error.liveRoomNotFound',
};

/**
 * The user behind what is reported, as the reporter may see it, or null when it is unknown or hidden from them: a
 * work or comment on a work they may see, a message or chat they take part in, a live room's host.
 */
async function personBehind(reporterId: number, target: ReportTarget, targetId: number): Promise<number | null> {
  const peer = (conversation: ReturnType<typeof sql>) =>
    sql`(select case when c.user_a = ${reporterId} then c.user_b else c.user_a end from conversations c
          where c.id = ${conversation} and ${reporterId} in (c.user_a, c.user_b))`;
  const query = {
    user: sql`select id as person from users where id = ${targetId}`,
    video: sql`select author_id as person from videos where id = ${targetId} and ${visibleWorks(reporterId)}`,
    comment: sql`select cm.user_id as person from comments cm join videos on videos.id = cm.video_id
                  where cm.id = ${targetId} and cm.deleted_at is null and ${visibleWorks(reporterId)}`,
    message: sql`select ${peer(sql`m.conversation_id`)} as person from messages m where m.id = ${targetId}`,
    conversation: sql`select ${peer(sql`${targetId}`)} as person`,
    live: sql`select host_id as person from live_rooms where id = ${targetId}`,
  }[target];
  const { rows } = await db().execute<{ person: number | null }>(query);
  const person = rows[0]?.person;
  return person === null || person === undefined ? null : Number(person);
}

/** Stores a report, and with `block` blocks the person behind it; 404 for what the reporter cannot see. */
export async function fileReport(
  reporterId: number,
  target: ReportTarget,
  targetId: number,
  reason: ReportReason,
  options: { block?: boolean } = {},
): Promise<{ id: number; blockedId: number | null }> {
  if (!REPORT_TARGETS.includes(target) || !REPORT_REASONS.includes(reason)) throw invalid('error.reportType');
  if (target === 'user' && targetId === reporterId) throw invalid('error.reportSelf');
  await enforce(`report:${reporterId}`, REPORT_DAILY.limit, REPORT_DAILY.windowMs);
  const person = await personBehind(reporterId, target, targetId);
  if (person === null) throw notFound(NOT_FOUND[target]);
  // One's own work or comment can be reported (a moderator decides), but never blocked.
  const blockedId = options.block && person !== reporterId ? person : null;
  const [row] = await db()
    .insert(reports)
    .values({ reporterId, targetType: target, targetId, reason })
    .returning({ id: reports.id });
  if (blockedId !== null) await setBlock(reporterId, blockedId, true);
  return { id: row!.id, blockedId };
}
