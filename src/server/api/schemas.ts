/** Response schemas with Douyin's field names (Family A) and the simple backend's (Family B); tests parse every answer with them. */
import { z } from 'zod';
import { aweme, bit, followStatus, mediaRef, urlList, user } from '../../shared/api-shapes.ts';

// The shapes browser code reads live in src/shared; the API's registry and tests keep finding them here.
export {
  aweme,
  bit,
  comment,
  feedAweme,
  feedVideoB,
  followStatus,
  followUser,
  music,
  profileUser,
  searchUser,
  selfUser,
  urlList,
  user,
  videoB,
  sized as mediaRefSized,
} from '../../shared/api-shapes.ts';

const n = () => z.number().int();

/** A list's next position (list-cursor.ts): an opaque token to pass back as the next request's cursor. */
export const nextCursor = z.string().describe('Pass back as the next page’s cursor (max_cursor), unchanged');

export const historyAweme = aweme.extend({
  history_info: z.object({ progress_ms: n(), watched_at: n() }),
});

export const mixInfo = z.object({
  mix_id: z.string(),
  mix_name: z.string(),
  mix_type: z.enum(['mix', 'theatre']),
  desc: z.string(),
  cover_url: mediaRef,
  create_time: n(),
  statis: z.object({ updated_to_episode: n() }),
  first_aweme_id: z.string().nullable(),
  author: user,
  /** Where the series plays on this site: a 合集's page (/collection/{mix_id}), a drama's (/vs/{id}). */
  share_info: z.object({ share_url: z.string(), share_title: z.string() }),
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

/** Family B's reference to a user, as comments and logins carry it. */
export const userRefB = z.object({ id: n(), secUid: z.string(), nickname: z.string(), avatar: z.string() });

export const commentB = z.object({
  id: n(),
  vid: n(),
  parentId: n().nullable(),
  text: z.string(),
  diggCount: n(),
  replyCount: n(),
  createTime: n(),
  isAuthor: z.boolean(),
  user: userRefB,
  replyTo: z.object({ secUid: z.string(), nickname: z.string() }).nullable(),
});

/** A profile in Family B's camelCase (user/userInfo). */
export const userB = userRefB.extend({
  signature: z.string(),
  /** Users this user follows (关注). */
  followingCount: n(),
  /** Users following this user (粉丝). */
  followerCount: n(),
  awemeCount: n(),
  /** Likes received on this user's videos (获赞). */
  totalFavorited: n(),
  /** Videos this user liked. */
  favoritingCount: n(),
  /** Videos this user collected: on the viewer's own profile only, null on another's. */
  collectCount: n().nullable(),
  /** The viewer follows this user. */
  isFollowing: z.boolean(),
  /** This user follows the viewer. */
  isFollower: z.boolean(),
  /** Whether others may see this user's liked and collected videos. */
  likesPublic: z.boolean(),
  collectsPublic: z.boolean(),
});

/** A channel (分类) in Family B's camelCase. */
export const categoryB = z.object({
  id: n(),
  name: z.string(),
  description: z.string(),
  /** URL of the channel page's banner. */
  banner: z.string(),
  hashtags: z.array(z.string()),
  /** Works anyone may see in the channel. */
  videoCount: n(),
});

/** What a Family B login answers: the token for the Token header (the session cookie is set as well). */
export const loginB = z.object({
  token: z.string(),
  /** Unix milliseconds. */
  expiresAt: n(),
  /** True when this login created the account (first code login). */
  created: z.boolean(),
  user: userRefB,
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
