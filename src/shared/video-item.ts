/** The one shape of a video in the browser, what a card shows of it, and the mappers from each API family's video. */
import type { Aweme, FeedAweme, FollowStatus, VideoB } from './api-shapes.ts';
import type { ItemReason } from './feed-reason.ts';
import { GEARS, type Gear } from './studio.ts';

/** One encoded size of a video, as Douyin's `video.bit_rate[]` lists them. */
export interface Rendition {
  gear: Gear;
  width: number;
  height: number;
  /** Bits per second (0 when unknown). */
  bitRate: number;
  url: string;
}

/** One video as the islands hold it: what the players, the feed and the grids render. */
export interface VideoItem {
  id: string;
  desc: string;
  src: string;
  poster: string;
  /** Milliseconds. */
  duration: number;
  /** Unix milliseconds. */
  createdAt: number;
  author: { secUid: string; nickname: string; avatar: string; follow: FollowStatus };
  digg: number;
  comment: number;
  collect: number;
  share: number;
  liked: boolean;
  collected: boolean;
  /** What the 清晰度 menu offers, highest gear first; empty when the source did not say (Family B), and `src` plays. */
  renditions: Rendition[];
  /** The work's captions (a WebVTT file), or null: the player shows its CC button only when there are some. */
  captions: { url: string; lang: string } | null;
  /** Why the recommend feed picked it (为什么推荐); absent outside the recommend feed. */
  reason?: ItemReason;
}

/** What a video card shows (VideoCard.astro, VideoCardView): pages pass no more than this as island props. */
export type VideoCardItem = Pick<VideoItem, 'id' | 'desc' | 'poster' | 'duration' | 'createdAt' | 'digg'> & {
  author: Pick<VideoItem['author'], 'secUid' | 'nickname'>;
};

/** `n` as a gear we encode, or null. */
export function asGear(n: number): Gear | null {
  return (GEARS as readonly number[]).includes(n) ? (n as Gear) : null;
}

/** The gear in a Douyin gear_name ('normal_1080_0'), or null for a name of no gear we encode. */
export function gearOfName(name: string): Gear | null {
  return asGear(Number(/^[a-z]+_(\d+)_/.exec(name)?.[1]));
}

/** An aweme's `bit_rate[]` as renditions, highest gear first; entries without an address or a known gear are left out. */
export function renditionsOf(bitRates: Aweme['video']['bit_rate']): Rendition[] {
  const out: Rendition[] = [];
  for (const b of bitRates) {
    const gear = gearOfName(b.gear_name);
    const url = b.play_addr.url_list[0];
    if (gear !== null && url)
      out.push({ gear, width: b.play_addr.width, height: b.play_addr.height, bitRate: b.bit_rate, url });
  }
  return out.sort((a, b) => b.gear - a.gear);
}

/** An aweme's first caption track (older answers carry no caption_infos at all). */
function captionOf(infos: Aweme['video']['caption_infos'] | undefined): VideoItem['captions'] {
  const first = infos?.[0];
  const url = first?.url_list[0] ?? first?.url;
  return first && url ? { url, lang: first.language_code } : null;
}

/** A Family A aweme. */
export function fromAweme(a: Aweme): VideoItem {
  return {
    id: a.aweme_id,
    desc: a.desc,
    src: a.video.play_addr.url_list[0] ?? '',
    poster: a.video.cover.url_list[0] ?? '',
    duration: a.video.duration,
    createdAt: a.create_time * 1000,
    author: {
      secUid: a.author.sec_uid,
      nickname: a.author.nickname,
      avatar: a.author.avatar_thumb.url_list[0] ?? '',
      follow: a.author.follow_status,
    },
    digg: a.statistics.digg_count,
    comment: a.statistics.comment_count,
    collect: a.statistics.collect_count,
    share: a.statistics.share_count,
    liked: a.user_digged === 1,
    collected: a.collect_stat === 1,
    renditions: renditionsOf(a.video.bit_rate),
    captions: captionOf(a.video.caption_infos),
  };
}

/** An aweme of the recommend feed, with why it was picked. */
export function fromFeedAweme(a: Aweme & Partial<Pick<FeedAweme, 'recommend_reason'>>): VideoItem {
  const r = a.recommend_reason;
  const item = fromAweme(a);
  if (!r) return item;
  return {
    ...item,
    reason: { code: r.code, text: r.text, signals: r.signals, channelId: r.channel_id, channelName: r.channel_name },
  };
}

/** A Family B video (which says nothing of the viewer's relation to its author). */
export function fromVideoB(v: VideoB): VideoItem {
  return {
    id: String(v.id),
    desc: v.desc,
    src: v.playUrl,
    poster: v.cover,
    duration: v.duration,
    createdAt: v.createTime,
    author: { secUid: v.author.secUid, nickname: v.author.nickname, avatar: v.author.avatar, follow: 0 },
    digg: v.diggCount,
    comment: v.commentCount,
    collect: v.collectCount,
    share: v.shareCount,
    liked: v.isLiked,
    collected: v.isCollected,
    renditions: [],
    captions: null,
  };
}
