/**
 * The API's answer shapes that browser code reads (videos, users, comments), as zod schemas: the API checks its answers
 * against them, the OpenAPI document is built from them, and the browser takes their types. Browser modules import
 * types only (`import type`), which keeps zod out of their bundles.
 *
 * Family A's shapes are douyin.com web's: every field such a client reads is present, an empty list, empty string or
 * null where there is nothing to say, so that reading `a.b.c` never throws.
 */
import { z } from 'zod';
import { FEED_POOLS, FEED_SIGNALS } from './feed-reason.ts';

const n = () => z.number().int();

export const bit = z.union([z.literal(0), z.literal(1)]);
/** 0 not following, 1 following, 2 following each other. */
export const followStatus = z.union([z.literal(0), z.literal(1), z.literal(2)]);
export const urlList = z.object({ url_list: z.array(z.string()) });
/** A file as Douyin names one: `uri` (its path under the media root) and the addresses that serve it. */
export const mediaRef = urlList.extend({ uri: z.string() });
/** A picture or a video file with its size in pixels. */
export const sized = mediaRef.extend({ width: n(), height: n() });
/** A video file: its size in pixels and in bytes. */
const playAddr = sized.extend({ data_size: n() });

/** A #hashtag of a text, at UTF-16 offsets as JavaScript clients slice the text. */
const hashtagExtra = z.object({ type: z.literal(1), start: n(), end: n(), hashtag_name: z.string() });
/** An @mention of a text that names a user (one that names nobody is left out). */
const mentionExtra = z.object({ type: z.literal(0), start: n(), end: n(), user_id: z.string(), sec_uid: z.string() });
/** Douyin's text_extra: the mentions (type 0) and hashtags (type 1) of a description or comment, in text order. */
export const textExtra = z.discriminatedUnion('type', [mentionExtra, hashtagExtra]);

/**
 * The fields every user object of Family A carries, wherever it appears (a video's author, a profile, a row of a
 * follow list or of the user search, a commenter, a mix's author); each place extends it.
 */
export const user = z.object({
  uid: z.string(),
  sec_uid: z.string(),
  /** 闪映号, as the profile page shows it. */
  unique_id: z.string(),
  /** Douyin's numeric short id: the account number. */
  short_id: z.string(),
  nickname: z.string(),
  signature: z.string(),
  avatar_thumb: mediaRef,
  avatar_medium: mediaRef,
  avatar_larger: mediaRef,
  avatar_300x300: mediaRef,
  /** The profile banner (one picture). */
  cover_url: z.array(mediaRef),
  /** Users following this user (粉丝). */
  follower_count: n(),
  /** Douyin's followers over all its apps: here the same as follower_count. */
  mplatform_followers_count: n(),
  /** Users this user follows (关注). */
  following_count: n(),
  aweme_count: n(),
  /** Videos this user liked. */
  favoriting_count: n(),
  /** Likes received on this user's videos (获赞). */
  total_favorited: n(),
  follow_status: followStatus,
  /** 1 when this user follows the viewer. */
  follower_status: bit,
  /** 'IP属地：广东', or '' while unknown. */
  ip_location: z.string(),
  /** Verification labels: none here (''). */
  custom_verify: z.string(),
  enterprise_verify_reason: z.string(),
  /** 1 for a private account; every account here is public. */
  secret: bit,
});

/** The sound of a video: its original sound (Douyin's '@nickname创作的原声'), which is the video file's audio track. */
export const music = z.object({
  id: n(),
  id_str: z.string(),
  mid: z.string(),
  title: z.string(),
  author: z.string(),
  album: z.string(),
  owner_id: z.string(),
  owner_nickname: z.string(),
  sec_uid: z.string(),
  cover_thumb: mediaRef,
  cover_medium: mediaRef,
  cover_large: mediaRef,
  play_url: mediaRef,
  /** Seconds. */
  duration: n(),
  is_original_sound: z.boolean(),
});

