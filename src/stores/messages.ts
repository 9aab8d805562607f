/**
 * The 私信 panel: its layout state, the conversation list, the open chat and every action on them. The server
 * decides (the one-message rule, blocks, who may like what); this store shows its answers and its refusals.
 */
import { map } from 'nanostores';
import { ApiFailure, apiGet, apiPost } from './api.ts';
import type { FollowUser } from '../shared/api-shapes.ts';
import {
  MESSAGE_MAX,
  type ImConversation,
  type ImConversationState,
  type ImMessage,
  type InboxEvents,
  type ReportReason,
} from '../shared/messaging.ts';
import { $dmEvent, $dmUnread } from './inbox.ts';
import { pagedList } from './paged-list.ts';
import { browserStorage, persist, withId } from './persist.ts';

const IM = '/aweme/v1/web/im';
const PAGE = 20;
/** Widths of the conversation list, expanded and collapsed to avatars. */
export const LIST_WIDTH = { expanded: 240, collapsed: 72 } as const;

/** The messaging panel's state: shown, list expanded, and the width that follows from it. */
export const $dmPanel = withId('dmPanel', map({ isShow: false, expand: true, widthPx: LIST_WIDTH.expanded as number }));
persist($dmPanel, { storage: browserStorage('local'), paths: ['expand', 'widthPx'] });

export type ChatError = { kind: 'empty' } | { kind: 'tooLong' } | { kind: 'server'; text: string };

export interface ChatState {
  /** sec_uid of the peer whose pane is open. */
  peer: string | null;
  state: ImConversationState | null;
  messages: ImMessage[];
  hasMore: boolean;
  /** The oldest message id shown; older pages load before it. */
  maxCursor: number;
  loading: boolean;
  loadingOlder: boolean;
  sending: boolean;
  /** The last refusal to show in the pane: the composer's own check, or the server's words. */
  error: ChatError | null;
  replyTo: ImMessage | null;
  /** Text the composer starts with (a video shared from its 分享 panel). */
  draft: string;
}

const EMPTY_CHAT: ChatState = {
  peer: null,
  state: null,
  messages: [],
  hasMore: false,
  maxCursor: 0,
  loading: false,
  loadingOlder: false,
  sending: false,
  error: null,
  replyTo: null,
  draft: '',
};

export const $chat = map<ChatState>({ ...EMPTY_CHAT });

/** Shows or hides the panel (the header popover's toggle). */
export function setPanelShown(isShow: boolean): void {
  $dmPanel.setKey('isShow', isShow);
  if (isShow) void loadConversations(true);
}

/** Expands the conversation list to 240 px or collapses it to avatars (72 px). */
export function setExpanded(expand: boolean): void {
  $dmPanel.set({ ...$dmPanel.get(), expand, widthPx: expand ? LIST_WIDTH.expanded : LIST_WIDTH.collapsed });
}

interface ListAnswer {
  conversations: ImConversation[];
  cursor: string;
  has_more: 0 | 1;
  total_unread: number;
}

const conversations = pagedList<ImConversation>({
  keyOf: (c) => c.conversation_id,
  fetchPage: async (cursor) => {
    const a = await apiGet<ListAnswer>(`${IM}/conversation/list/`, { cursor, count: PAGE });
    $dmUnread.set(a.total_unread);
    return { items: a.conversations, cursor: a.cursor, hasMore: a.has_more === 1 };
  },
});
export const $conversations = conversations.$items;
export const $conversationsState = conversations.$state;
/** Loads the first page of conversations (reset) or the next one. */
export const loadConversations = conversations.load;

interface DetailAnswer {
  conversation: ImConversationState;
}

interface MessagesAnswer {
  messages: ImMessage[];
  max_cursor: number;
  has_more: 0 | 1;
}

/** Opens the pane on `secUid` (creating nothing: a conversation starts with its first message), `draft` in the composer. */
export async function openChat(secUid: string, draft = ''): Promise<void> {
  $chat.set({ ...EMPTY_CHAT, peer: secUid, loading: true, draft });
  try {
    const { conversation } = await apiGet<DetailAnswer>(`${IM}/conversation/detail/`, { sec_user_id: secUid });
    if ($chat.get().peer !== secUid) return;
    $chat.setKey('state', conversation);
    if (conversation.conversation_id !== '0') {
      const page = await apiGet<MessagesAnswer>(`${IM}/message/list/`, {
        conversation_id: conversation.conversation_id,
        count: PAGE,
      });
      if ($chat.get().peer !== secUid) return;
      $chat.set({ ...$chat.get(), messages: page.messages, hasMore: page.has_more === 1, maxCursor: page.max_cursor });
      await markRead(conversation.conversation_id);
    }
  } catch (error) {
    if ($chat.get().peer === secUid) $chat.setKey('error', failure(error));
  } finally {
    if ($chat.get().peer === secUid) $chat.setKey('loading', false);
  }
}

