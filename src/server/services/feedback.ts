/** 意见反馈: stored for the team to read, limited per address and per account so nobody can flood the table. */
import { feedback } from '../db/schema.ts';
import { db } from '../db/client.ts';
import { invalid } from './errors.ts';
import { enforce } from './rate-limit.ts';

/** At most this many messages per window, per client address and per account. */
export const FEEDBACK_LIMIT = 3;
export const FEEDBACK_WINDOW_MS = 10 * 60_000;
export const FEEDBACK_MAX = 500;
export const FEEDBACK_MIN = 5;
export const CONTACT_MAX = 100;

export interface NewFeedback {
  userId: number | null;
  /** Where the team may answer (e-mail, phone, WeChat), optional. */
  contact?: string | null;
  content: string;
  clientAddress: string;
}

/** Stores one message after the rate limits allow it; throws `rate_limited` (429) otherwise. */
export async function submitFeedback(input: NewFeedback): Promise<{ id: number }> {
  const content = input.content.trim();
  const contact = input.contact?.trim() || null;
  const length = [...content].length;
  if (length < FEEDBACK_MIN || length > FEEDBACK_MAX) throw invalid('error.feedbackLength', { min: FEEDBACK_MIN, max: FEEDBACK_MAX });
  if (contact && [...contact].length > CONTACT_MAX) throw invalid('error.contactTooLong', { max: CONTACT_MAX });
  await enforce(`feedback:ip:${input.clientAddress}`, FEEDBACK_LIMIT, FEEDBACK_WINDOW_MS);
  if (input.userId !== null) await enforce(`feedback:user:${input.userId}`, FEEDBACK_LIMIT, FEEDBACK_WINDOW_MS);
  const [row] = await db()
    .insert(feedback)
    .values({ userId: input.userId, contact, content })
    .returning({ id: feedback.id });
  return { id: row!.id };
}
