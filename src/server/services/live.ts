/** Live rooms: reading them, their chat (real time through the event hub) and who is watching. */
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { follows, liveMessages, livePresence, liveRooms, users, videos } from '../db/schema.ts';
import { CHAT_MAX } from '../../shared/chat-line.ts';
import { publish, roomTopic } from '../realtime/events.ts';
import { invalid, notFound, ServiceError } from '../errors.ts';
import { bounds, toPage, type Page, type Paged } from './video-cards.ts';
import { assertCanSpeak } from '../staff/sanctions.ts';
import { mediaUrl } from '../media-url.ts';

/** Chat lines one user may send in a live room per 10 s. */
export const LIVE_CHAT_RATE = { limit: 10, windowMs: 10_000 };

export interface LiveRoomCard {
  id: number;
  title: string;
  /** The host's cover; '' when they chose none (the stream's own frame stands in). */
  cover: string;
  /** A seeded past broadcast's recording (its clip); '' for a real one, whose recording is a work (replayVideoId). */
  media: string;
  /**
   * 人在看, the one number every page and API shows: live_rooms.viewer_count, the room pages open on it now
   * (joinRoom/leaveRoom, and swept off when their server stops heartbeating). 0 once the room has ended.
   */
  viewerCount: number;
  channelId: number;
  startedAt: Date;
  endedAt: Date | null;
  host: { id: number; secUid: string; nickname: string; avatar: string };
  /** Still on air (an ended room keeps its page and its last chat lines). */
  live: boolean;
  /** On air, but the host's publisher is gone for the moment (主播暂时离开). */
  paused: boolean;
  likeCount: number;
  /** The latest frame of the stream (a media key), while on air. */
  thumb: string | null;
  /** The 回放 work, once the recording is published. */
  replayVideoId: number | null;
  /** Being recorded, so a 回放 is coming once it ends. */
  recording: boolean;
}

/** The picture a card shows: the host's cover, else the stream's latest frame, else the host's avatar. */
export function roomPicture(r: Pick<LiveRoomCard, 'cover' | 'thumb' | 'host'>): string {
  return r.cover || r.thumb || r.host.avatar;
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
      endedAt: liveRooms.endedAt,
      host: { id: users.id, secUid: users.secUid, nickname: users.nickname, avatar: users.avatar },
      live: sql<boolean>`${liveRooms.status} = 'live'`,
      paused: sql<boolean>`${liveRooms.pausedAt} is not null`,
      likeCount: liveRooms.likeCount,
      thumb: liveRooms.thumb,
      replayVideoId: liveRooms.replayVideoId,
      recording: liveRooms.recording,
    })
    .from(liveRooms)
    .innerJoin(users, eq(users.id, liveRooms.hostId))
    .$dynamic();
}

/** Rooms that are live now, the busiest first. */
export async function liveNow(count = 24): Promise<LiveRoomCard[]> {
  maybeSweep();
  return selectRooms()
    .where(eq(liveRooms.status, 'live'))
    .orderBy(desc(liveRooms.viewerCount), desc(liveRooms.id))
    .limit(Math.min(Math.max(count, 1), 50));
}

/** Broadcasts that have ended with a 回放 (or one on its way), the latest first. */
export async function pastLives(count = 24): Promise<LiveRoomCard[]> {
  return selectRooms()
    .where(
      and(
        eq(liveRooms.status, 'ended'),
        sql`(${liveRooms.media} <> '' or ${liveRooms.replayVideoId} is not null or ${liveRooms.recording})`,
      ),
    )
    .orderBy(desc(liveRooms.startedAt), desc(liveRooms.id))
    .limit(Math.min(Math.max(count, 1), 50));
}

/** The rooms on air with their counts and pictures, for /live's refresh. */
export async function liveNowPictures(): Promise<{ id: number; viewers: number; picture: string; paused: boolean }[]> {
  const rooms = await liveNow(50);
  return rooms.map((r) => ({ id: r.id, viewers: r.viewerCount, picture: mediaUrl(roomPicture(r)), paused: r.paused }));
}

/** The host ids among `userIds` who are on air now, with their room. */
export async function liveHostsAmong(userIds: number[]): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db()
    .select({ hostId: liveRooms.hostId, id: liveRooms.id })
    .from(liveRooms)
    .where(and(eq(liveRooms.status, 'live'), inArray(liveRooms.hostId, userIds)));
  return new Map(rows.map((r) => [r.hostId, r.id]));
}

