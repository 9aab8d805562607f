/**
 * Direct messages (私信) and notifications (互动消息) as the API answers them and the header panels render them:
 * the limits both sides check, the notification filters, and the Family A shapes (snake_case, Douyin's style).
 */

/** Longest direct message, in characters (code points). */
export const MESSAGE_MAX = 500;

/** Reasons a user may pick when reporting (举报) a chat; the server stores the key. */
export const REPORT_REASONS = ['spam', 'abuse', 'porn', 'fraud', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];

/** What a report is about: a chat, a user, and (from their pages) a work, a comment or a live room. */
export const REPORT_TARGETS = ['user', 'message', 'conversation', 'video', 'comment', 'live'] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];

/** The notifications another member's action on the recipient's things writes: each one belongs to exactly one 互动消息 filter below. */
export const INTERACTION_KINDS = [
  'like_video',
  'like_comment',
  'comment',
  'reply',
  'follow',
  'mention',
  'danmaku',
] as const;

/**
 * Every kind of notification a service writes: the interactions, and announcements that only 全部消息 shows:
 * `live` (开播了: someone the recipient follows went live), `moderation` (a moderator removed or restored the
 * recipient's content; the text says what and why) and `export_ready` (the member's data export can be downloaded).
 */
export const NOTICE_KINDS = [...INTERACTION_KINDS, 'live', 'moderation', 'export_ready'] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** The 互动消息 filter (全部消息, 粉丝, @我的, 评论, 赞, 弹幕) and the kinds each one shows. */
export const NOTICE_GROUPS = {
  all: NOTICE_KINDS,
  fans: ['follow'],
  at: ['mention'],
  comment: ['comment', 'reply'],
  digg: ['like_video', 'like_comment'],
  danmaku: ['danmaku'],
} as const satisfies Record<string, readonly NoticeKind[]>;
export type NoticeGroup = keyof typeof NOTICE_GROUPS;
export const NOTICE_GROUP_NAMES = Object.keys(NOTICE_GROUPS) as NoticeGroup[];

/** 0 not following, 1 following, 2 following each other (the viewer's relation to the user). */
export type FollowStatus = 0 | 1 | 2;
export type Bit = 0 | 1;

/** A user as the messaging and notification answers carry them. */
export interface ImUser {
  uid: string;
  sec_uid: string;
  nickname: string;
  avatar_thumb: { url_list: string[] };
  /** The viewer follows this user (1), both follow each other (2), or neither (0). */
  follow_status: FollowStatus;
  /** This user follows the viewer. */
  follower_status: Bit;
}

/** One direct message as the viewer sees it. */
export interface ImMessage {
  message_id: string;
  conversation_id: string;
  /** sec_uid of the sender. */
  sender: string;
  /** Sent by the viewer. */
  is_self: Bit;
  text: string;
  /** Unix milliseconds. */
  create_time: number;
  /** The recipient liked it (点赞); both sides see it. */
  digg: Bit;
  /** The message this one answers (回复), if any, and if still there. */
  reply_to: { message_id: string; text: string; nickname: string } | null;
}

/** One row of the 私信 conversation list. */
export interface ImConversation {
  conversation_id: string;
  peer: ImUser;
  /** The newest message the viewer has not cleared or deleted. */
  last_message: { text: string; create_time: number; is_self: Bit } | null;
  unread_count: number;
  /** 消息免打扰: no badge, no live alert. */
  mute: Bit;
  /** 置顶聊天: listed first. */
  stick_on_top: Bit;
  /** Unix milliseconds of the last message. */
  update_time: number;
}

/** The viewer's standing with one peer: what the reply pane needs before and after the first message. */
export interface ImConversationState {
  /** '0' while the pair has exchanged nothing (a conversation is created by its first message, not by opening). */
  conversation_id: string;
  peer: ImUser;
  mute: Bit;
  stick_on_top: Bit;
  /** The one-message rule holds: the peer neither follows the viewer nor has replied. */
  restricted: Bit;
  /** The viewer may send now (not blocked either way, and not past the one message while restricted). */
  can_send: Bit;
  /** 0 none, 1 the viewer blocked the peer, 2 the peer blocked the viewer, 3 both. */
  block_status: 0 | 1 | 2 | 3;
}

/** One 互动消息 item. */
export interface Notice {
  nid: string;
  type: NoticeKind;
  /** Unix milliseconds. */
  create_time: number;
  is_read: Bit;
  actor: ImUser;
  /** The comment, reply, mention or danmaku text, where there is one. */
  content: string | null;
  /** The work it is about, with its cover. */
  aweme: { aweme_id: string; cover: { url_list: string[] } } | null;
  /** export_ready: where the member downloads their data; null for every other kind. */
  download_url: string | null;
  /** The broadcast a 开播了 notice is about (its room is /live/{room_id}). */
  room_id: string | null;
}

/** Server-Sent Events of `/api/events` for the logged-in user. */
export interface InboxEvents {
  /** The unread count of 互动消息 changed (sent at once on connect, then on every change). */
  notice: { unread: number };
  /**
   * Something changed in the 私信 inbox: sent at once on connect (message null), then for a new or changed message
   * (a like), a read mark or a setting. `unread` is the total the 私信 badge shows (muted conversations excluded);
   * `message` is the message as this viewer sees it, `alert` false when it should not ring (muted, or one's own).
   */
  dm: { unread: number; conversation_id: string | null; message: ImMessage | null; alert: boolean };
}
