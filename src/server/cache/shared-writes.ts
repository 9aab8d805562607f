/**
 * Writes told to every app server on the database, not only the one that took them: a write's signal
 * (anonymous-content.ts) is raised here at once and published on the real-time channel (realtime/events.ts,
 * pg_notify), and each server that follows the channel raises it for the writes of the others. Without it a comment
 * taken by one server showed on another's cached pages only once their copies expired (5 s fresh, then a visit).
 * Delivery is best effort: a notification lost while a server's LISTEN connection is down costs no more than that
 * expiry, which still bounds how long a copy lives.
 */
import { randomUUID } from 'node:crypto';
import { hub, publish, type EventHub } from '../realtime/events.ts';
import { logLine } from '../log.ts';
import { anonymousContentChanged } from './anonymous-content.ts';
import { memberWrote } from './member-writes.ts';

/** The channel's topic of writes that change what anonymous visitors see. */
export const WRITES_TOPIC = 'anonymous-content';
/** Video ids one notification carries at most (a write names one; more would be a malformed payload). */
const MAX_VIDEOS = 100;

/** This process, so that it skips its own writes when they come back on the channel. */
const PROCESS_ID = randomUUID();

/**
 * How long a write's notification waits for others to go out with it. One per write cost every write a NOTIFY, and
 * PostgreSQL takes one lock for every notifying commit; a busy site's writes (watch progress, likes, read marks) now
 * share one notification per window, and another server learns of a write this much later at most.
 */
export const BATCH_MS = 10;
/** Writers one notification names at most (the payload stays far below NOTIFY's 8,000 bytes). */
const MAX_MEMBERS = 500;

/** The writes waiting to be told to the other servers: `shared` when any of them changed what visitors see. */
const pending = { shared: false, videos: new Set<number>(), members: new Set<number>() };
let flushTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Raises a write's signal here, then on every other app server. `videos` are the ids of the videos it wrote to;
 * `member`, when given, is who wrote it (member-writes.ts).
 */
export function announceWrite(videos: readonly number[], member?: number): void {
  anonymousContentChanged(videos);
  if (member !== undefined) memberWrote(member);
  pending.shared = true;
  for (const id of videos) pending.videos.add(id);
  tellOthers(member);
}

/** Raises a write that only its writer sees (their settings, their mutes) here and on every other app server. */
export function announceMemberWrite(member: number): void {
  memberWrote(member);
  tellOthers(member);
}

function tellOthers(member: number | undefined): void {
  if (member !== undefined) pending.members.add(member);
  flushTimer ??= setTimeout(flush, BATCH_MS);
}

/** Sends what waits, in as many notifications as its size needs. */
function flush(): void {
  flushTimer = undefined;
  const videos = [...pending.videos];
  const members = [...pending.members];
  const shared = pending.shared;
  pending.shared = false;
  pending.videos.clear();
  pending.members.clear();
  const parts = Math.max(1, Math.ceil(videos.length / MAX_VIDEOS), Math.ceil(members.length / MAX_MEMBERS));
  for (let i = 0; i < parts; i++) {
    const part = {
      from: PROCESS_ID,
      // A notification with `videos` (even none) tells the anonymous caches that something changed.
      ...(shared ? { videos: videos.slice(i * MAX_VIDEOS, (i + 1) * MAX_VIDEOS) } : {}),
      members: members.slice(i * MAX_MEMBERS, (i + 1) * MAX_MEMBERS),
    };
    publish(WRITES_TOPIC, { type: 'changed', data: part }).catch((error: unknown) =>
      logLine('warn', 'shared writes: could not tell the other servers', { error }),
    );
  }
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** The video ids of a notification's data, or undefined when it is not one of ours. */
function videosOf(data: unknown): number[] | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { videos } = data as { videos?: unknown };
  if (!Array.isArray(videos) || videos.length > MAX_VIDEOS) return undefined;
  return videos.every(isId) ? videos : undefined;
}

/** The writers a notification names (none when it is not one of ours). */
function membersOf(data: unknown): number[] {
  const { members } = (data ?? {}) as { members?: unknown };
  if (!Array.isArray(members) || members.length > MAX_MEMBERS) return [];
  return members.every(isId) ? members : [];
}

/** Raises the signal here for every write another app server announces, until the returned function is called. */
export function followOtherServers(events: EventHub = hub(), self: string = PROCESS_ID): () => void {
  return events.subscribe([WRITES_TOPIC], (event) => {
    if ((event.data as { from?: unknown } | null)?.from === self) return;
    const videos = videosOf(event.data);
    if (videos) anonymousContentChanged(videos);
    for (const member of membersOf(event.data)) memberWrote(member);
  });
}
