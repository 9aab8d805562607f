/**
 * Broadcasts as the database keeps them: one live_rooms row from the first frame a host publishes until 30 s after
 * their publisher last left (主播暂时离开 meanwhile; coming back within that time continues the same room), the
 * figures the ingesting server measures, the frame shown on /live, 点赞, and the 回放 work once recorded.
 * Every change of state is told to the room's viewers through the event hub, so it reaches every app server.
 */
import { and, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { db } from '../db/client.ts';
import type { DbOrTx } from '../db/types.ts';
import { liveHosts, livePresence, liveRooms, notifications, type LiveIngest } from '../db/schema.ts';
import { publish, roomTopic, userTopic } from '../realtime/events.ts';
import { ServiceError, notFound } from '../errors.ts';
import { getSettings } from './live-hosts.ts';

/** A publisher that left may come back within this long and continue the same broadcast. */
export const LIVE_RESUME_MS = 30_000;
/** A broadcast whose ingesting server has not reported for this long is taken as paused (that server died). */
export const LIVE_INGEST_STALE_MS = 20_000;
/** The sweep ends a paused broadcast this long after the holding server would have (that server died). */
const LIVE_SWEEP_GRACE_MS = 15_000;
/** Batches of hearts one viewer may send per 10 s (the page gathers taps for a moment, LIKE_BATCH_MAX at most). */
export const LIVE_LIKE_RATE = { limit: 30, windowMs: 10_000 };

/** Hub events of a room besides chat and viewers: its state, and its heart count. */
export const STATE_EVENT = 'state';
export const LIKE_EVENT = 'like';

export type BroadcastState = 'live' | 'paused' | 'ended';

export interface StateEvent {
  state: BroadcastState;
  /** The 回放 work, once there is one. */
  replayId?: number;
}

async function announceState(roomId: number, data: StateEvent, q: DbOrTx): Promise<void> {
  await publish(roomTopic(roomId), { type: STATE_EVENT, data }, q);
}

export interface Began {
  roomId: number;
  /** The publisher came back within LIVE_RESUME_MS: the same broadcast goes on. */
  resumed: boolean;
  recording: boolean;
}

/**
 * Puts `userId` on air from the server at `origin`: continues their paused broadcast, or starts a new one from their
 * settings and tells their followers (开播了). Refused with `live.refused.busy` while a publisher of theirs is on air.
 */
export async function beginBroadcast(userId: number, origin: string): Promise<Began> {
  const settings = await getSettings(userId);
  return db().transaction(async (tx) => {
    // One host's publishes are decided one at a time, whichever server they reached.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`live-host:${userId}`}, 0))`);
    const [on] = await tx
      .select({ id: liveRooms.id, pausedAt: liveRooms.pausedAt, recording: liveRooms.recording })
      .from(liveRooms)
      .where(and(eq(liveRooms.hostId, userId), eq(liveRooms.status, 'live')));
    if (on && on.pausedAt === null) throw new ServiceError('conflict', 'live.refused.busy');
    if (on) {
      await tx.update(liveRooms).set({ pausedAt: null, origin, ingest: null }).where(eq(liveRooms.id, on.id));
      await announceState(on.id, { state: 'live' }, tx);
      return { roomId: on.id, resumed: true, recording: on.recording };
    }
    const [room] = await tx
      .insert(liveRooms)
      .values({
        hostId: userId,
        channelId: settings.channelId,
        title: settings.title,
        cover: settings.cover,
        media: '',
        status: 'live',
        recording: settings.record,
        origin,
      })
      .returning({ id: liveRooms.id });
    await notifyFollowers(tx, userId, room!.id, settings.title);
    return { roomId: room!.id, resumed: false, recording: settings.record };
  });
}

/** 开播了: one notification per follower who has not turned them off or blocked the host. */
async function notifyFollowers(tx: DbOrTx, hostId: number, roomId: number, title: string): Promise<void> {
  const told = await tx.execute<{ user_id: number }>(sql`
    insert into ${notifications} (user_id, actor_id, kind, room_id, text)
    select f.follower_id, ${hostId}, 'live', ${roomId}, ${title}
    from follows f join users u on u.id = f.follower_id
    where f.followee_id = ${hostId}
      and (u.notify_settings -> 'live') is distinct from 'false'::jsonb
      and not exists (select 1 from blocks b where b.blocker_id = f.follower_id and b.blocked_id = ${hostId})
    returning user_id`);
  for (const r of told.rows) await publish(userTopic(r.user_id), { type: 'notice', data: null }, tx);
}

/** The host's publisher left: 主播暂时离开 until it comes back or LIVE_RESUME_MS pass. */
export async function pauseBroadcast(roomId: number): Promise<void> {
  await db().transaction(async (tx) => {
    const paused = await tx
      .update(liveRooms)
      .set({ pausedAt: sql`now()`, origin: null })
      .where(and(eq(liveRooms.id, roomId), eq(liveRooms.status, 'live'), isNull(liveRooms.pausedAt)))
      .returning({ id: liveRooms.id });
    if (paused.length > 0) await announceState(roomId, { state: 'paused' }, tx);
  });
}

export interface Ended {
  roomId: number;
  hostId: number;
  title: string;
  channelId: number;
  recording: boolean;
}

/**
 * Ends a broadcast (直播已结束); null when it had already ended. With `pausedForMs`, only one whose publisher has been
 * gone about that long (one that came back, through any server, goes on).
 */
export async function endBroadcast(roomId: number, pausedForMs?: number): Promise<Ended | null> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .update(liveRooms)
      .set({ status: 'ended', endedAt: sql`now()`, pausedAt: null, origin: null, viewerCount: 0 })
      .where(
        and(
          eq(liveRooms.id, roomId),
          eq(liveRooms.status, 'live'),
          pausedForMs === undefined
            ? undefined
            : lt(liveRooms.pausedAt, sql`now() - make_interval(secs => ${Math.max(pausedForMs - 1000, 0) / 1000})`),
        ),
      )
      .returning({
        roomId: liveRooms.id,
        hostId: liveRooms.hostId,
        title: liveRooms.title,
        channelId: liveRooms.channelId,
        recording: liveRooms.recording,
      });
    if (!row) return null;
    await tx.delete(livePresence).where(eq(livePresence.roomId, roomId));
    await announceState(roomId, { state: 'ended' }, tx);
    return row;
  });
}

