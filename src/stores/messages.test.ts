import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImConversationState, ImMessage, ImUser } from '../shared/messaging.ts';

vi.mock('./api.ts', () => ({
  apiGet: vi.fn(),
  apiPost: vi.fn(),
  ApiFailure: class ApiFailure extends Error {
    readonly status: number;
    constructor(status: number, message: string) {
      super(message);
      this.status = status;
    }
  },
}));

const api = await import('./api.ts');
const {
  $chat,
  $conversations,
  $dmPanel,
  applyDmEvent,
  closeChat,
  LIST_WIDTH,
  loadOlder,
  openChat,
  sendMessage,
  setExpanded,
} = await import('./messages.ts');
const { $dmUnread } = await import('./inbox.ts');
const get = vi.mocked(api.apiGet);
const post = vi.mocked(api.apiPost);

const peer: ImUser = {
  uid: '7',
  sec_uid: 'PEER',
  nickname: '小鹿',
  avatar_thumb: { url_list: ['/a.webp'] },
  follow_status: 0,
  follower_status: 0,
};
const state = (over: Partial<ImConversationState> = {}): ImConversationState => ({
  conversation_id: '5',
  peer,
  mute: 0,
  stick_on_top: 0,
  restricted: 0,
  can_send: 1,
  block_status: 0,
  ...over,
});
const message = (id: number, over: Partial<ImMessage> = {}): ImMessage => ({
  message_id: String(id),
  conversation_id: '5',
  sender: 'PEER',
  is_self: 0,
  text: `第${id}条`,
  create_time: 1_700_000_000_000 + id,
  digg: 0,
  reply_to: null,
  ...over,
});

beforeEach(() => {
  get.mockReset();
  post.mockReset();
  closeChat();
  $conversations.set([]);
  $dmPanel.setKey('isShow', false);
});

describe('the panel', () => {
  it('expands to 240 px and collapses to the 72 px avatar rail', () => {
    setExpanded(false);
    expect($dmPanel.get()).toMatchObject({ expand: false, widthPx: LIST_WIDTH.collapsed });
    expect(LIST_WIDTH).toEqual({ expanded: 240, collapsed: 72 });
    setExpanded(true);
    expect($dmPanel.get()).toMatchObject({ expand: true, widthPx: 240 });
  });
});

describe('openChat', () => {
  it('creates nothing for a pair that never talked, and marks an existing conversation read', async () => {
    get.mockResolvedValueOnce({ conversation: state({ conversation_id: '0' }) });
    await openChat('PEER');
    expect(get).toHaveBeenCalledTimes(1);
    expect(post).not.toHaveBeenCalled();
    expect($chat.get()).toMatchObject({ peer: 'PEER', messages: [], loading: false });

    get
      .mockResolvedValueOnce({ conversation: state() })
      .mockResolvedValueOnce({ messages: [message(1), message(2)], max_cursor: 1, has_more: 1 });
    post.mockResolvedValueOnce({ total_unread: 3 });
    await openChat('PEER');
    expect(post).toHaveBeenCalledWith('/aweme/v1/web/im/conversation/read/', { conversation_id: '5' }, { quiet: true });
    expect($chat.get().messages.map((m) => m.message_id)).toEqual(['1', '2']);
    expect($chat.get()).toMatchObject({ hasMore: true, maxCursor: 1 });
    expect($dmUnread.get()).toBe(3);
  });
});

