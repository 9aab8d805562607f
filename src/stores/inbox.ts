/**
 * The logged-in viewer's inbox as it changes: unread counts of 互动消息 and 私信 and the latest 私信 event, fed by one
 * EventSource on `/api/events`. Small on purpose: it loads with every logged-in page, the panels load on demand.
 */
import { atom } from 'nanostores';
import type { InboxEvents } from '../shared/messaging.ts';
import { $sessionEnded } from './auth.ts';

/** Unread 互动消息 (the 通知 badge). */
export const $noticeUnread = atom(0);
/** Unread 私信, muted conversations excluded (the 私信 badge). */
export const $dmUnread = atom(0);
/** The latest 私信 event; the open panel applies it to what it shows. */
export const $dmEvent = atom<InboxEvents['dm'] | null>(null);
/** Whether the stream is connected (false while EventSource reconnects). */
export const $inboxLive = atom(false);

export const INBOX_URL = '/api/events';

let source: EventSource | null = null;

function read<K extends keyof InboxEvents>(e: Event): InboxEvents[K] | null {
  try {
    return JSON.parse((e as MessageEvent<string>).data) as InboxEvents[K];
  } catch {
    return null;
  }
}

/** Applies one `notice` event. */
export function applyNotice(data: InboxEvents['notice'] | null): void {
  if (data && Number.isFinite(data.unread)) $noticeUnread.set(Math.max(0, data.unread));
}

/** Applies one `dm` event. */
export function applyDm(data: InboxEvents['dm'] | null): void {
  if (!data) return;
  if (Number.isFinite(data.unread)) $dmUnread.set(Math.max(0, data.unread));
  if (data.conversation_id !== null) $dmEvent.set(data);
}

/** Opens the viewer's event stream once per page (the header's badges follow the two counts). */
export function connectInbox(url = INBOX_URL): void {
  if (source || $sessionEnded.get() || typeof EventSource === 'undefined') return;
  source = new EventSource(url);
  source.addEventListener('open', () => $inboxLive.set(true));
  // EventSource reconnects by itself after a dropped connection; a refused one (logged out) stays closed.
  source.addEventListener('error', () => $inboxLive.set(false));
  source.addEventListener('notice', (e) => applyNotice(read<'notice'>(e)));
  source.addEventListener('dm', (e) => applyDm(read<'dm'>(e)));
}

// A session that ends takes its inbox along: the stream closes and the badges go.
$sessionEnded.listen((ended) => {
  if (!ended) return;
  source?.close();
  source = null;
  $inboxLive.set(false);
  $noticeUnread.set(0);
  $dmUnread.set(0);
});
