/** The 通知 panel (互动消息): the chosen filter, its pages of notifications, and marking them read. */
import { atom } from 'nanostores';
import { apiGet, apiPost } from './api.ts';
import type { Notice, NoticeGroup } from '../shared/messaging.ts';
import { $noticeUnread } from './inbox.ts';
import { pagedList } from './paged-list.ts';

const PAGE = 20;

export const $noticeGroup = atom<NoticeGroup>('all');
interface NoticeAnswer {
  notice_list: Notice[];
  cursor: number;
  has_more: 0 | 1;
  total_unread: number;
}

const notices = pagedList<Notice>({
  keyOf: (n) => n.nid,
  clearOnReset: true,
  fetchPage: async (cursor) => {
    const a = await apiGet<NoticeAnswer>('/aweme/v1/web/notice/', {
      notice_group: $noticeGroup.get(),
      cursor,
      count: PAGE,
    });
    return { items: a.notice_list, cursor: a.cursor, hasMore: a.has_more === 1 };
  },
});
export const $notices = notices.$items;
export const $noticesState = notices.$state;
/** Loads the first page of the chosen filter (reset) or the next page. */
export const loadNotices = notices.load;

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
