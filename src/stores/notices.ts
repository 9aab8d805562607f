/** The 通知 panel (互动消息): the chosen filter, its pages of notifications, and marking them read. */
import { atom, map } from 'nanostores';
import { apiGet, apiPost } from '../client/api.ts';
import type { Notice, NoticeGroup } from '../shared/messaging.ts';
import { $noticeUnread } from './inbox.ts';

const PAGE = 20;

export const $noticeGroup = atom<NoticeGroup>('all');
export const $notices = atom<Notice[]>([]);
export const $noticesState = map({ loading: false, loaded: false, hasMore: false, cursor: 0, error: false });

interface NoticeAnswer {
  notice_list: Notice[];
  cursor: number;
  has_more: 0 | 1;
  total_unread: number;
}

let request = 0;

/** Loads the first page of the chosen filter (reset) or the next page. */
export async function loadNotices(reset = false): Promise<void> {
  const s = $noticesState.get();
  if (!reset && (s.loading || !s.hasMore)) return;
  const ticket = ++request;
  if (reset) $notices.set([]);
  $noticesState.set({ ...s, loading: true, loaded: reset ? false : s.loaded, error: false });
  try {
    const a = await apiGet<NoticeAnswer>('/aweme/v1/web/notice/', {
      notice_group: $noticeGroup.get(),
      cursor: reset ? 0 : s.cursor,
      count: PAGE,
    });
    if (ticket !== request) return;
    const known = reset ? [] : $notices.get();
    const ids = new Set(known.map((n) => n.nid));
    $notices.set([...known, ...a.notice_list.filter((n) => !ids.has(n.nid))]);
    $noticesState.set({ loading: false, loaded: true, hasMore: a.has_more === 1, cursor: a.cursor, error: false });
  } catch {
    if (ticket === request) $noticesState.set({ ...$noticesState.get(), loading: false, loaded: true, error: true });
  }
}

/** Chooses a filter (the server filters) and loads its first page. */
export function chooseGroup(group: NoticeGroup): void {
  $noticeGroup.set(group);
  void loadNotices(true);
}

/** The panel opened: fresh first page, and everything counts as read (the badge clears on every open page). */
export async function openNotices(): Promise<void> {
  await loadNotices(true);
  if ($noticeUnread.get() === 0 && !$notices.get().some((n) => n.is_read === 0)) return;
  $noticeUnread.set(0);
  try {
    await apiPost('/aweme/v1/web/notice/read/', {}, { quiet: true });
  } catch {
    // The next opening marks them again.
  }
}