/** 退出会话: back to the list. */
export function closeChat(): void {
  $chat.set({ ...EMPTY_CHAT });
}

/** Loads the page of messages before the oldest one shown (scrolling up). */
export async function loadOlder(): Promise<void> {
  const c = $chat.get();
  if (!c.state || c.state.conversation_id === '0' || !c.hasMore || c.loadingOlder) return;
  $chat.setKey('loadingOlder', true);
  try {
    const page = await apiGet<MessagesAnswer>(`${IM}/message/list/`, {
      conversation_id: c.state.conversation_id,
      max_cursor: c.maxCursor,
      count: PAGE,
    });
    const now = $chat.get();
    if (now.peer !== c.peer) return;
    const ids = new Set(now.messages.map((m) => m.message_id));
    $chat.set({
      ...now,
      messages: [...page.messages.filter((m) => !ids.has(m.message_id)), ...now.messages],
      hasMore: page.has_more === 1,
      maxCursor: page.max_cursor,
    });
  } catch {
    // The list stays as it is; scrolling up again retries.
  } finally {
    $chat.setKey('loadingOlder', false);
  }
}

async function markRead(conversationId: string): Promise<void> {
  try {
    const a = await apiPost<{ total_unread: number }>(
      `${IM}/conversation/read/`,
      { conversation_id: conversationId },
      { quiet: true },
    );
    $dmUnread.set(a.total_unread);
    $conversations.set(
      $conversations.get().map((c) => (c.conversation_id === conversationId ? { ...c, unread_count: 0 } : c)),
    );
  } catch {
    // The next event or opening marks it again.
  }
}

function failure(error: unknown): ChatError {
  return {
    kind: 'server',
    text: error instanceof ApiFailure ? error.message : String((error as Error)?.message ?? error),
  };
}

function upsert(messages: ImMessage[], m: ImMessage): ImMessage[] {
  const at = messages.findIndex((x) => x.message_id === m.message_id);
  if (at >= 0) return messages.map((x, i) => (i === at ? m : x));
  return [...messages, m].sort((a, b) => Number(a.message_id) - Number(b.message_id));
}

/** Sends the composer's text (Enter); answers true when the server stored it. */
export async function sendMessage(raw: string): Promise<boolean> {
  const c = $chat.get();
  if (!c.peer || c.sending) return false;
  const text = raw.trim();
  if (!text) {
    $chat.setKey('error', { kind: 'empty' });
    return false;
  }
  if ([...text].length > MESSAGE_MAX) {
    $chat.setKey('error', { kind: 'tooLong' });
    return false;
  }
  $chat.set({ ...c, sending: true, error: null });
  try {
    const a = await apiPost<{ message: ImMessage; conversation: ImConversationState }>(
      `${IM}/message/send/`,
      { sec_user_id: c.peer, text, reply_id: c.replyTo?.message_id },
      { quiet: true, idempotent: true },
    );
    const now = $chat.get();
    if (now.peer === c.peer)
      $chat.set({ ...now, state: a.conversation, messages: upsert(now.messages, a.message), replyTo: null });
    void loadConversations(true);
    return true;
  } catch (error) {
    if ($chat.get().peer === c.peer) {
      $chat.setKey('error', failure(error));
      // The refusal may come from a state the pane did not know yet (a block, the one message already used).
      void refreshState(c.peer);
    }
    return false;
  } finally {
    $chat.setKey('sending', false);
  }
}

async function refreshState(secUid: string): Promise<void> {
  try {
    const { conversation } = await apiGet<DetailAnswer>(
      `${IM}/conversation/detail/`,
      { sec_user_id: secUid },
      { quiet: true },
    );
    const c = $chat.get();
    if (c.peer !== secUid) return;
    // The rule lifted (the peer replied or followed): a refusal under it says nothing true any more.
    const lifted = c.state?.restricted === 1 && conversation.restricted === 0;
    $chat.set({ ...c, state: conversation, error: lifted ? null : c.error });
  } catch {
    // Keeps what it had.
  }
}

/** 回复: quotes `m` in the next message (null to cancel). */
export function setReplyTo(m: ImMessage | null): void {
  $chat.setKey('replyTo', m);
}

/** Clears the pane's error (the composer changed). */
export function clearChatError(): void {
  if ($chat.get().error) $chat.setKey('error', null);
}

/** 点赞 a message of the peer's (or takes the like back). */
export async function toggleMessageLike(m: ImMessage): Promise<void> {
  const liked = m.digg === 1;
  $chat.setKey('messages', upsert($chat.get().messages, { ...m, digg: liked ? 0 : 1 }));
  try {
    const a = await apiPost<{ message: ImMessage }>(`${IM}/message/digg/`, {
      message_id: m.message_id,
      type: liked ? 0 : 1,
    });
    $chat.setKey('messages', upsert($chat.get().messages, a.message));
  } catch {
    $chat.setKey('messages', upsert($chat.get().messages, m));
  }
}

