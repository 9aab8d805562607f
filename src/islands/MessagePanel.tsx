import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import { badgeText } from '../client/badge.ts';
import { formatNoticeDate, t } from '../i18n/t.ts';
import type { ImConversation } from '../shared/messaging.ts';
import { riMenuFoldLine, riMenuUnfoldLine, riNotificationOffLine, riPushpinFill } from '../shared/icons.ts';
import { DM_POPOVER_ID, OPEN_DM_EVENT, type OpenDmDetail } from '../client/open-dm.ts';
import {
  $chat,
  $conversations,
  $conversationsState,
  $dmPanel,
  LIST_WIDTH,
  followDmEvents,
  loadConversations,
  openChat,
  setExpanded,
  setPanelShown,
} from '../stores/messages.ts';
import { ChatPane } from './ChatPane.tsx';
import { Icon } from './Icon.tsx';
import { useNearEnd } from './useNearEnd.ts';

interface Props {
  /** id of the header popover this panel sits in. */
  popoverId: string;
}

/** The 私信 panel: the conversation list (240 px, or 72 px of avatars) and, once one is chosen, its reply pane. */
export function MessagePanel({ popoverId }: Props) {
  const panel = useStore($dmPanel);
  const chat = useStore($chat);
  const narrow = useNarrow();
  // A phone has no room for both columns: the list takes the whole panel, and with a chat open it shrinks to its
  // avatar rail beside the chat, which takes the rest.
  const expanded = narrow ? !chat.peer : panel.expand;

  useEffect(() => {
    const pop = document.getElementById(popoverId);
    const onToggle = (e: Event) => setPanelShown((e as ToggleEvent).newState === 'open');
    pop?.addEventListener('toggle', onToggle);
    if (pop?.matches(':popover-open')) setPanelShown(true);
    // 私信 buttons elsewhere (a profile) open the panel on their user: the button opened the popover already.
    const onOpen = (e: Event) => {
      const { secUid, draft } = (e as CustomEvent<OpenDmDetail>).detail ?? {};
      if (secUid) void openChat(secUid, draft);
    };
    addEventListener(OPEN_DM_EVENT, onOpen);
    const pending = consumePendingOpen();
    if (pending) void openChat(pending.secUid, pending.draft);
    const stop = followDmEvents();
    return () => {
      pop?.removeEventListener('toggle', onToggle);
      removeEventListener(OPEN_DM_EVENT, onOpen);
      stop();
    };
  }, [popoverId]);

  return (
    // On a phone the panel is as tall as what it holds (a few conversations made a tall, mostly empty box).
    <div
      className={`flex max-h-[calc(100vh-var(--header-h)-24px)] max-w-[calc(100vw-16px)] ${narrow ? '' : 'h-[460px]'}`}
      data-dm-panel
    >
      <ConversationList
        expanded={expanded}
        width={narrow && expanded ? undefined : expanded ? panel.widthPx : LIST_WIDTH.collapsed}
        foldable={!narrow}
        active={chat.state?.conversation_id ?? null}
        activePeer={chat.peer}
      />
      {chat.peer && <ChatPane fill={narrow} />}
    </div>
  );
}

const NARROW = '(max-width: 559px)';

/** Whether the screen is too narrow for the list and a chat side by side. */
function useNarrow(): boolean {
  // Wide on the server (it renders the panel empty anyway); the browser says once hydrated.
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const query = matchMedia(NARROW);
    const change = () => setNarrow(query.matches);
    change();
    query.addEventListener('change', change);
    return () => query.removeEventListener('change', change);
  }, []);
  return narrow;
}

/** A 私信 button may fire before this island exists: it leaves the sec_uid (and a draft) on the popover. */
function consumePendingOpen(): OpenDmDetail | undefined {
  const holder = document.getElementById(DM_POPOVER_ID);
  const secUid = holder?.dataset.dmPending;
  const draft = holder?.dataset.dmDraft;
  if (holder) {
    delete holder.dataset.dmPending;
    delete holder.dataset.dmDraft;
  }
  return secUid ? { secUid, draft } : undefined;
}

