/** Response schemas with Douyin's field names (Family A) and the simple backend's (Family B); tests parse every answer with them. */
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

export const textExtra = z.object({ hashtag_name: z.string(), start: n(), end: n(), type: z.literal(1) });

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

export const historyAweme = aweme.extend({
  history_info: z.object({ progress_ms: n(), watched_at: n() }),
});

const commentUser = z.object({ uid: z.string(), sec_uid: z.string(), nickname: z.string(), avatar_thumb: urlList });

export const comment = z.object({
  cid: z.string(),
  aweme_id: z.string(),
  text: z.string(),
  create_time: n(),
  digg_count: n(),
  reply_comment_total: n(),
  user: commentUser,
  user_digged: bit,
  /** The video's author liked it (作者赞过). */
  is_author_digged: z.boolean(),
  /** 1 when written by the video's author (作者). */
  label_type: bit,
  /** The top-level comment a reply belongs to; '0' for a top-level comment. */
  reply_id: z.string(),
  reply_to_username: z.string().nullable(),
  reply_to_sec_uid: z.string().nullable(),
  status: z.literal(1),
});

export const profileUser = z.object({
  uid: z.string(),
  sec_uid: z.string(),
  nickname: z.string(),
  signature: z.string(),
  avatar_thumb: urlList,
  avatar_300x300: urlList,
  avatar_larger: urlList,
  /** Videos this user liked. */
  favoriting_count: n(),
  /** Users following this user (粉丝). */
  follower_count: n(),
  /** Users this user follows (关注). */
  following_count: n(),
  aweme_count: n(),
  /** Likes received on this user's videos (获赞). */
  total_favorited: n(),
  follow_status: followStatus,
  /** 1 when this user follows the viewer. */
  follower_status: bit,
  /** Whether others may see this user's liked and collected videos. */
  favorite_permission: z.object({ likes_public: z.boolean(), collects_public: z.boolean() }),
});

export const followUser = z.object({
  uid: z.string(),
  sec_uid: z.string(),
  nickname: z.string(),
  signature: z.string(),
  avatar_thumb: urlList,
  follower_count: n(),
  following_count: n(),
  aweme_count: n(),
  follow_status: followStatus,
  /** When the follow in this list was made (unix seconds). */
  follow_time: n(),
});

export const mixInfo = z.object({
  mix_id: z.string(),
  mix_name: z.string(),
  mix_type: z.enum(['mix', 'theatre']),
  desc: z.string(),
  cover_url: urlList,
  create_time: n(),
  statis: z.object({ updated_to_episode: n() }),
  first_aweme_id: z.string().nullable(),
  author: commentUser,
});

export const liveRoom = z.object({
  web_rid: z.string(),
  type: z.literal(0),
  data: z.object({
    id_str: z.string(),
    title: z.string(),
    status: z.literal(2),
    user_count: n(),
    create_time: n(),
    cover: urlList,
    stream_url: urlList,
    owner: z.object({ sec_uid: z.string(), nickname: z.string(), avatar_thumb: urlList }),
  }),
});

/** Family A success body: `{status_code: 0, ...}`. */
export function bodyA<T extends z.ZodRawShape>(shape: T) {
  return z.object({ status_code: z.literal(0), ...shape });
}

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

export const commentB = z.object({
  id: n(),
  vid: n(),
  parentId: n().nullable(),
  text: z.string(),
  diggCount: n(),
  replyCount: n(),
  createTime: n(),
  isAuthor: z.boolean(),
  user: z.object({ id: n(), secUid: z.string(), nickname: z.string(), avatar: z.string() }),
  replyTo: z.object({ secUid: z.string(), nickname: z.string() }).nullable(),
});

/** Family B success body: `{code: '200', msg, data}`. */
export function bodyB<T extends z.ZodType>(data: T) {
  return z.object({ code: z.literal('200'), msg: z.string(), data });
}

/** A user as the 私信 and 互动消息 answers carry them (src/shared/messaging.ts ImUser). */
export const imUser = z.object({
  uid: z.string(),
  sec_uid: z.string(),
  nickname: z.string(),
  avatar_thumb: urlList,
  follow_status: followStatus,
  follower_status: bit,
});
