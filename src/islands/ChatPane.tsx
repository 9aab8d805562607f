import { useStore } from '@nanostores/react';
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { formatMessageTime, t } from '../i18n/t.ts';
import { EMOJI } from '../shared/emoji.ts';
import { MESSAGE_MAX, type ImMessage } from '../shared/messaging.ts';
import {
  riArrowLeftSLine,
  riDeleteBinLine,
  riEmotionLaughLine,
  riHeart3Fill,
  riHeart3Line,
  riMoreFill,
  riReplyLine,
} from '../shared/icons.ts';
import { $followStatus, seedFollowStatus, toggleFollow } from '../stores/follow.ts';
import {
  $chat,
  clearChatError,
  closeChat,
  deleteMessage,
  loadOlder,
  sendMessage,
  setReplyTo,
  toggleMessageLike,
  type ChatError,
} from '../stores/messages.ts';
import { ChatMenu } from './ChatMenu.tsx';
import { Icon } from './Icon.tsx';
import { useNearEnd } from './useNearEnd.ts';

/** Width of the reply pane. */
const PANE_WIDTH = 240;
/** Height of the message list. */
const LIST_HEIGHT = 300;
/** A time label goes above a message sent this long after the one before it. */
const TIME_GAP_MS = 5 * 60_000;

const clock = (ms: number) => formatMessageTime(new Date(ms));

function errorText(e: ChatError): string {
  if (e.kind === 'empty') return t('dm.empty.text');
  if (e.kind === 'tooLong') return t('dm.tooLong', { max: MESSAGE_MAX });
  return e.text;
}

/**
 * The reply pane: 退出会话, 关注, 更多, the messages (300 px, newest at the bottom, older on scrolling up), the composer.
 * 240 px wide beside the list, or with `fill` (a phone) all the room the list's avatar rail leaves.
 */
export function ChatPane({ fill = false }: { fill?: boolean }) {
  const chat = useStore($chat);
  const follow = useStore($followStatus);
  const [menu, setMenu] = useState(false);
  const peer = chat.state?.peer;
  const status = peer ? (follow[peer.sec_uid] ?? peer.follow_status) : 0;

  useEffect(() => {
    if (peer) seedFollowStatus(peer.sec_uid, peer.follow_status);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per peer, not on each refresh of the peer object
  }, [peer?.sec_uid]);
  useEffect(() => setMenu(false), [chat.peer]);
  // 退出会话 removes this pane and the button with it: focus goes back to the chat's row in the list.
  const exit = () => {
    const id = chat.state?.conversation_id;
    closeChat();
    requestAnimationFrame(() => {
      const row =
        document.querySelector<HTMLElement>(`[data-dm-panel] [data-conversation="${id}"]`) ??
        document.querySelector<HTMLElement>('[data-dm-panel] [data-conversation]');
      row?.focus({ preventScroll: true });
    });
  };

  return (
    <section
      className="relative flex min-w-0 flex-1 flex-col"
      style={fill ? undefined : { maxWidth: PANE_WIDTH, flexBasis: PANE_WIDTH }}
      aria-label={peer ? peer.nickname : t('dm.messages')}
      data-chat={chat.peer}
    >
      <header className="flex h-12 shrink-0 items-center gap-1 border-b border-line px-1">
        <button
          type="button"
          className="focus-ring tap-target flex h-8 shrink-0 items-center rounded-md px-1 text-xs text-secondary hover:(bg-hover text-primary)"
          onClick={exit}
        >
          <Icon svg={riArrowLeftSLine} className="text-base" />
          {t('dm.exit')}
        </button>
        {peer ? (
          <a
            href={`/user/${encodeURIComponent(peer.sec_uid)}`}
            className="focus-ring min-w-0 flex-1 truncate text-sm font-medium hover:underline"
          >
            {peer.nickname}
          </a>
        ) : (
          <span className="flex-1" />
        )}
        {peer && status === 0 && (
          <button
            type="button"
            className="btn-accent tap-target !h-7 shrink-0 !px-2 text-xs"
            onClick={() => void toggleFollow(peer.sec_uid, 0)}
          >
            {t('dm.follow')}
          </button>
        )}
        <button
          type="button"
          className="focus-ring tap-target flex h-8 w-8 shrink-0 items-center justify-center rounded-md text-secondary hover:(bg-hover text-primary)"
          aria-label={t('dm.more')}
          aria-haspopup="menu"
          aria-expanded={menu}
          disabled={!chat.state}
          onClick={() => setMenu(!menu)}
        >
          <Icon svg={riMoreFill} className="text-lg" />
        </button>
      </header>
      <Messages />
      <Composer />
      {menu && chat.state && <ChatMenu onClose={() => setMenu(false)} />}
    </section>
  );
}

