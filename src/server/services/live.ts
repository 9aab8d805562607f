/** Reading live rooms. */
import { and, desc, eq, lt } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { liveRooms, users } from '../db/schema.ts';

export interface LiveRoomCard {
  id: number;
  title: string;
  cover: string;
  media: string;
  viewerCount: number;
  channelId: number;
  startedAt: Date;
  host: { secUid: string; nickname: string; avatar: string };
}

function selectRooms() {
  return db()
    .select({
      id: liveRooms.id,
      title: liveRooms.title,
      cover: liveRooms.cover,
      media: liveRooms.media,
      viewerCount: liveRooms.viewerCount,
      channelId: liveRooms.channelId,
      startedAt: liveRooms.startedAt,
      host: { secUid: users.secUid, nickname: users.nickname, avatar: users.avatar },
    })
    .from(liveRooms)
    .innerJoin(users, eq(users.id, liveRooms.hostId));
}

/** Rooms that are live now, the busiest first. */
export async function liveNow(count = 24): Promise<LiveRoomCard[]> {
  return selectRooms()
    .where(eq(liveRooms.status, 'live'))
    .orderBy(desc(liveRooms.viewerCount), desc(liveRooms.id))
    .limit(Math.min(Math.max(count, 1), 50));
}

/** Live rooms that started before `maxTime` (ms; 0 for now), latest start first: Douyin's max_time paging. */
export async function liveBefore(maxTime: number, count = 20): Promise<{ items: LiveRoomCard[]; hasMore: boolean }> {
  const limit = Math.min(Math.max(count, 1), 50);
  const rows = await selectRooms()
    .where(and(eq(liveRooms.status, 'live'), maxTime > 0 ? lt(liveRooms.startedAt, new Date(maxTime)) : undefined))
    .orderBy(desc(liveRooms.startedAt), desc(liveRooms.id))
    .limit(limit + 1);
  return { items: rows.slice(0, limit), hasMore: rows.length > limit };
}
