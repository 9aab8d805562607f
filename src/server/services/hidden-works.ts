/** Whether a page is about a work that exists but is not for everyone (朋友可见, 仅自己可见). */
import { and, eq, isNull } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { videos } from '../db/schema.ts';

const WORK_PAGE = /^\/video\/(\d{1,15})$/;

/**
 * For the page of a work, whether that work is hidden from visitors: its page is then rendered for the member who asks
 * (its author, or a friend), not shared. Undefined for any other page, so that the common answer waits on nothing.
 */
export function isHiddenWorkPage(path: string): Promise<boolean> | undefined {
  const id = WORK_PAGE.exec(path)?.[1];
  if (!id || !Number.isSafeInteger(Number(id))) return undefined;
  return db()
    .select({ visibility: videos.visibility })
    .from(videos)
    .where(and(eq(videos.id, Number(id)), isNull(videos.deletedAt)))
    .limit(1)
    .then((rows) => rows.length > 0 && rows[0]!.visibility !== 'public');
}