function Messages() {
  const chat = useStore($chat);
  const box = useRef<HTMLDivElement>(null);
  const top = useRef<HTMLDivElement>(null);
  const newest = chat.messages.at(-1)?.message_id;
  const oldest = chat.messages[0]?.message_id;
  const keep = useRef<{ oldest?: string; newest?: string; height: number }>({ height: 0 });

  // Newest at the bottom: follow new messages; when older ones arrive above, keep what the reader was looking at.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (keep.current.oldest && oldest !== keep.current.oldest && newest === keep.current.newest) {
      el.scrollTop += el.scrollHeight - keep.current.height;
    } else {
      el.scrollTop = el.scrollHeight;
    }
    keep.current = { oldest, newest, height: el.scrollHeight };
  }, [newest, oldest, chat.peer]);

  // Older messages load as the top nears, once the list is taller than its box (a short chat has nothing above).
  useNearEnd(
    top,
    box,
    () => box.current!.scrollHeight > box.current!.clientHeight && void loadOlder(),
    [chat.peer, oldest, chat.hasMore],
    '40px',
  );

  const restricted = chat.state?.restricted === 1;
  const firstAt = chat.messages[0]?.create_time ?? Date.now();
  return (
    <div
      ref={box}
      className="overflow-y-auto px-2 py-2"
      style={{ height: LIST_HEIGHT }}
      role="log"
      aria-label={t('dm.messages')}
      aria-busy={chat.loading || chat.loadingOlder}
    >
      <div ref={top} className="h-px" aria-hidden="true" />
      {chat.loadingOlder && <p className="py-1 text-center text-xs text-secondary">{t('common.loading')}</p>}
      {chat.loading && <p className="py-8 text-center text-xs text-secondary">{t('common.loading')}</p>}
      {!chat.loading && !chat.hasMore && (
        <div className="mb-3 text-center text-[11px] leading-5 text-secondary" data-dm-hint>
          {restricted && (
            <>
              <p>
                <time dateTime={new Date(firstAt).toISOString()}>{clock(firstAt)}</time>
              </p>
              <p>{t('dm.hint')}</p>
            </>
          )}
          <p>{t('dm.polite')}</p>
          {chat.messages.length === 0 && chat.state && (
            <p className="mt-2 text-xs text-secondary">{t('dm.start', { nickname: chat.state.peer.nickname })}</p>
          )}
        </div>
      )}
      {chat.messages.map((m, i) => {
        const prev = chat.messages[i - 1];
        const showTime = !prev || m.create_time - prev.create_time > TIME_GAP_MS;
        return (
          <div key={m.message_id}>
            {showTime && <p className="my-2 text-center text-[11px] text-secondary">{clock(m.create_time)}</p>}
            <MessageRow m={m} avatar={m.is_self ? null : chat.state?.peer.avatar_thumb.url_list[0]} />
          </div>
        );
      })}
    </div>
  );
}

function MessageRow({ m, avatar }: { m: ImMessage; avatar: string | null | undefined }) {
  const mine = m.is_self === 1;
  return (
    <div
      className={`group relative mb-2 flex items-end gap-1.5 ${mine ? 'flex-row-reverse' : ''}`}
      data-message={m.message_id}
      tabIndex={-1}
    >
      {!mine && (
        <img src={avatar ?? ''} alt="" width="24" height="24" className="h-6 w-6 shrink-0 rounded-full object-cover" />
      )}
      <div className={`relative max-w-[160px] ${mine ? 'items-end' : 'items-start'} flex flex-col`}>
        {m.reply_to && (
          <p className="mb-0.5 max-w-full truncate rounded bg-hover px-1.5 text-[11px] text-secondary">
            {t('dm.quoted', { nickname: m.reply_to.nickname, text: m.reply_to.text })}
          </p>
        )}
        <p
          className={`whitespace-pre-wrap break-words rounded-xl px-2.5 py-1.5 text-sm ${mine ? 'bg-accent-fill text-white' : 'bg-hover text-primary'}`}
        >
          {m.text}
        </p>
        {m.digg === 1 && (
          <span
            className="mt-0.5 flex items-center text-[11px] text-accent-text"
            title={mine ? t('dm.liked') : t('dm.likedByMe')}
          >
            <Icon svg={riHeart3Fill} />
            <span className="sr-only">{mine ? t('dm.liked') : t('dm.likedByMe')}</span>
          </span>
        )}
      </div>
      {/* Hover (or keyboard focus inside the row) shows the actions; they stay in the tab order for keyboard users. */}
      <div
        className={`flex shrink-0 gap-0.5 opacity-0 transition-opacity group-hover:opacity-100 group-focus-within:opacity-100 motion-reduce:transition-none`}
      >
        {!mine && (
          <button
            type="button"
            className="focus-ring flex h-6 w-6 items-center justify-center rounded text-secondary hover:(bg-hover text-accent)"
            aria-label={m.digg ? t('dm.unlike') : t('dm.like')}
            aria-pressed={m.digg === 1}
            onClick={() => void toggleMessageLike(m)}
          >
            <Icon svg={m.digg ? riHeart3Fill : riHeart3Line} />
          </button>
        )}
        <button
          type="button"
          className="focus-ring flex h-6 w-6 items-center justify-center rounded text-secondary hover:(bg-hover text-primary)"
          aria-label={t('dm.reply')}
          onClick={() => setReplyTo(m)}
        >
          <Icon svg={riReplyLine} />
        </button>
        <button
          type="button"
          className="focus-ring flex h-6 w-6 items-center justify-center rounded text-secondary hover:(bg-hover text-primary)"
          aria-label={t('dm.delete')}
          onClick={() => void deleteMessage(m)}
        >
          <Icon svg={riDeleteBinLine} />
        </button>
      </div>
    </div>
  );
}

