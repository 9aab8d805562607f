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
 * Raises a write's signal here, then on every other app server. `videos` are the ids of the videos it wrote to;
 * `member`, when given, is who wrote it (member-writes.ts).
 */
export function announceWrite(videos: readonly number[], member?: number): void {
  anonymousContentChanged(videos);
  if (member !== undefined) memberWrote(member);
  tellOthers({ from: PROCESS_ID, videos, member });
}

/** Raises a write that only its writer sees (their settings, their mutes) here and on every other app server. */
export function announceMemberWrite(member: number): void {
  memberWrote(member);
  tellOthers({ from: PROCESS_ID, member });
}

function tellOthers(data: { from: string; videos?: readonly number[]; member?: number | undefined }): void {
  publish(WRITES_TOPIC, { type: 'changed', data }).catch((error: unknown) =>
    logLine('warn', 'shared writes: could not tell the other servers', { error }),
  );
}

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;

/** The video ids of a notification's data, or undefined when it is not one of ours. */
function videosOf(data: unknown): number[] | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { videos } = data as { videos?: unknown };
  if (!Array.isArray(videos) || videos.length > MAX_VIDEOS) return undefined;
  return videos.every(isId) ? videos : undefined;
}

/** The writer a notification names, or undefined. */
function memberOf(data: unknown): number | undefined {
  const member = (data as { member?: unknown } | null)?.member;
  return isId(member) ? member : undefined;
}

/** Raises the signal here for every write another app server announces, until the returned function is called. */
export function followOtherServers(events: EventHub = hub(), self: string = PROCESS_ID): () => void {
  return events.subscribe([WRITES_TOPIC], (event) => {
    if ((event.data as { from?: unknown } | null)?.from === self) return;
    const videos = videosOf(event.data);
    if (videos) anonymousContentChanged(videos);
    const member = memberOf(event.data);
    if (member !== undefined) memberWrote(member);
  });
}
