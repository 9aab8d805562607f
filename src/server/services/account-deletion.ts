/**
 * 注销账号. A member confirms with their password or a fresh code mailed to their address; every session ends at
 * once and a cooling-off of 15 days starts (deletion-clock.ts), which any login cancels. When it ends, the account is
 * deleted by this rule (docs/architecture.md repeats it):
 *
 * - Deleted: the profile and its pictures, sessions, login codes and QR tickets; the works with their media files and
 *   captions (and everything on them: comments, likes, danmaku); the member's comments on other works, with the
 *   replies others wrote under them; danmaku, likes, collects, 稍后再看, history, 不感兴趣; follows and blocks both
 *   ways; their chats with every message in them (a chat is one record shared by the pair); notifications to and from
 *   them; their reports, data exports and unfinished uploads.
 * - Kept without the account (anonymised): what they searched (it feeds 热搜), their feedback, reports others filed
 *   about them.
 * - Counts corrected in the same transaction: followers and following of the people they followed or who followed
 *   them, likes, collects and comments of the works they touched, likes received by those works' authors, replies and
 *   likes of the comments they answered or liked, likes and collects given by the members who liked their works, and
 *   the size of others' series that held their works.
 */
import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { dataExports, loginCodes, users } from '../db/schema.ts';
import { enqueue, QUEUES } from '../job-queue.ts';
import { WORKS_DIR } from '../media/paths.ts';
import { consumeLoginCode, requestLoginCode } from './auth/codes.ts';
import type { AuthContext } from './auth/login.ts';
import { removeExportFiles } from './data-export.ts';
import { scheduleDeletion } from './deletion-clock.ts';
import { invalid, notFound, ServiceError } from '../errors.ts';
import { verifyPassword } from './password.ts';
import { PROFILES_DIR } from './profile-edit.ts';
import { enforce } from './rate-limit.ts';
import { revokeAllSessions } from './sessions.ts';

/** Deletion confirmations one member may try per hour (a stolen session must not become a password oracle). */
export const DELETE_CONFIRM_RATE = { limit: 10, windowMs: 3_600_000 };

/** Masks an address for the page: z***@example.com. */
export function maskEmail(email: string): string {
  const [name = '', domain = ''] = email.split('@');
  return `${name.slice(0, 1)}***@${domain}`;
}

