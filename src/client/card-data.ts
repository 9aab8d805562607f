/** The one card shape the grid islands render, and the mappers from each API family's video to it. */

/** What a card shows, as VideoCard.astro shows it. */
export interface CardData {
  id: string;
  desc: string;
  cover: string;
  diggCount: number;
  durationMs: number;
  authorSecUid: string;
  authorNickname: string;
  /** Unix milliseconds. */
  createdAt: number;
}

/** The fields of a Family A aweme that a card reads. */
export interface AwemeCard {
  aweme_id: string;
  desc: string;
  /** Unix seconds. */
  create_time: number;
  author: { sec_uid: string; nickname: string };
  statistics: { digg_count: number };
  video: { cover: { url_list: string[] }; duration: number };
}

/** The fields of a Family B video that a card reads. */
export interface VideoBCard {
  id: number;
  desc: string;
  cover: string;
  duration: number;
  /** Unix milliseconds. */
  createTime: number;
  diggCount: number;
  author: { secUid: string; nickname: string };
}

/** A card from a Family A aweme. */
export function cardFromAweme(a: AwemeCard): CardData {
  return {
    id: a.aweme_id,
    desc: a.desc,
    cover: a.video.cover.url_list[0] ?? '',
    diggCount: a.statistics.digg_count,
    durationMs: a.video.duration,
    authorSecUid: a.author.sec_uid,
    authorNickname: a.author.nickname,
    createdAt: a.create_time * 1000,
  };
}

/** A card from a Family B video. */
export function cardFromVideoB(v: VideoBCard): CardData {
  return {
    id: String(v.id),
    desc: v.desc,
    cover: v.cover,
    diggCount: v.diggCount,
    durationMs: v.duration,
    authorSecUid: v.author.secUid,
    authorNickname: v.author.nickname,
    createdAt: v.createTime,
  };
}
