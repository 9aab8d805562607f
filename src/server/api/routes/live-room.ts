/** Real-time doors: a user's own event stream, a live room's stream, and saying something in its chat. */
import { z } from 'zod';
import { toChatLine } from '../../island-data.ts';
import { unreadCount } from '../../services/notifications.ts';
import { DM_EVENT, type DmHubData } from '../../services/messages.ts';
import {
  CHAT_EVENT,
  getRoom,
  joinRoom,
  leaveRoom,
  LIVE_CHAT_RATE,
  messagesSince,
  postMessage,
  type ChatMessage,
  type LiveRoomCard,
} from '../../services/live.ts';
import { noteLiveWatch } from '../../services/live-history.ts';
import { enforce } from '../../services/rate-limit.ts';
import { LIKE_EVENT, likeRoom, LIVE_LIKE_RATE, STATE_EVENT, type StateEvent } from '../../services/live-broadcasts.ts';
import { liveNowPictures } from '../../services/live.ts';
import { LIKE_BATCH_MAX, LIVE_API } from '../../../shared/live.ts';
import { CHAT_MAX } from '../../../shared/chat-line.ts';
import { roomTopic, streamEvents, userTopic, type HubEvent, type SseMessage } from '../../realtime/events.ts';
import { ApiError, okB } from '../envelope.ts';
import { id, int, text } from '../params.ts';
import { route } from '../registry.ts';
import { bodyB } from '../schemas.ts';
import { dmEvent } from './im.ts';

const eventStream = z.custom<Response>((v) => v instanceof Response).describe('text/event-stream');

/** A chat line (src/shared/chat-line.ts). */
const chatMessage = z.object({
  id: z.string(),
  roomId: z.string(),
  text: z.string(),
  /** Unix milliseconds. */
  createTime: z.number().int(),
  user: z.object({ secUid: z.string(), nickname: z.string(), avatar: z.string() }),
});

function roomEvent(e: HubEvent): SseMessage {
  if (e.type === CHAT_EVENT) return { event: CHAT_EVENT, id: e.id, data: toChatLine(e.data as ChatMessage) };
  return { event: e.type, data: e.data };
}

/** Where a room stands, as its `state` events say it. */
function roomState(room: LiveRoomCard): StateEvent {
  if (!room.live)
    return room.replayVideoId === null ? { state: 'ended' } : { state: 'ended', replayId: room.replayVideoId };
  return { state: room.paused ? 'paused' : 'live' };
}

/** The id a reconnecting EventSource resumes from. */
function lastEventId(request: Request): number {
  const raw = request.headers.get('last-event-id') ?? '';
  return /^\d{1,10}$/.test(raw) ? Number(raw) : 0;
}

