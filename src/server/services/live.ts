/** Live rooms: reading them, their chat (real time through the event hub) and who is watching. */
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gt, lt, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import { follows, liveMessages, livePresence, liveRooms, users } from '../db/schema.ts';
import { CHAT_MAX } from '../../shared/chat-line.ts';
import { publish, roomTopic } from '../realtime/events.ts';
import { invalid, notFound, ServiceError } from './errors.ts';
import { bounds, toPage, type Page, type Paged } from './video-cards.ts';
import { assertCanSpeak } from '../staff/sanctions.ts';

/** Chat lines one user may send in a live room per 10 s. */
export const LIVE_CHAT_RATE = { limit: 10, windowMs: 10_000 };

export interface LiveRoomCard {
  id: number;
  title: string;
  cover: string;
  media: string;
  /**
   * 人在看, the one number every page and API shows: live_rooms.viewer_count, which is the streams open on the room now
   * (joinRoom/leaveRoom, and swept off when their server stops heartbeating) plus, for a seeded room, the audience it
   * was seeded with (at most SEED_VIEWERS_PER_CHATTER per user who chatted in it). 0 once the room has ended.
   */
  viewerCount: number;
  channelId: number;
  startedAt: Date;
  host: { secUid: string; nickname: string; avatar: string };
  /** Still on air (an ended room keeps its page and its last chat lines). */
  live: boolean;
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
      live: sql<boolean>`${liveRooms.status} = 'live'`,
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
