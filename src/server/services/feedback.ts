/** 意见反馈: stored for the team to read, limited per address and per account so nobody can flood the table. */
import { feedback } from '../db/schema.ts';
import { db } from '../db/client.ts';
import { invalid } from '../errors.ts';
import { enforce } from './rate-limit.ts';

/** Feedback one client address, and one account, may send per 10 minutes. */
export const FEEDBACK_RATE = { limit: 3, windowMs: 10 * 60_000 };
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
  if (length < FEEDBACK_MIN || length > FEEDBACK_MAX)
    throw invalid('error.feedbackLength', { min: FEEDBACK_MIN, max: FEEDBACK_MAX });
  if (contact && [...contact].length > CONTACT_MAX) throw invalid('error.contactTooLong', { max: CONTACT_MAX });
  await enforce(`feedback:ip:${input.clientAddress}`, FEEDBACK_RATE.limit, FEEDBACK_RATE.windowMs);
  if (input.userId !== null)
    await enforce(`feedback:user:${input.userId}`, FEEDBACK_RATE.limit, FEEDBACK_RATE.windowMs);
  const [row] = await db()
    .insert(feedback)
    .values({ userId: input.userId, contact, content })
    .returning({ id: feedback.id });
  return { id: row!.id };
}