export const liveRoomRoutes = [
  route({
    method: 'GET',
    path: '/events',
    family: 'B',
    auth: true,
    summary:
      'Server-Sent Events for the logged-in user: `notice` {unread} and `dm` {unread, conversation_id, message, alert}, at once and whenever they change',
    input: z.object({}),
    response: eventStream,
    handler: async ({ request, viewer }) => {
      const unread = async (): Promise<SseMessage> => ({
        event: 'notice',
        data: { unread: await unreadCount(viewer.id) },
      });
      return streamEvents(request, viewer, [userTopic(viewer.id)], {
        initial: async () => [await unread(), { event: DM_EVENT, data: await dmEvent(viewer.id, null) }],
        // A notice event says only that something changed; the count is read for this user.
        map: async (e) => {
          if (e.type === 'notice') return unread();
          // A dm event names the change; the badge and the message are read as this viewer sees them.
          if (e.type === DM_EVENT) return { event: DM_EVENT, data: await dmEvent(viewer.id, e.data as DmHubData) };
          return { event: e.type, data: e.data, id: e.id };
        },
      });
    },
  }),
  route({
    method: 'GET',
    path: '/live/room/events',
    family: 'B',
    auth: false,
    summary:
      'Server-Sent Events of a live room: `chat` lines (id = the line id; Last-Event-ID replays what was missed), `viewers` {count}, and `state` {state, replayId?}: at once, then whenever the host leaves, comes back or ends',
    input: z.object({ room_id: id() }),
    response: eventStream,
    handler: async ({ input, request, viewer }) => {
      const room = await getRoom(input.room_id);
      if (!room) throw new ApiError(404, 'error.liveRoomNotFound');
      const after = lastEventId(request);
      let joined = false;
      return streamEvents(request, viewer, [roomTopic(room.id)], {
        initial: async () => {
          // Read again now that the stream listens: the page may be a shared copy from before the host left or ended,
          // and a change between that copy and this subscription would otherwise never reach the player.
          const now = (await getRoom(room.id)) ?? room;
          const missed = after > 0 ? await messagesSince(now.id, after) : [];
          const count = now.live ? await joinRoom(now.id) : null;
          joined = count !== null;
          // A member who opens the room has watched it (观看历史 → 直播).
          if (viewer && now.live) await noteLiveWatch(viewer.id, now.id);
          return [
            ...missed.map((m) => ({ event: CHAT_EVENT, id: String(m.id), data: toChatLine(m) })),
            { event: 'viewers', data: { count: count ?? now.viewerCount } },
            { event: STATE_EVENT, data: roomState(now) },
          ];
        },
        map: roomEvent,
        onClose: () => {
          if (joined) void leaveRoom(room.id).catch(() => {});
        },
      });
    },
  }),
  route({
    method: 'POST',
    path: '/live/room/chat',
    family: 'B',
    auth: true,
    summary: `Say something in a live room's chat (at most ${CHAT_MAX} characters, ${LIVE_CHAT_RATE.limit} lines per ${LIVE_CHAT_RATE.windowMs / 1000} s); every viewer's stream gets it`,
    input: z.object({ room_id: id(), text: text(1, CHAT_MAX) }),
    response: bodyB(chatMessage),
    handler: async ({ input, viewer }) => {
      await enforce(`live-chat:${viewer.id}`, LIVE_CHAT_RATE.limit, LIVE_CHAT_RATE.windowMs);
      return okB(toChatLine(await postMessage(viewer.id, input.room_id, input.text)));
    },
  }),
  route({
    method: 'POST',
    path: LIVE_API.like.replace(/^\/api/, ''),
    family: 'B',
    auth: true,
    summary: `点赞 a room on air: count taps (1-${LIKE_BATCH_MAX}) in one batch, ${LIVE_LIKE_RATE.limit} batches per ${LIVE_LIKE_RATE.windowMs / 1000} s; every viewer's stream gets \`${LIKE_EVENT}\` {count, n}`,
    input: z.object({
      room_id: id(),
      count: int(1, LIKE_BATCH_MAX).default(1),
      // The sending tab, echoed in the event so that it does not float its own hearts twice.
      tab: z
        .string()
        .regex(/^[a-z0-9]{1,16}$/)
        .optional(),
    }),
    response: bodyB(z.object({ count: z.number().int() })),
    handler: async ({ input, viewer }) => {
      await enforce(`live-like:${viewer.id}`, LIVE_LIKE_RATE.limit, LIVE_LIKE_RATE.windowMs);
      return okB({ count: await likeRoom(input.room_id, input.count, input.tab) });
    },
  }),
  route({
    method: 'GET',
    path: LIVE_API.now.replace(/^\/api/, ''),
    family: 'B',
    auth: false,
    anonymousCacheMs: 2_000,
    summary: `The rooms on air with their viewers and latest picture (for /live to refresh every few seconds); a room's stream also carries \`${STATE_EVENT}\` {state, replayId}`,
    input: z.object({}),
    response: bodyB(
      z.array(z.object({ id: z.number().int(), viewers: z.number().int(), picture: z.string(), paused: z.boolean() })),
    ),
    handler: async () => okB(await liveNowPictures()),
  }),
];
