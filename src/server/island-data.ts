/** Server-side: service objects in the plain shapes the browser renders (island props, live chat lines), as the API answers them. */
import { stateFor } from './api/shape.ts';
import { mediaUrl } from './media-url.ts';
import type { ChatMessage } from './services/live.ts';
import { captionsOf, type CaptionRef } from './services/captions.ts';
import type { FeedCard } from './services/feed.ts';
import { reasonsOf } from './services/feed-reasons.ts';
import { ladderOrFile, laddersOf, type Rendition as LadderStep } from './services/renditions.ts';
import type { Viewer } from './services/sessions.ts';
import { followStatusFor } from './services/users.ts';
import type { AuthorRef, VideoCard } from './services/video-cards.ts';
import type { ChatLine } from '../shared/chat-line.ts';
import type { FollowStatus } from '../shared/api-shapes.ts';
import { asGear, type Rendition, type VideoCardItem, type VideoItem } from '../shared/video-item.ts';

/** A video card as the grid islands render it. */
export function toCardData(v: VideoCard): VideoCardItem {
  return {
    id: String(v.id),
    desc: v.desc,
    poster: mediaUrl(v.poster),
    duration: v.durationMs,
    createdAt: v.createdAt.getTime(),
    digg: v.diggCount,
    author: { secUid: v.author.secUid, nickname: v.author.nickname },
  };
}

type Mark = { liked?: boolean; collected?: boolean; follow?: FollowStatus };

/** What the player takes of a video card (a live room's stream is made into one too): its media, counts and author. */
export type PlayerCard = Omit<VideoCard, 'author' | 'visibility' | 'allowComments'> & { author: AuthorRef };

/** A ladder with browser URLs, as the aweme's `bit_rate[]` carries it (the card's one file when `ladder` is absent). */
function toRenditions(v: PlayerCard, ladder: LadderStep[] | undefined): Rendition[] {
  return ladderOrFile(v, ladder).flatMap((r) => {
    const gear = asGear(r.gear);
    return gear === null ? [] : [{ gear, width: r.width, height: r.height, bitRate: r.bitRate, url: mediaUrl(r.path) }];
  });
}

/** A video as the players render it, with the viewer's marks, its renditions (`ladder`, from laddersOf) and captions. */
export function toVideoItem(v: PlayerCard, mark: Mark, ladder?: LadderStep[], caption?: CaptionRef): VideoItem {
  return {
    id: String(v.id),
    desc: v.desc,
    src: mediaUrl(v.media),
    poster: mediaUrl(v.poster),
    duration: v.durationMs,
    createdAt: v.createdAt.getTime(),
    author: {
      secUid: v.author.secUid,
      nickname: v.author.nickname,
      avatar: mediaUrl(v.author.avatar),
      follow: mark.follow ?? 0,
    },
    digg: v.diggCount,
    comment: v.commentCount,
    collect: v.collectCount,
    share: v.shareCount,
    liked: !!mark.liked,
    collected: !!mark.collected,
    renditions: toRenditions(v, ladder),
    captions: caption ? { url: caption.url, lang: caption.lang } : null,
  };
}

/** One video for a player, its renditions and captions loaded: what a page hands the player island. */
export async function loadVideoItem(v: PlayerCard, mark: Mark): Promise<VideoItem> {
  const [ladders, captions] = await Promise.all([laddersOf([v.id]), captionsOf([v.id])]);
  return toVideoItem(v, mark, ladders.get(v.id), captions.get(v.id));
}

/** Videos for a player (the feed's first page) with the viewer's marks and every video's renditions. */
export async function loadVideoItems(viewer: Viewer | null, cards: VideoCard[]): Promise<VideoItem[]> {
  const state = await stateFor(viewer, cards);
  return cards.map((c) =>
    toVideoItem(
      c,
      {
        liked: state.liked.has(c.id),
        collected: state.collected.has(c.id),
        follow: followStatusFor(state.relations.get(c.author.id)),
      },
      state.ladders?.get(c.id),
      state.captions?.get(c.id),
    ),
  );
}

/** The recommend feed's items for the player, each with why it was picked. */
export async function loadFeedItems(viewer: Viewer | null, cards: FeedCard[]): Promise<VideoItem[]> {
  const [items, reasons] = await Promise.all([loadVideoItems(viewer, cards), reasonsOf(cards)]);
  return items.map((v, i) => ({ ...v, reason: reasons.get(cards[i]!.id) }));
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
