/** 观看历史 → 用户: the profiles a member visited, the latest visit first. */
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { logLine } from '../log.ts';
import { profileVisits, users } from '../db/schema.ts';
import { userCardColumns, type UserCard } from './user-cards.ts';
import { bounds, toPage, type Page, type Paged } from './video-cards.ts';

/** How far back the list reaches, as the video history does. */
export const VISIT_HISTORY_DAYS = 30;

export interface VisitedUser extends UserCard {
  visitedAt: Date;
}

/** Notes that `viewerId` opened the profile of `userId` now; one's own profile is not a visit. */
export async function recordProfileVisit(viewerId: number, userId: number): Promise<void> {
  if (viewerId === userId) return;
  await db()
    .insert(profileVisits)
    .values({ viewerId, userId })
    .onConflictDoUpdate({ target: [profileVisits.viewerId, profileVisits.userId], set: { visitedAt: sql`now()` } });
}

/** recordProfileVisit for a read that must not fail because of it: a visit that cannot be written is logged and let go. */
export async function noteVisit(viewerId: number, userId: number): Promise<void> {
  try {
    await recordProfileVisit(viewerId, userId);
  } catch (error) {
    logLine('warn', 'profile-visits.record', { error });
  }
}

/** noteVisit for the user named by `secUid`; an unknown user, or the viewer themself, is no visit. */
export async function noteVisitBySecUid(viewerId: number, secUid: string): Promise<void> {
  const [user] = await db().select({ id: users.id }).from(users).where(eq(users.secUid, secUid)).limit(1);
  if (user && user.id !== viewerId) await noteVisit(viewerId, user.id);
}

/** The profiles `viewerId` visited in the last 30 days, the latest visit first; the cursor is the next offset. */
export async function visitedProfiles(viewerId: number, page: Page = {}): Promise<Paged<VisitedUser>> {
  const { offset, limit } = bounds(page, 20);
  const rows = await db()
    .select({ ...userCardColumns, visitedAt: profileVisits.visitedAt })
    .from(profileVisits)
    .innerJoin(users, eq(users.id, profileVisits.userId))
    .where(
      and(
        eq(profileVisits.viewerId, viewerId),
        ne(profileVisits.userId, viewerId),
        sql`${profileVisits.visitedAt} > now() - make_interval(days => ${VISIT_HISTORY_DAYS})`,
      ),
    )
    .orderBy(desc(profileVisits.visitedAt), desc(users.id))
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
}