/** The rooms of `ids` as cards, in no particular order (an unknown id is left out). */
export async function roomsByIds(ids: number[]): Promise<LiveRoomCard[]> {
  if (ids.length === 0) return [];
  return selectRooms().where(inArray(liveRooms.id, ids));
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

/** Rooms on air whose host `viewerId` follows, the latest start first, paged by offset. */
export async function liveOfFollowed(viewerId: number, page: Page = {}): Promise<Paged<LiveRoomCard>> {
  const { offset, limit } = bounds(page, 20);
  const rows = await selectRooms()
    .where(
      and(
        eq(liveRooms.status, 'live'),
        sql`${liveRooms.hostId} in (select ${follows.followeeId} from ${follows} where ${follows.followerId} = ${viewerId})`,
      ),
    )
    .orderBy(desc(liveRooms.startedAt), desc(liveRooms.id))
    .limit(limit + 1)
    .offset(offset);
  return toPage(rows, offset, limit);
}

/** One room, on air or ended; null when unknown. */
export async function getRoom(id: number): Promise<LiveRoomCard | null> {
  maybeSweep();
  const [row] = await selectRooms().where(eq(liveRooms.id, id));
  return row ?? null;
}

export interface Replay {
  /** The 回放 work, or null for a seeded past broadcast (its recording is the room's own clip). */
  workId: number | null;
  media: string;
  poster: string;
}

/** What an ended room plays as its 回放: its published work, or the seeded clip; null while there is none (yet). */
export async function getReplay(room: LiveRoomCard): Promise<Replay | null> {
  if (room.live) return null;
  if (room.replayVideoId !== null) {
    const [v] = await db()
      .select({ media: videos.media, poster: videos.poster })
      .from(videos)
      .where(and(eq(videos.id, room.replayVideoId), eq(videos.status, 'published'), isNull(videos.deletedAt)));
    return v ? { workId: room.replayVideoId, media: v.media, poster: v.poster } : null;
  }
  return room.media ? { workId: null, media: room.media, poster: roomPicture(room) } : null;
}

/** Chat lines a room page starts with. */
const CHAT_BACKLOG = 50;

export interface ChatMessage {
  id: number;
  roomId: number;
  text: string;
  createdAt: Date;
  user: { secUid: string; nickname: string; avatar: string };
}

function selectMessages() {
  return db()
    .select({
      id: liveMessages.id,
      roomId: liveMessages.roomId,
      text: liveMessages.text,
      createdAt: liveMessages.createdAt,
      user: { secUid: users.secUid, nickname: users.nickname, avatar: users.avatar },
    })
    .from(liveMessages)
    .innerJoin(users, eq(users.id, liveMessages.userId))
    .$dynamic();
}

/** The room's latest chat lines, oldest first. */
export async function recentMessages(roomId: number, count = CHAT_BACKLOG): Promise<ChatMessage[]> {
  const rows = await selectMessages()
    .where(eq(liveMessages.roomId, roomId))
    .orderBy(desc(liveMessages.id))
    .limit(Math.min(Math.max(count, 1), 200));
  return rows.reverse();
}

/** Chat lines after `afterId` (a reconnecting stream's Last-Event-ID), oldest first, at most a backlog's worth. */
export async function messagesSince(roomId: number, afterId: number): Promise<ChatMessage[]> {
  return selectMessages()
    .where(and(eq(liveMessages.roomId, roomId), gt(liveMessages.id, afterId)))
    .orderBy(asc(liveMessages.id))
    .limit(CHAT_BACKLOG);
}

/** Hub event type of a chat line (data: ChatMessage) and of the viewer count (data: { count }). */
export const CHAT_EVENT = 'chat';
const VIEWERS_EVENT = 'viewers';

/** Says `text` in a room on air; every viewer's stream gets it once the line is stored. */
export async function postMessage(userId: number, roomId: number, text: string): Promise<ChatMessage> {
  const body = text.trim();
  if (body === '') throw invalid('error.chatEmpty');
  if ([...body].length > CHAT_MAX) throw invalid('error.chatTooLong', { max: CHAT_MAX });
  await assertCanSpeak(userId);
  return db().transaction(async (tx) => {
    const [room] = await tx.select({ status: liveRooms.status }).from(liveRooms).where(eq(liveRooms.id, roomId));
    if (!room) throw notFound('error.liveRoomNotFound');
    if (room.status !== 'live') throw new ServiceError('conflict', 'live.ended');
    const [row] = await tx
      .insert(liveMessages)
      .values({ roomId, userId, text: body })
      .returning({ id: liveMessages.id, createdAt: liveMessages.createdAt });
    const [user] = await tx
      .select({ secUid: users.secUid, nickname: users.nickname, avatar: users.avatar })
      .from(users)
      .where(eq(users.id, userId));
    if (!row || !user) throw notFound('error.userNotFound');
    const message: ChatMessage = { id: row.id, roomId, text: body, createdAt: row.createdAt, user };
    // Delivered on commit, so nobody sees a line that was rolled back.
    await publish(roomTopic(roomId), { type: CHAT_EVENT, id: String(row.id), data: message }, tx);
    return message;
  });
}

/** This process in live_presence: the viewers it counted in, and the heartbeat that says it still serves them. */
let instance = randomUUID();
/** A process heartbeats its presence rows this often, and rows older than PRESENCE_STALE_MS are swept. */
const PRESENCE_BEAT_MS = 20_000;
const PRESENCE_STALE_MS = 60_000;
let beat: ReturnType<typeof setInterval> | undefined;
let lastSweep = 0;

/** Tests play two processes in one: a new identity, as a restarted server would have. */
export function newPresenceInstance(): string {
  instance = randomUUID();
  return instance;
}

function heartbeat(): void {
  if (beat) return;
  beat = setInterval(() => {
    void db()
      .update(livePresence)
      .set({ seenAt: sql`now()` })
      .where(eq(livePresence.instance, instance))
      .then(() => sweepPresence())
      .catch(() => {});
  }, PRESENCE_BEAT_MS);
  beat.unref();
}

/**
 * Takes the viewers of processes that stopped heartbeating (killed without closing their streams) back off their
 * rooms' counts, and tells each room's viewers the corrected count. Answers how many viewers were removed.
 */
export async function sweepPresence(staleMs = PRESENCE_STALE_MS): Promise<number> {
  lastSweep = Date.now();
  const moved = await db().transaction(async (tx) => {
    const dead = await tx
      .delete(livePresence)
      .where(lt(livePresence.seenAt, sql`now() - make_interval(secs => ${staleMs / 1000})`))
      .returning({ roomId: livePresence.roomId, viewers: livePresence.viewers });
    const perRoom = new Map<number, number>();
    for (const d of dead) perRoom.set(d.roomId, (perRoom.get(d.roomId) ?? 0) + d.viewers);
    let total = 0;
    for (const [roomId, n] of perRoom) {
      total += n;
      const [row] = await tx
        .update(liveRooms)
        .set({ viewerCount: sql`greatest(${liveRooms.viewerCount} - ${n}, 0)` })
        .where(eq(liveRooms.id, roomId))
        .returning({ count: liveRooms.viewerCount });
      if (row) await publish(roomTopic(roomId), { type: VIEWERS_EVENT, data: { count: row.count } }, tx);
    }
    return total;
  });
  return moved;
}

/** Sweeps at most every PRESENCE_BEAT_MS per process, from the paths that show counts. */
function maybeSweep(): void {
  if (Date.now() - lastSweep < PRESENCE_BEAT_MS) return;
  lastSweep = Date.now();
  void sweepPresence().catch(() => {});
}

async function moveViewers(roomId: number, delta: 1 | -1): Promise<number | null> {
  heartbeat();
  maybeSweep();
  return db().transaction(async (tx) => {
    let counted = true;
    if (delta === -1) {
      // Only a viewer this process counted in can leave: if its share was swept, the count already lost them.
      const [share] = await tx
        .update(livePresence)
        .set({ viewers: sql`${livePresence.viewers} - 1`, seenAt: sql`now()` })
        .where(and(eq(livePresence.instance, instance), eq(livePresence.roomId, roomId), gt(livePresence.viewers, 0)))
        .returning({ viewers: livePresence.viewers });
      counted = share !== undefined;
      if (share?.viewers === 0) {
        await tx
          .delete(livePresence)
          .where(
            and(eq(livePresence.instance, instance), eq(livePresence.roomId, roomId), eq(livePresence.viewers, 0)),
          );
      }
    }
    const [row] = await tx
      .update(liveRooms)
      .set({ viewerCount: sql`greatest(${liveRooms.viewerCount} + ${counted ? delta : 0}, 0)` })
      .where(and(eq(liveRooms.id, roomId), eq(liveRooms.status, 'live')))
      .returning({ count: liveRooms.viewerCount });
    if (!row) return null;
    if (delta === 1) {
      await tx
        .insert(livePresence)
        .values({ instance, roomId, viewers: 1 })
        .onConflictDoUpdate({
          target: [livePresence.instance, livePresence.roomId],
          set: { viewers: sql`${livePresence.viewers} + 1`, seenAt: sql`now()` },
        });
    }
    if (counted) await publish(roomTopic(roomId), { type: VIEWERS_EVENT, data: { count: row.count } }, tx);
    return row.count;
  });
}

/** Counts one more viewer of a room on air (a stream opened); answers the new count, null when not on air. */
export function joinRoom(roomId: number): Promise<number | null> {
  return moveViewers(roomId, 1);
}

/** Counts one viewer less (their stream closed). */
export function leaveRoom(roomId: number): Promise<number | null> {
  return moveViewers(roomId, -1);
}
