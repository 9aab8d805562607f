/** 私信 (Family A, logged in): conversations, messages, settings, read marks, blocking and reports. */
import { z } from 'zod';
import {
  REPORT_REASONS,
  REPORT_TARGETS,
  type ImConversation,
  type ImConversationState,
  type ImMessage,
  type ImUser,
  type InboxEvents,
} from '../../../shared/messaging.ts';
import { setBlock } from '../../services/blocks.ts';
import {
  clearConversation,
  conversationState,
  conversationWith,
  dmEventFor,
  hideMessage,
  IM_WRITE_LIMIT,
  listConversations,
  listMessages,
  markRead,
  messageFor,
  MESSAGE_BURST,
  MESSAGE_HOURLY,
  sendMessage,
  setMessageLike,
  totalUnread,
  updateSettings,
  type ConversationState,
  type DmHubData,
  type ImPeer,
  type MessageView,
} from '../../services/messages.ts';
import { fileReport, REPORT_DAILY } from '../../services/reports.ts';
import { getBySecUid } from '../../services/users.ts';
import { ApiError, okA } from '../envelope.ts';
import { once } from '../idempotency.ts';
import { count, cursor, flag, id, int, INT4_MAX, secUid } from '../params.ts';
import { route } from '../registry.ts';
import { bit, bodyA, imUser, nextCursor } from '../schemas.ts';
import { asBit, imUser as shapeImUser } from '../shape.ts';

const n = () => z.number().int();
const IM = '/aweme/v1/web/im';

const imUserSchema = imUser satisfies z.ZodType<ImUser>;

export const imMessage = z.object({
  message_id: z.string(),
  conversation_id: z.string(),
  sender: z.string(),
  is_self: bit,
  text: z.string(),
  create_time: n(),
  digg: bit,
  reply_to: z.object({ message_id: z.string(), text: z.string(), nickname: z.string() }).nullable(),
}) satisfies z.ZodType<ImMessage>;

const blockStatusSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);

export const imConversationState = z.object({
  conversation_id: z.string(),
  peer: imUserSchema,
  mute: bit,
  stick_on_top: bit,
  restricted: bit,
  can_send: bit,
  block_status: blockStatusSchema,
}) satisfies z.ZodType<ImConversationState>;

export const imConversation = z.object({
  conversation_id: z.string(),
  peer: imUserSchema,
  last_message: z.object({ text: z.string(), create_time: n(), is_self: bit }).nullable(),
  unread_count: n(),
  mute: bit,
  stick_on_top: bit,
  update_time: n(),
}) satisfies z.ZodType<ImConversation>;

const toUser = (p: ImPeer): ImUser => shapeImUser(p, p.following, p.followedBy);

/** A message as `viewerId` sees it. */
export const toImMessage = (m: MessageView, viewerId: number): ImMessage => ({
  message_id: String(m.id),
  conversation_id: String(m.conversationId),
  sender: m.senderSecUid,
  is_self: asBit(m.senderId === viewerId),
  text: m.text,
  create_time: m.createdAt.getTime(),
  digg: asBit(m.liked),
  reply_to: m.replyTo && { message_id: String(m.replyTo.id), text: m.replyTo.text, nickname: m.replyTo.nickname },
});

const toState = (s: ConversationState): ImConversationState => ({
  conversation_id: String(s.id),
  peer: toUser(s.peer),
  mute: asBit(s.muted),
  stick_on_top: asBit(s.pinned),
  restricted: asBit(s.restricted),
  can_send: asBit(s.canSend),
  block_status: s.blockStatus,
});

/** The `dm` event of `/api/events` for one viewer. */
export async function dmEvent(viewerId: number, data: DmHubData | null): Promise<InboxEvents['dm']> {
  if (!data) return { unread: await totalUnread(viewerId), conversation_id: null, message: null, alert: false };
  const e = await dmEventFor(viewerId, data);
  return {
    unread: e.unread,
    conversation_id: String(e.conversationId),
    message: e.message && toImMessage(e.message, viewerId),
    alert: e.alert,
  };
}

async function peerId(sec: string): Promise<number> {
  const user = await getBySecUid(sec, null);
  if (!user) throw new ApiError(404, 'error.userNotFound');
  return user.id;
}