/**
 * Ends the broadcasts whose publisher has been gone longer than LIVE_RESUME_MS, and pauses those whose ingesting
 * server stopped reporting (it died with them). Any server may run it; answers the rooms it ended.
 */
export async function sweepBroadcasts(): Promise<number[]> {
  const stale = await db()
    .select({ id: liveRooms.id })
    .from(liveRooms)
    .where(
      and(
        eq(liveRooms.status, 'live'),
        isNull(liveRooms.pausedAt),
        sql`coalesce((${liveRooms.ingest} ->> 'at')::bigint, extract(epoch from ${liveRooms.startedAt}) * 1000) < ${Date.now() - LIVE_INGEST_STALE_MS}`,
      ),
    );
  for (const r of stale) await pauseBroadcast(r.id);
  const gone = await db()
    .select({ id: liveRooms.id })
    .from(liveRooms)
    .where(
      and(
        eq(liveRooms.status, 'live'),
        isNotNull(liveRooms.pausedAt),
        // Later than the holding server's own timer, which publishes the recording: this is for a server that died.
        lt(liveRooms.pausedAt, sql`now() - make_interval(secs => ${(LIVE_RESUME_MS + LIVE_SWEEP_GRACE_MS) / 1000})`),
      ),
    );
  const ended: number[] = [];
  for (const r of gone) if (await endBroadcast(r.id)) ended.push(r.id);
  return ended;
}

/** The ingesting server's latest figures (also its heartbeat: `at`). */
export async function reportIngest(roomId: number, ingest: Omit<LiveIngest, 'at'>): Promise<void> {
  await db()
    .update(liveRooms)
    .set({ ingest: { ...ingest, at: Date.now() } })
    .where(and(eq(liveRooms.id, roomId), eq(liveRooms.status, 'live')));
}

/** Stores the newest frame of a broadcast; answers the key it replaces (to delete), or null. */
export async function setThumb(roomId: number, key: string): Promise<string | null> {
  const [old] = await db().select({ thumb: liveRooms.thumb }).from(liveRooms).where(eq(liveRooms.id, roomId));
  await db().update(liveRooms).set({ thumb: key }).where(eq(liveRooms.id, roomId));
  return old?.thumb ?? null;
}

/** 点赞: adds `n` hearts to a room on air and tells its viewers the new count. */
export async function likeRoom(roomId: number, n: number, tab?: string): Promise<number> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .update(liveRooms)
      .set({ likeCount: sql`${liveRooms.likeCount} + ${n}` })
      .where(and(eq(liveRooms.id, roomId), eq(liveRooms.status, 'live')))
      .returning({ count: liveRooms.likeCount });
    if (!row) {
      const [exists] = await tx.select({ id: liveRooms.id }).from(liveRooms).where(eq(liveRooms.id, roomId));
      throw exists ? new ServiceError('conflict', 'live.ended') : notFound('error.liveRoomNotFound');
    }
    await publish(roomTopic(roomId), { type: LIKE_EVENT, data: { count: row.count, n, tab } }, tx);
    return row.count;
  });
}

/** Links a broadcast to the work its recording became (回放); its viewers hear of it once it is published. */
export async function attachReplay(roomId: number, videoId: number): Promise<void> {
  await db().update(liveRooms).set({ replayVideoId: videoId }).where(eq(liveRooms.id, roomId));
}

/** A work was published: if it is a broadcast's 回放, tell anyone still on that room's page (on commit of `tx`). */
export async function announceReplay(tx: DbOrTx, videoId: number): Promise<void> {
  const rooms = await tx.select({ id: liveRooms.id }).from(liveRooms).where(eq(liveRooms.replayVideoId, videoId));
  for (const r of rooms) await announceState(r.id, { state: 'ended', replayId: videoId }, tx);
}

/** The broadcast of `userId` on air now (paused or not), or null. */
export async function currentBroadcast(userId: number): Promise<{
  id: number;
  pausedAt: Date | null;
  startedAt: Date;
  ingest: LiveIngest | null;
  thumb: string | null;
  likeCount: number;
  viewerCount: number;
} | null> {
  const [row] = await db()
    .select({
      id: liveRooms.id,
      pausedAt: liveRooms.pausedAt,
      startedAt: liveRooms.startedAt,
      ingest: liveRooms.ingest,
      thumb: liveRooms.thumb,
      likeCount: liveRooms.likeCount,
      viewerCount: liveRooms.viewerCount,
    })
    .from(liveRooms)
    .where(and(eq(liveRooms.hostId, userId), eq(liveRooms.status, 'live')));
  return row ?? null;
}

/** The host's cover for their next broadcasts, also put on the one on air. */
export async function setCover(userId: number, key: string): Promise<void> {
  await db().transaction(async (tx) => {
    await tx
      .insert(liveHosts)
      .values({ userId, cover: key })
      .onConflictDoUpdate({ target: liveHosts.userId, set: { cover: key } });
    await tx
      .update(liveRooms)
      .set({ cover: key })
      .where(and(eq(liveRooms.hostId, userId), eq(liveRooms.status, 'live')));
  });
}