/** The conversations: `width` in px, or the whole panel when undefined; `foldable` offers the fold button (not on a phone). */
function ConversationList({
  expanded,
  width,
  foldable,
  active,
  activePeer,
}: {
  expanded: boolean;
  width: number | undefined;
  foldable: boolean;
  active: string | null;
  activePeer: string | null;
}) {
  const items = useStore($conversations);
  const state = useStore($conversationsState);
  const end = useRef<HTMLLIElement>(null);

  const scroller = useRef<HTMLUListElement>(null);
  useNearEnd(end, scroller, () => void loadConversations(), [items.length, state.hasMore]);

  return (
    <section
      className={`flex flex-col transition-[width] duration-200 motion-reduce:transition-none ${width === undefined ? 'min-w-0 flex-1' : 'shrink-0 border-r border-line'}`}
      style={{ width }}
      aria-label={t('dm.title')}
    >
      <header className={`flex h-12 shrink-0 items-center px-3 ${expanded ? 'justify-between' : 'justify-center'}`}>
        {expanded && <h2 className="text-base font-semibold">{t('dm.title')}</h2>}
        {foldable && (
          <button
            type="button"
            className="focus-ring flex h-8 w-8 items-center justify-center rounded-md text-secondary hover:(bg-hover text-primary)"
            aria-label={expanded ? t('dm.collapse') : t('dm.expand')}
            aria-expanded={expanded}
            onClick={() => setExpanded(!expanded)}
          >
            <Icon svg={expanded ? riMenuFoldLine : riMenuUnfoldLine} className="text-lg" />
          </button>
        )}
      </header>
      <ul ref={scroller} className="flex-1 overflow-y-auto overflow-x-hidden" aria-busy={state.loading}>
        {items.map((c) => (
          <ConversationItem
            key={c.conversation_id}
            c={c}
            expanded={expanded}
            current={c.conversation_id === active || c.peer.sec_uid === activePeer}
          />
        ))}
        {state.loading && items.length === 0 && [0, 1, 2].map((i) => <SkeletonRow key={i} expanded={expanded} />)}
        {state.loaded && !state.loading && items.length === 0 && expanded && (
          <li className="px-4 py-10 text-center text-sm text-secondary">
            <p>{t('dm.empty')}</p>
            <p className="mt-1 text-xs text-secondary">{t('dm.emptyHint')}</p>
          </li>
        )}
        <li ref={end} className="h-1" aria-hidden="true" />
      </ul>
    </section>
  );
}

function ConversationItem({ c, expanded, current }: { c: ImConversation; expanded: boolean; current: boolean }) {
  const badge = c.mute ? '' : badgeText(c.unread_count);
  const last = c.last_message;
  // The row's text is its accessible name; collapsed to the avatar rail, the same text stays for screen readers.
  return (
    <li>
      <button
        type="button"
        className={`focus-ring flex h-[60px] w-full items-center gap-3 px-3 text-left hover:bg-hover ${current ? 'bg-hover' : ''}`}
        aria-current={current ? 'true' : undefined}
        title={expanded ? undefined : c.peer.nickname}
        data-conversation={c.conversation_id}
        onClick={() => void openChat(c.peer.sec_uid)}
      >
        <span className="relative shrink-0">
          <img
            src={c.peer.avatar_thumb.url_list[0]}
            alt=""
            width="44"
            height="44"
            className="h-11 w-11 rounded-full object-cover"
          />
          {badge && (
            <span
              className="absolute -right-1 -top-1 min-w-4 rounded-full bg-accent-fill px-1 text-center text-[10px] leading-4 text-white"
              aria-hidden="true"
            >
              {badge}
            </span>
          )}
          {!badge && c.mute === 1 && c.unread_count > 0 && (
            <span className="absolute right-0 top-0 h-2 w-2 rounded-full bg-secondary" aria-hidden="true" />
          )}
        </span>
        <span className={expanded ? 'min-w-0 flex-1' : 'sr-only'}>
          <span className="flex items-center gap-1">
            <span className="truncate text-sm font-medium">{c.peer.nickname}</span>
            {c.stick_on_top === 1 && <Icon svg={riPushpinFill} className="shrink-0 text-xs text-secondary" />}
            {c.stick_on_top === 1 && <span className="sr-only">，{t('dm.pinned')}</span>}
            {c.mute === 1 && <Icon svg={riNotificationOffLine} className="shrink-0 text-xs text-secondary" />}
            {c.mute === 1 && <span className="sr-only">，{t('dm.mutedTag')}</span>}
            {badge && <span className="sr-only">，{t('dm.unreadCount', { count: badge })}，</span>}
            <span className="ml-auto shrink-0 text-[11px] text-secondary">
              {formatNoticeDate(new Date(c.update_time))}
            </span>
          </span>
          <span className="mt-0.5 block truncate text-xs text-secondary">
            {last ? (last.is_self ? `${t('dm.me')}：${last.text}` : last.text) : ''}
          </span>
        </span>
      </button>
    </li>
  );
}

function SkeletonRow({ expanded }: { expanded: boolean }) {
  return (
    <li className="flex h-[60px] animate-pulse items-center gap-3 px-3" aria-hidden="true">
      <span className="h-11 w-11 shrink-0 rounded-full bg-hover" />
      {expanded && (
        <span className="flex-1 space-y-2">
          <span className="block h-3 w-1/2 rounded bg-hover" />
          <span className="block h-3 w-3/4 rounded bg-hover" />
        </span>
      )}
    </li>
  );
}
