/** Server-side: service objects in the plain shapes the browser renders (island props, live chat lines), as the API answers them. */
import type { CardData } from '../client/card-data.ts';
import { mediaUrl } from './media-url.ts';
import type { CommentView } from './services/comments.ts';
import type { ChatMessage } from './services/live.ts';
import type { VideoCard } from './services/video-cards.ts';
import type { ChatLine } from '../shared/chat-line.ts';
import type { CommentData } from '../shared/comment-data.ts';

/** A video card as the grid islands render it (src/client/card-data.ts). */
export function toCardData(v: VideoCard): CardData {
  return {
    id: String(v.id),
    desc: v.desc,
    cover: mediaUrl(v.poster),
    diggCount: v.diggCount,
    durationMs: v.durationMs,
    authorSecUid: v.author.secUid,
    authorNickname: v.author.nickname,
    createdAt: v.createdAt.getTime(),
  };
}

/** A comment as the comment islands render it; `liked` is the viewer's like. */
export function toCommentData(c: CommentView, liked: boolean): CommentData {
  return {
    cid: String(c.id),
    rootId: String(c.parentId ?? 0),
    text: c.text,
    createdAt: c.createdAt.getTime(),
    diggCount: c.diggCount,
    replyTotal: c.replyCount,
    liked,
    authorLiked: c.authorLiked,
    isAuthor: c.isAuthor,
    user: { secUid: c.user.secUid, nickname: c.user.nickname, avatar: mediaUrl(c.user.avatar) },
    replyTo: c.replyTo,
  };
}

/** A live chat line; also takes one that went through JSON (a hub event, where the date is a string). */
export function toChatLine(m: ChatMessage | (Omit<ChatMessage, 'createdAt'> & { createdAt: string })): ChatLine {
  return {
    id: String(m.id),
    roomId: String(m.roomId),
    text: m.text,
    createTime: new Date(m.createdAt).getTime(),
    user: { secUid: m.user.secUid, nickname: m.user.nickname, avatar: mediaUrl(m.user.avatar) },
  };
}
