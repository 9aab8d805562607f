/** Reports (举报) of a user, a direct message, a conversation, a work, a comment or a live room, for moderators to review. */
import { sql } from 'drizzle-orm';
import { REPORT_REASONS, REPORT_TARGETS, type ReportReason, type ReportTarget } from '../../shared/messaging.ts';
import { db } from '../db/client.ts';
import { reports } from '../db/schema.ts';
import { invalid, notFound } from './errors.ts';
import { enforce } from './rate-limit.ts';
import { visibleWorks } from './visibility.ts';

/** Reports one user may file per day. */
export const REPORT_DAILY = { limit: 20, windowMs: 86_400_000 };

/** Stores a report; a message or conversation may be reported only by one of its participants (404 otherwise). */
export async function fileReport(
  reporterId: number,
  target: ReportTarget,
  targetId: number,
  reason: ReportReason,
): Promise<{ id: number }> {
  if (!REPORT_TARGETS.includes(target) || !REPORT_REASONS.includes(reason)) throw invalid('error.reportType');
  if (target === 'user' && targetId === reporterId) throw invalid('error.reportSelf');
  await enforce(`report:${reporterId}`, REPORT_DAILY.limit, REPORT_DAILY.windowMs);
  const participant = (conversation: ReturnType<typeof sql>) =>
    sql`exists (select 1 from conversations c where c.id = ${conversation} and ${reporterId} in (c.user_a, c.user_b))`;
  const exists =
    target === 'user'
      ? sql`exists (select 1 from users where id = ${targetId})`
      : target === 'conversation'
        ? participant(sql`${targetId}`)
        : target === 'message'
          ? sql`exists (select 1 from messages m where m.id = ${targetId} and ${participant(sql`m.conversation_id`)})`
          : publicTargetExists(target, targetId, reporterId);
  const { rows } = await db().execute<{ ok: boolean }>(sql`select ${exists} as ok`);
  if (!rows[0]?.ok)
    throw notFound(
      target === 'user'
        ? 'error.userNotFound'
        : target === 'message'
          ? 'error.messageNotFound'
          : target === 'conversation'
            ? 'error.conversationNotFound'
            : target === 'comment'
              ? 'error.commentNotFound'
              : target === 'live'
                ? 'error.liveRoomNotFound'
                : 'error.videoNotFound',
    );
  const [row] = await db()
    .insert(reports)
    .values({ reporterId, targetType: target, targetId, reason })
    .returning({ id: reports.id });
  return { id: row!.id };
}

/** A work, a comment (on a work) or a live room the reporter may see. */
function publicTargetExists(target: 'video' | 'comment' | 'live', targetId: number, reporterId: number) {
  if (target === 'live') return sql`exists (select 1 from live_rooms r where r.id = ${targetId})`;
  if (target === 'video')
    return sql`exists (select 1 from videos where videos.id = ${targetId} and ${visibleWorks(reporterId)})`;
  return sql`exists (select 1 from comments c join videos on videos.id = c.video_id
    where c.id = ${targetId} and c.deleted_at is null and ${visibleWorks(reporterId)})`;
}
