/** Following: follow and unfollow with their counts, removing a follower (移除粉丝), the following and follower lists. */
import { and, desc, eq, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { lockUsers } from '../db/lock-order.ts';
import type { DbOrTx } from '../db/types.ts';
import { follows, users } from '../db/schema.ts';
import { addNewFollowers } from './daily-stats.ts';
import { invalid, notFound } from '../errors.ts';
import { notify, retract } from './notifications.ts';
import { enforce } from './rate-limit.ts';
import { userCardColumns, type UserCard } from './user-cards.ts';
import { cursorKey, finite } from './list-cursor.ts';
import {
  emptyPage,
  fromMicros,
  keyedPage,
  MAX_SKIP,
  micros,
  pageLimit,
  skipOf,
  type Page,
  type Paged,
} from './video-cards.ts';

/** Followers one user may remove (移除粉丝) per hour. */
export const REMOVE_FOLLOWER_RATE = { limit: 100, windowMs: 60 * 60_000 };

export interface FollowUser extends UserCard {
  followedAt: Date;
}

export interface FollowState {
  following: boolean;
  /** Both follow each other (互相关注, the 朋友 relation). */
  mutual: boolean;
  /** The followee's follower_count. */
  followerCount: number;
  /** The follower's following_count. */
  followingCount: number;
}

/**
 * Adds or removes the follow row of a pair with everything that moves with it, inside the caller's transaction: both
 * users' counts, the followee's new-follower statistics and the follow notification. True when the row changed.
 */
async function applyFollow(tx: DbOrTx, followerId: number, followeeId: number, following: boolean): Promise<boolean> {
  const pair = and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId));
  const changed = following
    ? await tx
        .insert(follows)
        .values({ followerId, followeeId })
        .onConflictDoNothing()
        .returning({ id: follows.followerId })
    : await tx.delete(follows).where(pair).returning({ id: follows.followerId });
  if (changed.length === 0) return false;
  const delta = following ? 1 : -1;
  // Both users locked lowest id first (lock-order.ts), so A→B and B→A at once cannot deadlock.
  await lockUsers(tx, [followerId, followeeId]);
  await tx
    .update(users)
    .set({
      followingCount: sql`${users.followingCount} + case when ${users.id} = ${followerId} then ${delta} else 0 end`,
      followerCount: sql`${users.followerCount} + case when ${users.id} = ${followeeId} then ${delta} else 0 end`,
    })
    .where(sql`${users.id} in (${followerId}, ${followeeId})`);
  await addNewFollowers(followeeId, delta, tx);
  const note = { userId: followeeId, actorId: followerId, kind: 'follow' as const };
  if (following) await notify(tx, note);
  else await retract(tx, note);
  return true;
}

/** Follows or unfollows a user; keeps both users' counts and tells the followee of a new follower. */
export async function setFollow(followerId: number, followeeId: number, following: boolean): Promise<FollowState> {
  if (followerId === followeeId) throw invalid('error.followSelf');
  return db().transaction(async (tx) => {
    const [followee] = await tx.select({ id: users.id }).from(users).where(eq(users.id, followeeId));
    if (!followee) throw notFound('error.userNotFound');
    await applyFollow(tx, followerId, followeeId, following);
    const { rows } = await tx.execute<{ follower_count: number; following_count: number; follows_back: boolean }>(sql`
      select (select follower_count from ${users} where id = ${followeeId}) as follower_count,
             (select following_count from ${users} where id = ${followerId}) as following_count,
             exists (select 1 from ${follows} where follower_id = ${followeeId} and followee_id = ${followerId}) as follows_back`);
    const state = rows[0];
    return {
      following,
      mutual: following && state?.follows_back === true,
      followerCount: state?.follower_count ?? 0,
      followingCount: state?.following_count ?? 0,
    };
  });
}

export interface RemoveFollowerResult {
  /** Whether a follow was removed (false when the user did not follow, which changes nothing). */
  removed: boolean;
  /** The user's follower_count afterwards. */
  followerCount: number;
}

/**
 * Removes `followerId` from `userId`'s followers (移除粉丝): the same change as that user unfollowing, with the same
 * counts, statistics and notification, within REMOVE_FOLLOWER_RATE. Removing someone who does not follow changes nothing.
 */
export async function removeFollower(userId: number, followerId: number): Promise<RemoveFollowerResult> {
  if (userId === followerId) throw invalid('error.removeFollowerSelf');
  await enforce(`follower-remove:${userId}`, REMOVE_FOLLOWER_RATE.limit, REMOVE_FOLLOWER_RATE.windowMs);
  return db().transaction(async (tx) => {
    const [follower] = await tx.select({ id: users.id }).from(users).where(eq(users.id, followerId));
    if (!follower) throw notFound('error.userNotFound');
    const removed = await applyFollow(tx, followerId, userId, false);
    const [self] = await tx.select({ n: users.followerCount }).from(users).where(eq(users.id, userId));
    return { removed, followerCount: self?.n ?? 0 };
  });
}

/** Whether `followerId` follows `followeeId`. */
export async function isFollowing(followerId: number, followeeId: number): Promise<boolean> {
  const [row] = await db()
    .select({ id: follows.followerId })
    .from(follows)
    .where(and(eq(follows.followerId, followerId), eq(follows.followeeId, followeeId)));
  return row !== undefined;
}

/** Columns of a FollowUser joined through `follows` (its created_at is followedAt). */
export const followUserColumns = { ...userCardColumns, followedAt: follows.createdAt };

// `side` is the column holding the listed users: followee_id for 关注, follower_id for 粉丝. Read down
// follows_follower_time_idx or follows_followee_time_idx from the cursor (the last follow's time and user).
async function listSide(userId: number, side: 'following' | 'followers', page: Page): Promise<Paged<FollowUser>> {
  const limit = pageLimit(page, 20);
  const key = cursorKey(page.cursor, side, 2);
  const skip = key ? 0 : skipOf(page);
  if (skip > MAX_SKIP) return emptyPage(page);
  const [mine, theirs] =
    side === 'following' ? [follows.followerId, follows.followeeId] : [follows.followeeId, follows.followerId];
  const rows = await db()
    .select({ ...followUserColumns, at: micros(follows.createdAt) })
    .from(follows)
    .innerJoin(users, eq(users.id, theirs))
    .where(
      and(
        eq(mine, userId),
        key ? sql`(${follows.createdAt}, ${theirs}) < (${fromMicros(key[0]!)}, ${finite(key[1]!)}::bigint)` : undefined,
      ),
    )
    .orderBy(desc(follows.createdAt), desc(theirs))
    .limit(limit + 1)
    .offset(skip);
  const p = keyedPage(rows, limit, side, (r) => [r.at, r.id], page);
  return { ...p, items: p.items.map(({ at: _, ...u }) => u) };
}

/** The users `userId` follows (关注), newest follow first. */
export async function listFollowing(userId: number, page: Page = {}): Promise<Paged<FollowUser>> {
  return listSide(userId, 'following', page);
}

/** The users who follow `userId` (粉丝), newest follow first. */
export async function listFollowers(userId: number, page: Page = {}): Promise<Paged<FollowUser>> {
  return listSide(userId, 'followers', page);
}
