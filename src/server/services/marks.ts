/**
 * The viewer's own state on a page every viewer shares (src/server/http/personal-pages.ts): who they are, which of the
 * page's videos they liked, collected or put in 稍后再看, which of its people they follow, and their unread counts. One
 * call answers all of it after first paint, so the page itself carries nothing personal.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { collects, likes, users, watchLater } from '../db/schema.ts';
import { totalUnread } from './messages.ts';
import { memberMutes, type MemberMutes } from './mutes.ts';
import { unreadCount } from './notifications.ts';
import type { Viewer } from './sessions.ts';
import { resumePoint, type Resume } from './theatre.ts';
import { followStatuses } from './users.ts';

/** Videos and people one call asks about at most: a page shows far fewer (the feed's first page, a profile's grid). */
export const MARKS_MAX_VIDEOS = 100;
export const MARKS_MAX_USERS = 100;

export interface Marks {
  /** The viewer, so that a page can tell their own works and name from others' (no 关注 beside one's own name). */
  viewer: Viewer;
  liked: number[];
  collected: number[];
  later: number[];
  /** The people the viewer follows among those asked about, by sec_uid: 1 following, 2 following each other. */
  following: Record<string, 1 | 2>;
  unread: { notice: number; message: number };
  /** Where the viewer stopped in the series asked about (放映厅), so its page continues there; null when not started. */
  resume: Resume | null;
  /** What the viewer muted, for the page to hide what it rendered for everyone (shared/mutes.ts's rule). */
  mutes: MemberMutes;
}

/** The ids of `videos` that `table` pairs with the viewer. */
async function pairedWith(table: typeof likes, userId: number, videos: number[]): Promise<number[]> {
  if (!videos.length) return [];
  const rows = await db()
    .select({ id: table.targetId })
    .from(table)
    .where(and(eq(table.userId, userId), inArray(table.targetId, videos)));
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** The viewer's follow status towards each of `secUids` they follow. */
async function followingOf(viewer: Viewer, secUids: string[]): Promise<Record<string, 1 | 2>> {
  if (!secUids.length) return {};
  const people = await db()
    .select({ id: users.id, secUid: users.secUid })
    .from(users)
    .where(inArray(users.secUid, secUids));
  const status = await followStatuses(
    viewer.id,
    people.map((p) => p.id),
  );
  const out: Record<string, 1 | 2> = {};
  for (const p of people.sort((a, b) => a.secUid.localeCompare(b.secUid))) {
    const s = status.get(p.id);
    if (s) out[p.secUid] = s;
  }
  return out;
}

/**
 * The viewer's marks on `videos` and `secUids` (each list capped, duplicates ignored), their unread counts, and where
 * they stopped in `series` when one is named.
 */
export async function viewerMarks(
  viewer: Viewer,
  videos: readonly number[],
  secUids: readonly string[],
  series?: number,
): Promise<Marks> {
  const v = [...new Set(videos)].slice(0, MARKS_MAX_VIDEOS);
  const u = [...new Set(secUids)].slice(0, MARKS_MAX_USERS);
  const [liked, collected, later, following, notice, message, resume, mutes] = await Promise.all([
    pairedWith(likes, viewer.id, v),
    pairedWith(collects, viewer.id, v),
    pairedWith(watchLater, viewer.id, v),
    followingOf(viewer, u),
    unreadCount(viewer.id),
    totalUnread(viewer.id),
    series === undefined ? null : resumePoint(viewer.id, series),
    memberMutes(viewer.id),
  ]);
  return { viewer, liked, collected, later, following, unread: { notice, message }, resume, mutes };
}
