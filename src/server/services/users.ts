/** Reading users: profiles by sec_uid or id, with the viewer's follow relation. */
import { and, eq, inArray, or } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { follows, users, type Privacy } from '../db/schema.ts';
import { userCardColumns, type UserCard } from './user-cards.ts';

export interface Profile extends UserCard {
  collectCount: number;
  privacy: Privacy;
  /** 0 not shown, 1 male, 2 female. */
  gender: number;
  /** 'YYYY-MM-DD', or null while not given. */
  birthday: string | null;
  /** Whether the viewer follows this user, and whether this user follows the viewer. */
  isFollowing: boolean;
  followsViewer: boolean;
}

const profileColumns = {
  ...userCardColumns,
  collectCount: users.collectCount,
  privacy: users.privacy,
  gender: users.gender,
  birthday: users.birthday,
};

async function relation(userId: number, viewerId: number | null) {
  if (viewerId === null || viewerId === userId) return { isFollowing: false, followsViewer: false };
  const rows = await db()
    .select({ followerId: follows.followerId })
    .from(follows)
    .where(and(eq(follows.followerId, viewerId), eq(follows.followeeId, userId)))
    .union(
      db()
        .select({ followerId: follows.followerId })
        .from(follows)
        .where(and(eq(follows.followerId, userId), eq(follows.followeeId, viewerId))),
    );
  return {
    isFollowing: rows.some((r) => r.followerId === viewerId),
    followsViewer: rows.some((r) => r.followerId === userId),
  };
}

/** A profile by its public sec_uid; null when unknown. */
export async function getBySecUid(secUid: string, viewerId: number | null): Promise<Profile | null> {
  const [row] = await db().select(profileColumns).from(users).where(eq(users.secUid, secUid));
  return row ? { ...row, ...(await relation(row.id, viewerId)) } : null;
}

/** A profile by internal id; null when unknown. */
export async function getById(id: number, viewerId: number | null = null): Promise<Profile | null> {
  const [row] = await db().select(profileColumns).from(users).where(eq(users.id, id));
  return row ? { ...row, ...(await relation(row.id, viewerId)) } : null;
}

/** How the viewer and one user follow each other. */
export interface Relation {
  /** The viewer follows the user. */
  following: boolean;
  /** The user follows the viewer. */
  followedBy: boolean;
}

/** The viewer's relation to each of `userIds` that follows or is followed by them (others, and the viewer, are left out). */
export async function relations(viewerId: number, userIds: number[]): Promise<Map<number, Relation>> {
  const out = new Map<number, Relation>();
  const ids = [...new Set(userIds)].filter((id) => id !== viewerId);
  if (!ids.length) return out;
  const rows = await db()
    .select({ followerId: follows.followerId, followeeId: follows.followeeId })
    .from(follows)
    .where(
      or(
        and(eq(follows.followerId, viewerId), inArray(follows.followeeId, ids)),
        and(eq(follows.followeeId, viewerId), inArray(follows.followerId, ids)),
      ),
    );
  const following = new Set(rows.filter((r) => r.followerId === viewerId).map((r) => r.followeeId));
  const followers = new Set(rows.filter((r) => r.followeeId === viewerId).map((r) => r.followerId));
  for (const id of new Set([...following, ...followers]))
    out.set(id, { following: following.has(id), followedBy: followers.has(id) });
  return out;
}

/** Douyin's follow_status, the one rule for every answer: 0 not following, 1 following, 2 following each other. */
export function followStatusFor(relation: Relation | undefined): 0 | 1 | 2 {
  return relation?.following ? (relation.followedBy ? 2 : 1) : 0;
}

/** The viewer's relation to each of `userIds`: 0 none, 1 the viewer follows them, 2 both follow each other (only 1 and 2 are listed). */
export async function followStatuses(viewerId: number, userIds: number[]): Promise<Map<number, 0 | 1 | 2>> {
  const out = new Map<number, 0 | 1 | 2>();
  for (const [id, r] of await relations(viewerId, userIds)) if (r.following) out.set(id, followStatusFor(r));
  return out;
}
