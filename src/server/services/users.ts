/** Reading users: profiles by sec_uid or id, with the viewer's follow relation. */
import { and, eq, inArray, or } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { follows, users, type Privacy } from '../db/schema.ts';

export interface Profile {
  id: number;
  secUid: string;
  nickname: string;
  signature: string;
  avatar: string;
  followingCount: number;
  followerCount: number;
  awemeCount: number;
  totalFavorited: number;
  favoritingCount: number;
  collectCount: number;
  privacy: Privacy;
  /** Whether the viewer follows this user, and whether this user follows the viewer. */
  isFollowing: boolean;
  followsViewer: boolean;
}

const profileColumns = {
  id: users.id,
  secUid: users.secUid,
  nickname: users.nickname,
  signature: users.signature,
  avatar: users.avatar,
  followingCount: users.followingCount,
  followerCount: users.followerCount,
  awemeCount: users.awemeCount,
  totalFavorited: users.totalFavorited,
  favoritingCount: users.favoritingCount,
  collectCount: users.collectCount,
  privacy: users.privacy,
};

async function relation(userId: number, viewerId: number | null) {
  if (viewerId === null || viewerId === userId) return { isFollowing: false, followsViewer: false };
  const rows = await db()
    .select({ followerId: follows.followerId })
    .from(follows)
    .where(
      and(
        eq(follows.followerId, viewerId),
        eq(follows.followeeId, userId),
      ),
    )
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

/** The viewer's relation to each of `userIds`: 0 none, 1 the viewer follows them, 2 both follow each other. */
export async function followStatuses(viewerId: number, userIds: number[]): Promise<Map<number, 0 | 1 | 2>> {
  const out = new Map<number, 0 | 1 | 2>();
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
  for (const id of following) out.set(id, followers.has(id) ? 2 : 1);
  return out;
}