export const aweme = z.object({
  aweme_id: z.string(),
  /** 0 a video (Douyin's other kinds, such as 68 a picture set, do not occur here). */
  aweme_type: z.literal(0),
  /** 4 a video (2 would be a picture set). */
  media_type: z.literal(4),
  desc: z.string(),
  /** The text a preview shows: the description. */
  preview_title: z.string(),
  /** Unix seconds. */
  create_time: n(),
  /** Milliseconds (as video.duration). */
  duration: n(),
  group_id: z.string(),
  author_user_id: n(),
  text_extra: z.array(textExtra),
  /** Text a search engine may index: the description. */
  seo_info: z.object({ ocr_content: z.string() }),
  author: user,
  music,
  statistics: z.object({
    digg_count: n(),
    comment_count: n(),
    collect_count: n(),
    share_count: n(),
    play_count: n(),
    /** Admirations (赞赏): none here. */
    admire_count: n(),
  }),
  status: z.object({
    is_delete: z.boolean(),
    allow_share: z.boolean(),
    /** 0 public, 1 only the author, 2 friends. */
    private_status: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    in_reviewing: z.boolean(),
    is_prohibited: z.boolean(),
    /** 1 when only some people may see it (friends-only). */
    part_see: bit,
    review_result: z.object({ review_status: n() }),
  }),
  aweme_control: z.object({
    can_forward: z.boolean(),
    can_share: z.boolean(),
    can_comment: z.boolean(),
    can_show_comment: z.boolean(),
  }),
  /** The video page's address on this site. */
  share_url: z.string(),
  share_info: z.object({ share_url: z.string(), share_title: z.string(), share_link_desc: z.string() }),
  /** 1 when pinned to the top of the author's profile (置顶): never here. */
  is_top: bit,
  /** A picture set's pictures: null for a video. */
  images: z.null(),
  /** A warning the player shows over the video: none here (empty content, warn false). */
  risk_infos: z.object({ content: z.string(), type: n(), warn: z.boolean(), vote: z.boolean() }),
  /** Whether saving the video is refused: the media is served to anyone who may see the work. */
  prevent_download: z.boolean(),
  user_digged: bit,
  collect_stat: bit,
  video: z.object({
    play_addr: playAddr,
    /** Every rendition, highest first (a seeded clip has one): the player picks by size and bandwidth. */
    bit_rate: z.array(
      z.object({
        gear_name: z.string(),
        /** Bits per second. */
        bit_rate: n(),
        is_h265: bit,
        format: z.literal('mp4'),
        play_addr: playAddr,
      }),
    ),
    cover: sized,
    /** The uncropped cover: the same poster here. */
    origin_cover: sized,
    /** Douyin's animated cover; the still poster here. */
    dynamic_cover: sized,
    /** Milliseconds. */
    duration: n(),
    width: n(),
    height: n(),
    /** The quality of the short side, as Douyin names it. */
    ratio: z.enum(['540p', '720p', '1080p']),
    format: z.literal('mp4'),
    /** The work's captions (字幕) as WebVTT files, as Douyin's and TikTok's clients read them; empty when it has none. */
    caption_infos: z.array(
      z.object({
        /** BCP 47, e.g. zh-CN. */
        language_code: z.string(),
        lang: z.string(),
        caption_format: z.literal('webvtt'),
        url: z.string(),
        url_list: z.array(z.string()),
        /** 1 when written by the caption engine, 0 when the author's. */
        is_auto_generated: bit,
        sub_id: z.string(),
      }),
    ),
  }),
});

/** Why the recommend feed picked an item (为什么推荐): its pool, in words, the signals and its channel. */
export const recommendReason = z.object({
  /** The candidate pool: follow, own, affinity (the viewer's channels and authors), fresh, popular, explore. */
  code: z.enum(FEED_POOLS),
  /** The reason in words: 你关注的作者, 你常看的美食, 热门, 新作品, 探索… */
  text: z.string(),
  /** What weighed on its rank (FEED_SIGNALS): less is 减少此类, disliked 不感兴趣 on its author or channel. */
  signals: z.array(z.enum(FEED_SIGNALS)),
  /** The work's channel, what 减少此类 lowers, and its name. */
  channel_id: n(),
  channel_name: z.string(),
});

/** An aweme of the recommend feed: with why it was picked. */
export const feedAweme = aweme.extend({ recommend_reason: recommendReason });

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

/** A Family B video of the recommend feed: with why it was picked, in this family's camelCase. */
export const feedVideoB = videoB.extend({
  recommendReason: z.object({
    code: recommendReason.shape.code,
    text: z.string(),
    signals: recommendReason.shape.signals,
    channelId: n(),
    channelName: z.string(),
  }),
});

/** A row of a 关注 or 粉丝 list. */
export const followUser = user.extend({
  /** When the follow in this list was made (unix seconds). */
  follow_time: n(),
  /** The room of the broadcast this user is on air with, 0 when not live (douyin's room_id). */
  room_id: n(),
});

/** A user result of the search. */
export const searchUser = user;

/** A profile (user/profile/self and user/profile/other). */
export const profileUser = user.extend({
  /** Whether others may see this user's liked and collected videos. */
  favorite_permission: z.object({ likes_public: z.boolean(), collects_public: z.boolean() }),
  /** 0 not shown, 1 male, 2 female (编辑资料's 性别). */
  gender: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  /** Age in whole years from the birthday, -1 while no birthday is given. */
  user_age: n(),
});

/** The viewer's own profile (user/profile/self, commit/user): also what only the owner sees, the birthday itself. */
export const selfUser = profileUser.extend({
  /** 'YYYY-MM-DD', or '' while not given. */
  birthday: z.string(),
});

export const comment = z.object({
  cid: z.string(),
  aweme_id: z.string(),
  text: z.string(),
  text_extra: z.array(textExtra),
  create_time: n(),
  digg_count: n(),
  reply_comment_total: n(),
  user: user,
  /** The commenter's IP province ('广东'), '' while unknown. */
  ip_label: z.string(),
  user_digged: bit,
  /** The video's author liked it (作者赞过). */
  is_author_digged: z.boolean(),
  /** Folded away as low quality: never here. */
  is_folded: z.boolean(),
  /** 1 when written by the video's author (作者). */
  label_type: bit,
  /** The top-level comment a reply belongs to; '0' for a top-level comment. */
  reply_id: z.string(),
  reply_to_username: z.string().nullable(),
  reply_to_sec_uid: z.string().nullable(),
  status: z.literal(1),
});

/** The viewer's relation to a user: 0 none (关注), 1 following (已关注), 2 following each other (互相关注). */
export type FollowStatus = z.infer<typeof followStatus>;
export type User = z.infer<typeof user>;
export type Aweme = z.infer<typeof aweme>;
export type FeedAweme = z.infer<typeof feedAweme>;
export type RecommendReason = z.infer<typeof recommendReason>;
export type VideoB = z.infer<typeof videoB>;
export type FollowUser = z.infer<typeof followUser>;
export type SearchUser = z.infer<typeof searchUser>;
export type ProfileUser = z.infer<typeof profileUser>;
export type SelfUser = z.infer<typeof selfUser>;
export type ApiComment = z.infer<typeof comment>;