// Long enough that the service, not the door, refuses an over-long message with its own clear message.
const messageText = z.string().max(20_000);
const conversationInput = z.object({ conversation_id: id() });
const limits = `${MESSAGE_BURST.limit} per ${MESSAGE_BURST.windowMs / 1000} s and ${MESSAGE_HOURLY.limit} per hour`;

export const imRoutes = [
  route({
    method: 'GET',
    path: `${IM}/conversation/list/`,
    family: 'A',
    auth: true,
    summary:
      '私信 list: pinned first, then by the newest message the viewer can see; total_unread leaves muted conversations out',
    input: z.object({ cursor: cursor(), count: count(20) }),
    response: bodyA({ conversations: z.array(imConversation), cursor: nextCursor, has_more: bit, total_unread: n() }),
    handler: async ({ input, viewer }) => {
      const page = await listConversations(viewer.id, { cursor: input.cursor, count: input.count });
      return okA({
        conversations: page.items.map((c) => ({
          conversation_id: String(c.id),
          peer: toUser(c.peer),
          last_message: {
            text: c.lastMessage.text,
            create_time: c.lastMessage.createdAt.getTime(),
            is_self: asBit(c.lastMessage.fromViewer),
          },
          unread_count: c.unread,
          mute: asBit(c.muted),
          stick_on_top: asBit(c.pinned),
          update_time: c.lastMessage.createdAt.getTime(),
        })),
        cursor: page.cursor,
        has_more: asBit(page.hasMore),
        total_unread: await totalUnread(viewer.id),
      });
    },
  }),
  route({
    method: 'GET',
    path: `${IM}/conversation/detail/`,
    family: 'A',
    auth: true,
    summary:
      "The viewer's standing with a user (conversation_id '0' until the first message): settings, the one-message rule, blocks",
    input: z.object({ sec_user_id: secUid() }),
    response: bodyA({ conversation: imConversationState }),
    handler: async ({ input, viewer }) =>
      okA({ conversation: toState(await conversationWith(viewer.id, await peerId(input.sec_user_id))) }),
  }),
  route({
    method: 'GET',
    path: `${IM}/message/list/`,
    family: 'A',
    auth: true,
    summary: 'Messages of a conversation the viewer can see, oldest first, before message max_cursor (0 = the newest)',
    input: z.object({
      conversation_id: id(),
      max_cursor: int(0, INT4_MAX).default(0).meta({ default: 0 }),
      count: count(20),
    }),
    response: bodyA({ messages: z.array(imMessage), max_cursor: n(), has_more: bit }),
    handler: async ({ input, viewer }) => {
      const page = await listMessages(viewer.id, input.conversation_id, {
        before: input.max_cursor,
        count: input.count,
      });
      return okA({
        messages: page.messages.map((m) => toImMessage(m, viewer.id)),
        max_cursor: page.messages[0]?.id ?? 0,
        has_more: asBit(page.hasMore),
      });
    },
  }),
  route({
    method: 'POST',
    path: `${IM}/message/send/`,
    idempotent: true,
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: `Send a message (reply_id quotes one of the conversation); one message until the peer follows or replies; ${limits}`,
    input: z.object({ sec_user_id: secUid(), text: messageText, reply_id: int(0, INT4_MAX).optional() }),
    response: bodyA({ message: imMessage, conversation: imConversationState }),
    handler: async (ctx) => {
      const { input, viewer } = ctx;
      const peer = await peerId(input.sec_user_id);
      const r = await once(
        ctx,
        'message',
        // Douyin sends 0 for "no reply".
        (key) => sendMessage(viewer.id, peer, input.text, input.reply_id || undefined, key),
        async (messageId) => {
          const message = await messageFor(viewer.id, messageId);
          if (!message) throw new ApiError(404, 'error.messageNotFound');
          return { message, state: await conversationWith(viewer.id, peer) };
        },
      );
      return okA({ message: toImMessage(r.message, viewer.id), conversation: toState(r.state) });
    },
  }),
  route({
    method: 'POST',
    path: `${IM}/message/digg/`,
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: 'Like (type=1) or unlike (type=0) a message one received',
    input: z.object({ message_id: id(), type: flag() }),
    response: bodyA({ message: imMessage }),
    handler: async ({ input, viewer }) =>
      okA({ message: toImMessage(await setMessageLike(viewer.id, input.message_id, input.type === 1), viewer.id) }),
  }),
  route({
    method: 'POST',
    path: `${IM}/message/delete/`,
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: '删除: hide a message for the viewer only',
    input: z.object({ message_id: id() }),
    response: bodyA({}),
    handler: async ({ input, viewer }) => {
      await hideMessage(viewer.id, input.message_id);
      return okA({});
    },
  }),
  route({
    method: 'POST',
    path: `${IM}/conversation/read/`,
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: 'Mark a conversation read (on opening it); answers the new 私信 badge total',
    input: conversationInput,
    response: bodyA({ total_unread: n() }),
    handler: async ({ input, viewer }) => okA({ total_unread: await markRead(viewer.id, input.conversation_id) }),
  }),
  route({
    method: 'POST',
    path: `${IM}/conversation/setting/`,
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: '消息免打扰 (mute) and 置顶聊天 (stick_on_top), 0/1; absent fields stay',
    input: z.object({ conversation_id: id(), mute: flag().optional(), stick_on_top: flag().optional() }),
    response: bodyA({ conversation: imConversationState }),
    handler: async ({ input, viewer }) => {
      const on = (v: number | undefined) => (v === undefined ? undefined : v === 1);
      const state =
        input.mute === undefined && input.stick_on_top === undefined
          ? await conversationState(viewer.id, input.conversation_id)
          : await updateSettings(viewer.id, input.conversation_id, {
              muted: on(input.mute),
              pinned: on(input.stick_on_top),
            });
      return okA({ conversation: toState(state) });
    },
  }),
  route({
    method: 'POST',
    path: `${IM}/conversation/delete/`,
    family: 'A',
    auth: true,
    ownOnly: true,
    summary:
      "删除聊天: the conversation and its history leave the viewer's list until a newer message arrives; the peer keeps theirs",
    input: conversationInput,
    response: bodyA({}),
    handler: async ({ input, viewer }) => {
      await clearConversation(viewer.id, input.conversation_id);
      return okA({});
    },
  }),
  route({
    method: 'GET',
    path: `${IM}/unread/`,
    family: 'A',
    auth: true,
    summary: 'The 私信 badge: unread messages over conversations that are not muted',
    input: z.object({}),
    response: bodyA({ total_unread: n() }),
    handler: async ({ viewer }) => okA({ total_unread: await totalUnread(viewer.id) }),
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/user/block/',
    family: 'A',
    auth: true,
    ownOnly: true,
    summary: `Block (1) or unblock (0) a user; either direction stops messages. ${IM_WRITE_LIMIT.limit} IM writes per minute`,
    input: z.object({ sec_user_id: secUid(), block: flag() }),
    response: bodyA({ block_status: blockStatusSchema }),
    handler: async ({ input, viewer }) =>
      okA({ block_status: await setBlock(viewer.id, await peerId(input.sec_user_id), input.block === 1) }),
  }),
  route({
    method: 'POST',
    path: '/aweme/v1/web/report/',
    family: 'A',
    auth: true,
    ownOnly: true,
    summary:
      `举报 a user, a work (video), a comment, a message or a conversation (object_id is its numeric id); block=1 also ` +
      'blocks the person behind it (同时拉黑: the user, the author, the writer, the other side of the chat), whose ' +
      `works, comments and danmaku then leave the reporter's feeds at once; ${REPORT_DAILY.limit} per day`,
    input: z.object({
      object_type: z.enum(REPORT_TARGETS),
      object_id: id(),
      reason: z.enum(REPORT_REASONS),
      block: flag().optional(),
    }),
    response: bodyA({ blocked: z.union([z.literal(0), z.literal(1)]) }),
    handler: async ({ input, viewer }) => {
      const filed = await fileReport(viewer.id, input.object_type, input.object_id, input.reason, {
        block: input.block === 1,
      });
      return okA({ blocked: filed.blockedId === null ? (0 as const) : (1 as const) });
    },
  }),
];
