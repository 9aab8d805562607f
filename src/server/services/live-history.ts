/** 观看历史 → 直播: the live rooms a member watched, kept when they open a room's stream. */
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { logLine } from '../log.ts';
import { liveRooms, liveWatchHistory, users } from '../db/schema.ts';
import { roomsByIds, type LiveRoomCard } from './live.ts';
import { userCardColumns, type UserCard } from './user-cards.ts';

/** How far back the list reaches, as the video history does. */
export const LIVE_HISTORY_DAYS = 30;

export interface WatchedRoom {
  room: LiveRoomCard;
  /** The host as a user card (a live record carries its host's whole user object). */
  host: UserCard;
  watchedAt: Date;
}

/** Notes that `userId` watched `roomId` now (one row per room: the latest visit). */
export async function recordLiveWatch(userId: number, roomId: number): Promise<void> {
  await db()
    .insert(liveWatchHistory)
    .values({ userId, roomId })
    .onConflictDoUpdate({ target: [liveWatchHistory.userId, liveWatchHistory.roomId], set: { watchedAt: sql`now()` } });
}

/** recordLiveWatch for a stream that must open even when the note cannot be written (it is logged). */
export async function noteLiveWatch(userId: number, roomId: number): Promise<void> {
  try {
    await recordLiveWatch(userId, roomId);
  } catch (error) {
    logLine('warn', 'live-history.record', { error });
  }
}

/**
 * Rooms `userId` watched in the last 30 days, the latest visit first, before `maxTime` (ms of a visit; 0 for now):
 * Douyin's max_time paging, where the next page starts before the last visit shown.
 */
export async function liveWatched(
  userId: number,
  maxTime: number,
  count = 20,
): Promise<{ items: WatchedRoom[]; hasMore: boolean }> {
  const limit = Math.min(Math.max(count, 1), 50);
  const rows = await db()
    .select({ roomId: liveWatchHistory.roomId, watchedAt: liveWatchHistory.watchedAt, host: userCardColumns })
    .from(liveWatchHistory)
    .innerJoin(liveRooms, eq(liveRooms.id, liveWatchHistory.roomId))
    .innerJoin(users, eq(users.id, liveRooms.hostId))
    .where(
      and(
        eq(liveWatchHistory.userId, userId),
        sql`${liveWatchHistory.watchedAt} > now() - make_interval(days => ${LIVE_HISTORY_DAYS})`,
        maxTime > 0 ? lt(liveWatchHistory.watchedAt, new Date(maxTime)) : undefined,
      ),
    )
    .orderBy(desc(liveWatchHistory.watchedAt), desc(liveWatchHistory.roomId))
    .limit(limit + 1);
  const shown = rows.slice(0, limit);
  const rooms = new Map((await roomsByIds(shown.map((r) => r.roomId))).map((r) => [r.id, r]));
  return {
    items: shown.flatMap(({ roomId, host, watchedAt }) => {
      const room = rooms.get(roomId);
      return room ? [{ room, host, watchedAt }] : [];
    }),
    hasMore: rows.length > limit,
  };
}

/** The hosts of rooms as user cards, by sec_uid (a live record carries its host's whole user object). */
export async function hostCards(secUids: string[]): Promise<Map<string, UserCard>> {
  if (secUids.length === 0) return new Map();
  const rows = await db().select(userCardColumns).from(users).where(inArray(users.secUid, secUids));
  return new Map(rows.map((u) => [u.secUid, u]));
}