function Composer() {
  const chat = useStore($chat);
  const [text, setText] = useState('');
  const [emoji, setEmoji] = useState(false);
  const field = useRef<HTMLTextAreaElement>(null);
  const state = chat.state;
  const blocked = state ? state.block_status !== 0 : false;
  const used = state ? state.restricted === 1 && state.can_send === 0 && !blocked : false;
  const disabled = !state || blocked || chat.sending;
  const length = [...text].length;

  useEffect(() => {
    setText(chat.draft);
    if (chat.peer) requestAnimationFrame(() => field.current?.focus({ preventScroll: true }));
  }, [chat.peer, chat.draft]);
  useEffect(() => {
    if (chat.replyTo) field.current?.focus();
  }, [chat.replyTo]);

  const send = async () => {
    if (await sendMessage(text)) setText('');
    field.current?.focus();
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter breaks the line; an IME composing Chinese uses Enter itself.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  };
  const insert = (s: string) => {
    const el = field.current;
    const at = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    setText(text.slice(0, at) + s + text.slice(end));
    setEmoji(false);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(at + s.length, at + s.length);
    });
  };

  const notice = blocked ? (state!.block_status & 1 ? t('dm.blockedByMe') : t('dm.blockedMe')) : null;
  return (
    <div className="relative flex flex-1 flex-col border-t border-line px-2 py-1.5">
      {chat.replyTo && (
        <div className="mb-1 flex items-center gap-1 rounded bg-hover px-1.5 py-0.5 text-[11px] text-secondary">
          <span className="min-w-0 flex-1 truncate">
            {t('dm.replying', {
              nickname: chat.replyTo.is_self ? t('dm.me') : (state?.peer.nickname ?? ''),
              text: chat.replyTo.text,
            })}
          </span>
          <button
            type="button"
            className="focus-ring shrink-0 rounded px-1 hover:text-primary"
            onClick={() => setReplyTo(null)}
          >
            {t('dm.cancelReply')}
          </button>
        </div>
      )}
      {notice && (
        <p className="mb-1 text-[11px] text-accent-text" role="status">
          {notice}
        </p>
      )}
      {chat.error && (
        <p className="mb-1 text-[11px] text-accent-text" role="alert" data-dm-error>
          {errorText(chat.error)}
        </p>
      )}
      <label className="sr-only" htmlFor="dm-composer">
        {t('dm.placeholder')}
      </label>
      <textarea
        id="dm-composer"
        ref={field}
        rows={2}
        value={text}
        disabled={disabled && !chat.sending}
        maxLength={MESSAGE_MAX * 2}
        placeholder={used ? t('dm.hint') : t('dm.placeholder')}
        className="min-h-0 w-full flex-1 resize-none rounded-md bg-hover px-2 py-1 text-sm outline-none focus-visible:(outline-2 outline-solid outline-accent) placeholder:text-muted"
        onChange={(e) => {
          setText(e.target.value);
          clearChatError();
        }}
        onKeyDown={onKey}
      />
      <div className="mt-1 flex items-center gap-1">
        <button
          type="button"
          className="focus-ring tap-target flex h-7 w-7 items-center justify-center rounded text-secondary hover:(bg-hover text-primary)"
          aria-label={t('dm.emoji')}
          aria-expanded={emoji}
          onClick={() => setEmoji(!emoji)}
        >
          <Icon svg={riEmotionLaughLine} className="text-base" />
        </button>
        <span
          className={`ml-auto text-[11px] ${length > MESSAGE_MAX ? 'text-accent-text' : 'text-secondary'}`}
          aria-live="polite"
        >
          {length > MESSAGE_MAX * 0.8 ? t('dm.counter', { count: length, max: MESSAGE_MAX }) : ''}
        </span>
        <button
          type="button"
          className="btn-accent tap-target !h-7 !px-3 text-xs"
          disabled={disabled || !text.trim()}
          onClick={() => void send()}
        >
          {t('dm.send')}
        </button>
      </div>
      {emoji && (
        <div
          className="absolute bottom-10 left-2 z-10 grid grid-cols-6 gap-0.5 rounded-lg border border-line bg-raised p-1 shadow-lg"
          role="group"
          aria-label={t('dm.emoji')}
        >
          {EMOJI.map((e) => (
            <button
              key={e}
              type="button"
              className="focus-ring h-8 w-8 rounded text-lg hover:bg-hover"
              onClick={() => insert(e)}
            >
              {e}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