describe('sendMessage', () => {
  it('refuses empty and over-long text before asking the server', async () => {
    get.mockResolvedValueOnce({ conversation: state({ conversation_id: '0' }) });
    await openChat('PEER');
    expect(await sendMessage('   ')).toBe(false);
    expect($chat.get().error).toEqual({ kind: 'empty' });
    expect(await sendMessage('字'.repeat(501))).toBe(false);
    expect($chat.get().error).toEqual({ kind: 'tooLong' });
    expect(post).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal (the one-message rule) and keeps the text out of the list', async () => {
    get.mockResolvedValue({ conversation: state({ restricted: 1, can_send: 0 }) });
    get.mockResolvedValueOnce({ conversation: state({ conversation_id: '0' }) });
    await openChat('PEER');
    post.mockRejectedValueOnce(new api.ApiFailure(403, '在对方关注你或回复你之前，你只能发送1条文字消息'));
    expect(await sendMessage('第二条')).toBe(false);
    expect($chat.get().error).toEqual({ kind: 'server', text: '在对方关注你或回复你之前，你只能发送1条文字消息' });
    expect($chat.get().messages).toEqual([]);
  });

  it('adds the stored message in id order and sends the quoted message’s id', async () => {
    get
      .mockResolvedValueOnce({ conversation: state() })
      .mockResolvedValueOnce({ messages: [message(3)], max_cursor: 3, has_more: 0 });
    post.mockResolvedValueOnce({ total_unread: 0 });
    await openChat('PEER');
    $chat.setKey('replyTo', message(3));
    post.mockResolvedValueOnce({ message: message(4, { is_self: 1, sender: 'ME' }), conversation: state() });
    get.mockResolvedValue({ conversations: [], cursor: 0, has_more: 0, total_unread: 0 });
    expect(await sendMessage('  好的  ')).toBe(true);
    expect(post).toHaveBeenCalledWith(
      '/aweme/v1/web/im/message/send/',
      { sec_user_id: 'PEER', text: '好的', reply_id: '3' },
      { quiet: true, idempotent: true },
    );
    expect($chat.get().messages.map((m) => m.message_id)).toEqual(['3', '4']);
    expect($chat.get().replyTo).toBeNull();
  });
});

describe('applyDmEvent', () => {
  it('puts a live message into the open conversation and marks it read; other conversations are left alone', async () => {
    get
      .mockResolvedValueOnce({ conversation: state() })
      .mockResolvedValueOnce({ messages: [message(1)], max_cursor: 1, has_more: 0 });
    post.mockResolvedValue({ total_unread: 0 });
    await openChat('PEER');
    post.mockClear();
    applyDmEvent({
      unread: 1,
      conversation_id: '9',
      message: message(8, { conversation_id: '9', sender: 'OTHER' }),
      alert: true,
    });
    expect($chat.get().messages.map((m) => m.message_id)).toEqual(['1']);
    applyDmEvent({ unread: 1, conversation_id: '5', message: message(2), alert: true });
    expect($chat.get().messages.map((m) => m.message_id)).toEqual(['1', '2']);
    expect(post).toHaveBeenCalledWith('/aweme/v1/web/im/conversation/read/', { conversation_id: '5' }, { quiet: true });
    // A like arrives as the same message again: replaced, not repeated.
    applyDmEvent({ unread: 0, conversation_id: '5', message: message(2, { digg: 1 }), alert: false });
    expect($chat.get().messages.map((m) => [m.message_id, m.digg])).toEqual([
      ['1', 0],
      ['2', 1],
    ]);
  });
});

describe('loadOlder', () => {
  it('asks for the page before the oldest message shown and puts it above, once, until there is no more', async () => {
    get
      .mockResolvedValueOnce({ conversation: state() })
      .mockResolvedValueOnce({ messages: [message(21), message(22)], max_cursor: 21, has_more: 1 });
    post.mockResolvedValue({ total_unread: 0 });
    await openChat('PEER');
    get.mockResolvedValueOnce({ messages: [message(19), message(20), message(21)], max_cursor: 19, has_more: 0 });
    await loadOlder();
    expect(get).toHaveBeenLastCalledWith('/aweme/v1/web/im/message/list/', {
      conversation_id: '5',
      max_cursor: 21,
      count: 20,
    });
    expect($chat.get().messages.map((m) => m.message_id)).toEqual(['19', '20', '21', '22']);
    expect($chat.get()).toMatchObject({ hasMore: false, maxCursor: 19, loadingOlder: false });
    const calls = get.mock.calls.length;
    await loadOlder();
    expect(get.mock.calls.length).toBe(calls);
  });
});