/** 删除: removes the message from the viewer's history only. */
export async function deleteMessage(m: ImMessage): Promise<void> {
  try {
    await apiPost(`${IM}/message/delete/`, { message_id: m.message_id });
    $chat.setKey(
      'messages',
      $chat.get().messages.filter((x) => x.message_id !== m.message_id),
    );
    if ($chat.get().replyTo?.message_id === m.message_id) setReplyTo(null);
    void loadConversations(true);
  } catch {
    // The API client has shown the failure.
  }
}

async function setting(fields: { mute?: 0 | 1; stick_on_top?: 0 | 1 }): Promise<void> {
  const id = $chat.get().state?.conversation_id;
  if (!id || id === '0') return;
  try {
    const a = await apiPost<DetailAnswer>(`${IM}/conversation/setting/`, { conversation_id: id, ...fields });
    $chat.setKey('state', a.conversation);
    await loadConversations(true);
  } catch {
    // The API client has shown the failure.
  }
}

/** 消息免打扰 on or off. */
export const setMute = (on: boolean) => setting({ mute: on ? 1 : 0 });
/** 置顶聊天 on or off. */
export const setPinned = (on: boolean) => setting({ stick_on_top: on ? 1 : 0 });

/** 删除聊天: clears the history for the viewer only; a new message starts a fresh one. */
export async function clearChat(): Promise<boolean> {
  const id = $chat.get().state?.conversation_id;
  if (!id || id === '0') return false;
  try {
    await apiPost(`${IM}/conversation/delete/`, { conversation_id: id });
    $chat.set({ ...$chat.get(), messages: [], hasMore: false, replyTo: null });
    await loadConversations(true);
    return true;
  } catch {
    return false;
  }
}

/** 举报 the chat with one of the listed reasons; with `block`, 同时拉黑 the peer in the same call. */
export async function reportChat(reason: ReportReason, block = false): Promise<boolean> {
  const c = $chat.get();
  if (!c.state) return false;
  const byConversation = c.state.conversation_id !== '0';
  try {
    await apiPost('/aweme/v1/web/report/', {
      object_type: byConversation ? 'conversation' : 'user',
      object_id: byConversation ? c.state.conversation_id : c.state.peer.uid,
      reason,
      block: block ? 1 : 0,
    });
    if (block && c.peer) await refreshState(c.peer);
    return true;
  } catch {
    return false;
  }
}

/** 拉黑 or 取消拉黑 the peer. */
export async function setBlocked(block: boolean): Promise<boolean> {
  const c = $chat.get();
  if (!c.peer) return false;
  try {
    await apiPost<{ block_status: number }>('/aweme/v1/web/user/block/', { sec_user_id: c.peer, block: block ? 1 : 0 });
    await refreshState(c.peer);
    return true;
  } catch {
    return false;
  }
}

/** Applies a live `dm` event: the open chat gets the message (and marks it read), the list refreshes. */
export function applyDmEvent(e: InboxEvents['dm'] | null): void {
  if (!e || e.conversation_id === null) return;
  const c = $chat.get();
  const open = c.state?.conversation_id;
  if (c.peer && e.message) {
    // A pane opened before the pair had a conversation learns its id from the server on the first message.
    const first = open === '0' && (e.message.sender === c.peer || e.message.is_self === 1);
    if (open === e.conversation_id || first) {
      $chat.setKey('messages', upsert(c.messages, e.message));
      // A reply lifts the one-message rule, a first message creates the conversation: the pane asks the server.
      if (first || c.state?.restricted) void refreshState(c.peer);
      if (e.message.is_self === 0) void markRead(e.conversation_id);
    }
  }
  if ($dmPanel.get().isShow) void loadConversations(true);
}

/** Follows the store's live events while a panel is mounted; returns the unsubscribe. */
export function followDmEvents(): () => void {
  return $dmEvent.listen(applyDmEvent);
}

/** Someone the viewer can share to from a video's 分享 panel. */
export interface Contact {
  secUid: string;
  nickname: string;
  avatar: string;
}

/** Up to `max` people to share with: recent conversations first, then people the viewer follows. */
export async function loadShareContacts(max = 8): Promise<Contact[]> {
  const [recent, following] = await Promise.all([
    apiGet<ListAnswer>(`${IM}/conversation/list/`, { count: max }, { quiet: true }).catch(() => null),
    apiGet<{ followings: FollowUser[] }>('/aweme/v1/web/user/following/list/', { count: max }, { quiet: true }).catch(
      () => null,
    ),
  ]);
  const seen = new Set<string>();
  const out: Contact[] = [];
  for (const u of [...(recent?.conversations.map((c) => c.peer) ?? []), ...(following?.followings ?? [])]) {
    if (seen.has(u.sec_uid) || out.length >= max) continue;
    seen.add(u.sec_uid);
    out.push({ secUid: u.sec_uid, nickname: u.nickname, avatar: u.avatar_thumb?.url_list?.[0] ?? '' });
  }
  return out;
}