/** Mails a code to the member's own address, to confirm a deletion with (the login code's limits apply). */
export async function sendDeletionCode(userId: number, ctx: AuthContext): Promise<{ email: string }> {
  const [user] = await db().select({ email: users.email }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound('error.userNotFound');
  if (!user.email) throw invalid('error.deleteNoEmail');
  await requestLoginCode(user.email, ctx);
  return { email: maskEmail(user.email) };
}

/**
 * Asks for the account's deletion, confirmed by its password or a code mailed to its address: the cooling-off starts
 * and every session of the account ends, this one included. Answers when the account will be deleted.
 */
export async function requestDeletion(
  userId: number,
  proof: { password?: string; code?: string },
  ctx: AuthContext,
): Promise<Date> {
  const [user] = await db()
    .select({ email: users.email, passwordHash: users.passwordHash, due: users.deletionDueAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw notFound('error.userNotFound');
  if (user.due) throw new ServiceError('conflict', 'error.deletePending');
  const password = proof.password ?? '';
  const code = proof.code ?? '';
  if (password === '' && code === '') throw invalid('error.deletePasswordOrCode');
  await enforce(`delete:${userId}`, DELETE_CONFIRM_RATE.limit, DELETE_CONFIRM_RATE.windowMs);
  if (password !== '') {
    if (!user.passwordHash || !(await verifyPassword(password, user.passwordHash)))
      throw new ServiceError('forbidden', 'error.deleteWrongPassword');
  } else {
    if (!user.email) throw invalid('error.deleteNoEmail');
    await consumeLoginCode(user.email, code, ctx);
  }
  const due = await db().transaction((tx) => scheduleDeletion(tx, userId));
  await revokeAllSessions(userId);
  return due;
}

const ids = (list: number[]) =>
  sql`array[${sql.join(
    list.map((id) => sql`${id}::int`),
    sql`, `,
  )}]::int[]`;

/**
 * Deletes `userId` by the rule above if its cooling-off has ended (and no login cancelled it). Answers what happened.
 */
export async function finishDeletion(userId: number): Promise<'deleted' | 'not-due' | 'gone'> {
  const outcome = await db().transaction(async (tx) => {
    const [user] = await tx
      .select({ email: users.email, due: users.deletionDueAt })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    if (!user) return { result: 'gone' as const };
    if (!user.due || user.due.getTime() > Date.now()) return { result: 'not-due' as const };

    // What the cascades will take away from other rows' counters, read before they run.
    const { rows } = await tx.execute<{ users: number[]; videos: number[]; comments: number[]; series: number[] }>(sql`
      select
        array(select followee_id from follows where follower_id = ${userId}
              union select follower_id from follows where followee_id = ${userId}
              union select v.author_id from likes l join videos v on v.id = l.video_id where l.user_id = ${userId}
              union select l.user_id from likes l join videos v on v.id = l.video_id where v.author_id = ${userId}
              union select c.user_id from collects c join videos v on v.id = c.video_id where v.author_id = ${userId}) as users,
        array(select video_id from likes where user_id = ${userId}
              union select video_id from collects where user_id = ${userId}
              union select video_id from comments where user_id = ${userId}) as videos,
        array(select comment_id from comment_likes where user_id = ${userId}
              union select parent_id from comments where user_id = ${userId} and parent_id is not null) as comments,
        array(select si.series_id from series_items si join videos v on v.id = si.video_id where v.author_id = ${userId}) as series`);
    const touched = rows[0]!;
    const media = await tx.execute<{ prefix: string }>(sql`
      select ${WORKS_DIR} || '/' || u.id as prefix from uploads u where u.user_id = ${userId}
      union select ${WORKS_DIR} || '/v' || v.id from videos v where v.author_id = ${userId}`);
    const exports = await tx.select({ file: dataExports.file }).from(dataExports).where(eq(dataExports.userId, userId));

    // Replies others wrote under the member's comments would hang from nothing.
    await tx.execute(sql`
      delete from comments where parent_id in (select id from comments where user_id = ${userId} and parent_id is null)`);
    if (user.email) await tx.delete(loginCodes).where(eq(loginCodes.email, user.email));
    await tx.delete(users).where(eq(users.id, userId));

    const others = (touched.users ?? []).map(Number).filter((id) => id !== userId);
    const works = (touched.videos ?? []).map(Number);
    const answered = (touched.comments ?? []).map(Number);
    const held = (touched.series ?? []).map(Number);
    // Counters from the rows behind them, for the touched rows only; each table's rows locked in id order first.
    if (others.length) {
      await tx.execute(sql`select id from users where id = any(${ids(others)}) order by id for update`);
      await tx.execute(sql`
        update users u set
          following_count = (select count(*) from follows where follower_id = u.id),
          follower_count = (select count(*) from follows where followee_id = u.id),
          total_favorited = (select count(*) from likes l join videos v on v.id = l.video_id where v.author_id = u.id and v.deleted_at is null),
          favoriting_count = (select count(*) from likes l join videos v on v.id = l.video_id where l.user_id = u.id and v.deleted_at is null),
          collect_count = (select count(*) from collects c join videos v on v.id = c.video_id where c.user_id = u.id and v.deleted_at is null)
        where u.id = any(${ids(others)})`);
    }
    if (works.length) {
      await tx.execute(sql`select id from videos where id = any(${ids(works)}) order by id for update`);
      await tx.execute(sql`
        update videos v set
          digg_count = (select count(*) from likes where video_id = v.id),
          collect_count = (select count(*) from collects where video_id = v.id),
          comment_count = (select count(*) from comments where video_id = v.id and deleted_at is null)
        where v.id = any(${ids(works)})`);
    }
    if (answered.length) {
      await tx.execute(sql`select id from comments where id = any(${ids(answered)}) order by id for update`);
      await tx.execute(sql`
        update comments c set
          digg_count = (select count(*) from comment_likes where comment_id = c.id),
          reply_count = (select count(*) from comments r where r.parent_id = c.id and r.deleted_at is null)
        where c.id = any(${ids(answered)})`);
    }
    if (held.length) {
      await tx.execute(sql`
        update series s set item_count = (select count(*) from series_items where series_id = s.id)
        where s.id = any(${ids(held)})`);
    }
    const prefixes = [...media.rows.map((r) => r.prefix), `${PROFILES_DIR}/${userId}`];
    await enqueue(QUEUES.removeMedia, { prefixes }, { tx });
    return { result: 'deleted' as const, exports: exports.map((e) => e.file) };
  });
  if (outcome.result === 'deleted') await removeExportFiles(outcome.exports);
  return outcome.result;
}

/** Deletes every account whose cooling-off has ended (the hourly sweep's share: a lost job must not keep one alive). */
export async function finishDueDeletions(): Promise<number> {
  const due = await db()
    .select({ id: users.id })
    .from(users)
    .where(and(isNotNull(users.deletionDueAt), lte(users.deletionDueAt, sql`now()`)));
  let deleted = 0;
  for (const u of due) if ((await finishDeletion(u.id)) === 'deleted') deleted++;
  return deleted;
}
