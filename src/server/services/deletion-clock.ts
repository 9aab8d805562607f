/**
 * The clock of a 注销: asking starts a cooling-off of COOLING_OFF_DAYS, a login during it cancels it, and a job set to
 * start at its end deletes the account (account-deletion.ts says what goes). Kept apart from the deletion itself so
 * that every login can ask here without reaching the rest of the account's rules.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { COOLING_OFF_DAYS } from '../../shared/account.ts';
import { db } from '../db/client.ts';
import type { DbOrTx } from '../db/types.ts';
import { users } from '../db/schema.ts';
import { enqueue, QUEUES } from '../job-queue.ts';

export const COOLING_OFF_MS = COOLING_OFF_DAYS * 86_400_000;

/** Starts the cooling-off of `userId` in `tx`; answers when the account will be deleted. */
export async function scheduleDeletion(tx: DbOrTx, userId: number): Promise<Date> {
  const due = new Date(Date.now() + COOLING_OFF_MS);
  await tx
    .update(users)
    .set({ deletionRequestedAt: sql`now()`, deletionDueAt: due })
    .where(eq(users.id, userId));
  // Keyed by the due time: a request made again after a cancellation gets a job of its own.
  await enqueue(QUEUES.accountDelete, { userId }, { tx, key: `${userId}:${due.getTime()}`, startAfter: due });
  return due;
}

/** Cancels a pending deletion of `userId` (a login during the cooling-off); true when there was one. */
export async function cancelDeletion(userId: number): Promise<boolean> {
  const cancelled = await db()
    .update(users)
    .set({ deletionRequestedAt: null, deletionDueAt: null })
    .where(and(eq(users.id, userId), isNotNull(users.deletionDueAt)))
    .returning({ id: users.id });
  return cancelled.length > 0;
}

/** When `userId` will be deleted, or null when no deletion is pending. */
export async function deletionDue(userId: number): Promise<Date | null> {
  const [row] = await db().select({ due: users.deletionDueAt }).from(users).where(eq(users.id, userId));
  return row?.due ?? null;
}
