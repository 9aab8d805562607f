/**
 * The API's answer shapes that browser code reads (videos and user rows), as zod schemas: the API checks its answers
 * against them and the browser takes their types. Browser modules import types only (`import type`), which keeps zod
 * out of their bundles.
 */
import { z } from 'zod';

const n = () => z.number().int();

export const bit = z.union([z.literal(0), z.literal(1)]);
/** 0 not following, 1 following, 2 following each other. */
export const followStatus = z.union([z.literal(0), z.literal(1), z.literal(2)]);
export const urlList = z.object({ url_list: z.array(z.string()) });

const awemeAuthor = z.object({
  uid: z.string(),
  sec_uid: z.string(),
  nickname: z.string(),
  avatar_thumb: urlList,
  follow_status: followStatus,
});

const textExtra = z.object({ hashtag_name: z.string(), start: n(), end: n(), type: z.literal(1) });

export const aweme = z.object({
  aweme_id: z.string(),
  aweme_type: z.literal(0),
  desc: z.string(),
  /** Unix seconds. */
  create_time: n(),
  text_extra: z.array(textExtra),
  author: awemeAuthor,
  statistics: z.object({
    digg_count: n(),
    comment_count: n(),
    collect_count: n(),
    share_count: n(),
    play_count: n(),
  }),
  user_digged: bit,
  collect_stat: bit,
  video: z.object({
    play_addr: urlList,
    /** Every rendition, highest first (a seeded clip has one): the player picks by size and bandwidth. */
    bit_rate: z.array(
      z.object({
        gear_name: z.string(),
        /** Bits per second. */
        bit_rate: n(),
        play_addr: urlList.extend({ width: n(), height: n(), data_size: n() }),
      }),
    ),
    cover: urlList,
    /** Milliseconds. */
    duration: n(),
    width: n(),
    height: n(),
  }),
});

/** Family B video. */
export const videoB = z.object({
  id: n(),
  desc: z.string(),
  cover: z.string(),
  playUrl: z.string(),
  /** Milliseconds. */
  duration: n(),
  width: n(),
  height: n(),
  /** Unix milliseconds. */
  createTime: n(),
  channelId: n(),
  diggCount: n(),
  commentCount: n(),
  collectCount: n(),
  shareCount: n(),
  playCount: n(),
  isLiked: z.boolean(),
  isCollected: z.boolean(),
  author: z.object({ id: n(), secUid: z.string(), nickname: z.string(), avatar: z.string() }),
});

/** A user as the lists of users carry them. */
const userRow = z.object({
  uid: z.string(),
  sec_uid: z.string(),
  nickname: z.string(),
  signature: z.string(),
  avatar_thumb: urlList,
  follower_count: n(),
  following_count: n(),
  aweme_count: n(),
  follow_status: followStatus,
});

/** A row of a 关注 or 粉丝 list. */
export const followUser = userRow.extend({
  /** When the follow in this list was made (unix seconds). */
  follow_time: n(),
});

/** A user result of the search. */
export const searchUser = userRow.extend({
  /** Likes received on this user's videos (获赞). */
  total_favorited: n(),
});

/** The viewer's relation to a user: 0 none (关注), 1 following (已关注), 2 following each other (互相关注). */
export type FollowStatus = z.infer<typeof followStatus>;
export type Aweme = z.infer<typeof aweme>;
export type VideoB = z.infer<typeof videoB>;
export type FollowUser = z.infer<typeof followUser>;
export type SearchUser = z.infer<typeof searchUser>;
