/** Friends (朋友): the users who follow the viewer back, for the /friend page's row above the grid. */
import { and, desc, eq, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { follows, users } from '../db/schema.ts';
import type { AuthorRef } from './video-cards.ts';
import { bounds, toPage, type Page, type Paged } from './video-cards.ts';

/** A friend: a user the viewer follows who follows the viewer too. */
export type Friend = AuthorRef;

/** The viewer's mutual follows, the most recent of the two follows first. */
export async function listFriends(viewerId: number, page: Page = {}): Promise<Paged<Friend>> {
  const { offset, limit } = bounds(page, 20);
  const back = sql`exists (select 1 from ${follows} b where b.follower_id = ${follows.followeeId} and b.followee_id = ${viewerId})`;
  const rows = await db()
    .select({ id: users.id, secUid: users.secUid, nickname: users.nickname, avatar: users.avatar })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.followeeId))
    .where(and(eq(follows.followerId, viewerId), back))
    .orderBy(desc(follows.createdAt), desc(users.id))
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
}
