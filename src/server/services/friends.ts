/**
 * Friends (朋友): the users who follow the viewer back, for the /friend page's row above the grid and the 私信
 * sidebar; and whom the viewer may @ (everyone they follow, friends first).
 */
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { follows, users } from '../db/schema.ts';
import { followUserColumns, type FollowUser } from './social.ts';
import { cursorKey, finite } from './list-cursor.ts';
import {
  emptyPage,
  fromMicros,
  keyedPage,
  MAX_SKIP,
  micros,
  pageLimit,
  skipOf,
  type AuthorRef,
  type Page,
  type Paged,
} from './video-cards.ts';

/** A friend: a user the viewer follows who follows the viewer too. */
export type Friend = AuthorRef;

/** On a row of `follows` whose follower is the viewer: the followee follows the viewer back. */
function followsBack(viewerId: number): SQL {
  return sql`exists (select 1 from ${follows} b where b.follower_id = ${follows.followeeId} and b.followee_id = ${viewerId})`;
}

/** The viewer's mutual follows, the most recent of the two follows first: listFriendUsers' rows, named only. */
export async function listFriends(viewerId: number, page: Page = {}): Promise<Paged<Friend>> {
  const p = await listFriendUsers(viewerId, page);
  return { ...p, items: p.items.map(({ id, secUid, nickname, avatar }) => ({ id, secUid, nickname, avatar })) };
}

/** The viewer's mutual follows as rows of a user list (followedAt: when the viewer followed them), the most recent of the two follows first. */
export async function listFriendUsers(viewerId: number, page: Page = {}): Promise<Paged<FollowUser>> {
  const limit = pageLimit(page, 20);
  const key = cursorKey(page.cursor, 'friends', 2);
  const skip = key ? 0 : skipOf(page);
  if (skip > MAX_SKIP) return emptyPage(page);
  const rows = await db()
    .select({ ...followUserColumns, at: micros(follows.createdAt) })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.followeeId))
    .where(
      and(
        eq(follows.followerId, viewerId),
        followsBack(viewerId),
        key
          ? sql`(${follows.createdAt}, ${follows.followeeId}) < (${fromMicros(key[0]!)}, ${finite(key[1]!)}::bigint)`
          : undefined,
      ),
    )
    .orderBy(desc(follows.createdAt), desc(follows.followeeId))
    .limit(limit + 1)
    .offset(skip);
  const p = keyedPage(rows, limit, 'friends', (r) => [r.at, r.id], page);
  return { ...p, items: p.items.map(({ at: _, ...u }) => u) };
}

/**
 * Whom the viewer may @: the users they follow, friends first, then the latest follow first. A keyword keeps the
 * nicknames that contain it (ignoring case).
 */
export async function listMentionable(viewerId: number, page: Page = {}, keyword = ''): Promise<Paged<FollowUser>> {
  const limit = pageLimit(page, 20);
  const key = cursorKey(page.cursor, 'mention', 3);
  const skip = key ? 0 : skipOf(page);
  if (skip > MAX_SKIP) return emptyPage(page);
  const word = keyword.trim().toLowerCase();
  const friend = sql<number>`(${followsBack(viewerId)})::int`.mapWith(Number);
  const rows = await db()
    .select({ ...followUserColumns, friend, at: micros(follows.createdAt) })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.followeeId))
    .where(
      and(
        eq(follows.followerId, viewerId),
        word ? sql`position(${word} in lower(${users.nickname})) > 0` : undefined,
        key
          ? sql`(${friend}, ${follows.createdAt}, ${follows.followeeId}) < (${finite(key[0]!)}::bigint, ${fromMicros(key[1]!)}, ${finite(key[2]!)}::bigint)`
          : undefined,
      ),
    )
    .orderBy(desc(friend), desc(follows.createdAt), desc(follows.followeeId))
    .limit(limit + 1)
    .offset(skip);
  const p = keyedPage(rows, limit, 'mention', (r) => [r.friend, r.at, r.id], page);
  return { ...p, items: p.items.map(({ at: _, friend: _f, ...u }) => u) };
}
