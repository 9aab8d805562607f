/** A comment as the comment islands render it, and the one mapping from Douyin's comment object (API and server pages). */
import type { ApiComment } from './api-shapes.ts';

export interface CommentUser {
  secUid: string;
  nickname: string;
  avatar: string;
}

export interface CommentData {
  cid: string;
  /** The thread's top-level comment; '0' for a top-level comment. */
  rootId: string;
  text: string;
  /** Unix milliseconds. */
  createdAt: number;
  diggCount: number;
  replyTotal: number;
  liked: boolean;
  /** The video's author liked it (作者赞过). */
  authorLiked: boolean;
  /** Written by the video's author (作者). */
  isAuthor: boolean;
  user: CommentUser;
  replyTo: { secUid: string; nickname: string } | null;
}

export interface CommentPage {
  items: CommentData[];
  /** Where the next page starts: the server's cursor, passed back as is ('0' or 0 before the first page). */
  cursor: string | number;
  hasMore: boolean;
  total: number;
}

/** One of Douyin's comment objects (comment/list, comment/publish) in the shape the islands render. */
export function fromApi(c: ApiComment): CommentData {
  return {
    cid: c.cid,
    rootId: c.reply_id,
    text: c.text,
    createdAt: c.create_time * 1000,
    diggCount: c.digg_count,
    replyTotal: c.reply_comment_total,
    liked: c.user_digged === 1,
    authorLiked: c.is_author_digged,
    isAuthor: c.label_type === 1,
    user: { secUid: c.user.sec_uid, nickname: c.user.nickname, avatar: c.user.avatar_thumb.url_list[0] ?? '' },
    replyTo:
      c.reply_to_sec_uid && c.reply_to_username ? { secUid: c.reply_to_sec_uid, nickname: c.reply_to_username } : null,
  };
}

/** Window event announcing a video's new comment count, for every count shown on the page. */
export const COMMENT_COUNT_EVENT = 'sy:comment-count';
export interface CommentCountDetail {
  awemeId: string;
  count: number;
}
