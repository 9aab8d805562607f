import { describe, expect, it } from 'vitest';
import { $dmEvent, $dmUnread, $noticeUnread, applyDm, applyNotice } from './inbox.ts';

describe('inbox events', () => {
  it('keeps the two unread counts from the stream and ignores malformed data', () => {
    applyNotice({ unread: 12 });
    expect($noticeUnread.get()).toBe(12);
    applyNotice(null);
    applyNotice({ unread: Number.NaN });
    expect($noticeUnread.get()).toBe(12);
    applyNotice({ unread: -3 });
    expect($noticeUnread.get()).toBe(0);

    applyDm({ unread: 4, conversation_id: null, message: null, alert: false });
    expect($dmUnread.get()).toBe(4);
    // The connect-time snapshot names no conversation: the panel has nothing to apply.
    expect($dmEvent.get()).toBeNull();
    applyDm({ unread: 5, conversation_id: '3', message: null, alert: true });
    expect($dmUnread.get()).toBe(5);
    expect($dmEvent.get()).toMatchObject({ conversation_id: '3' });
  });
});
