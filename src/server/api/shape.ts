/** Service objects → API shapes: Douyin's awemes, users, comments, mixes and live rooms (Family A), and Family B's camelCase. */
import type { z } from 'zod';
import { hashtagSpans } from '../../shared/hashtag-text.ts';
import { gearName } from '../media/ladder.ts';
import { isStudioMedia } from '../media/paths.ts';
import { mediaUrl } from '../media-url.ts';
import type { LoginResult } from '../services/auth/login.ts';
import type { Channel } from '../services/channels.ts';
import type { CommentView } from '../services/comments.ts';
import type { LiveRoomCard } from '../services/live.ts';
import { ladderOrFile, laddersOf, type Rendition } from '../services/renditions.ts';
import type { SeriesInfo } from '../services/series.ts';
import type { Viewer } from '../services/sessions.ts';
import type { FollowUser } from '../services/social.ts';
import { followStatuses, type Profile } from '../services/users.ts';
import type { AuthorRef, VideoCard } from '../services/video-cards.ts';
import { viewerVideoStates, type HistoryCard } from '../services/videos.ts';
import type * as s from './schemas.ts';

type Aweme = z.input<typeof s.aweme>;
type FollowStatus = 0 | 1 | 2;

/** What the viewer has done to the videos and authors of a list. */
export interface ViewerState {
  liked: Set<number>;
  collected: Set<number>;
  follow: Map<number, FollowStatus>;
  /** Each video's renditions (the same for every viewer); a video missing here answers its one file. */
  ladders?: Map<number, Rendition[]>;
}

const EMPTY: ViewerState = { liked: new Set(), collected: new Set(), follow: new Map() };

/** Loads the renditions of `cards`, and the viewer's likes, collects and follows (nothing of those when anonymous). */
export async function stateFor(viewer: Viewer | null, cards: VideoCard[]): Promise<ViewerState> {
  if (cards.length === 0) return EMPTY;
  const ids = cards.map((c) => c.id);
  // Only studio works have a ladder to look up: a list of seeded clips costs no query (ladderOrFile answers their file).
  const laddered = cards.filter((c) => isStudioMedia(c.media)).map((c) => c.id);
  if (!viewer) return { ...EMPTY, ladders: await laddersOf(laddered) };
  const [videos, follow, ladders] = await Promise.all([
    viewerVideoStates(viewer.id, ids),
    followStatuses(viewer.id, cards.map((c) => c.author.id)),
    laddersOf(laddered),
  ]);
  return { ...videos, follow, ladders };
}

/** Douyin's `video.bit_rate[]`: one entry per rendition, highest gear first. */
function bitRates(card: VideoCard, ladder: Rendition[] | undefined): Aweme['video']['bit_rate'] {
  return ladderOrFile(card, ladder).map((r) => ({
    gear_name: gearName(r.gear),
    bit_rate: r.bitRate,
    play_addr: { url_list: [mediaUrl(r.path)], width: r.width, height: r.height, data_size: r.sizeBytes },
  }));
}

export const unix = (d: Date): number => Math.floor(d.getTime() / 1000);
const urls = (rel: string) => ({ url_list: [mediaUrl(rel)] });
/** A boolean as Douyin's 0/1. */
export const asBit = (b: boolean): 0 | 1 => (b ? 1 : 0);

/** 0 none, 1 following, 2 following each other. */
export const followStatusOf = (following: boolean, mutual: boolean): FollowStatus => (following ? (mutual ? 2 : 1) : 0);

/** A user of the 私信 and 互动消息 answers, with the viewer's relation to them and theirs to the viewer. */
export function imUser(u: { id: number; secUid: string; nickname: string; avatar: string }, following: boolean, followedBy: boolean): z.input<typeof s.imUser> {
  return {
    uid: String(u.id),
    sec_uid: u.secUid,
    nickname: u.nickname,
    avatar_thumb: { url_list: [mediaUrl(u.avatar)] },
    follow_status: followStatusOf(following, followedBy),
    follower_status: asBit(followedBy),
  };
}

/** Hashtags written as `#name` in a description, with UTF-16 offsets as JavaScript clients slice them. */
export function textExtra(desc: string): { hashtag_name: string; start: number; end: number; type: 1 }[] {
  return hashtagSpans(desc).map((h) => ({ hashtag_name: h.name, start: h.start, end: h.end, type: 1 as const }));
}

/** A video as Douyin's aweme. */
export function aweme(card: VideoCard, state: ViewerState = EMPTY): Aweme {
  return {
    aweme_id: String(card.id),
    aweme_type: 0,
    desc: card.desc,
    create_time: unix(card.createdAt),
    text_extra: textExtra(card.desc),
    author: {
      uid: String(card.author.id),
      sec_uid: card.author.secUid,
      nickname: card.author.nickname,
      avatar_thumb: urls(card.author.avatar),
      follow_status: state.follow.get(card.author.id) ?? 0,
    },
    statistics: {
      digg_count: card.diggCount,
      comment_count: card.commentCount,
      collect_count: card.collectCount,
      share_count: card.shareCount,
      play_count: card.playCount,
    },
    user_digged: asBit(state.liked.has(card.id)),
    collect_stat: asBit(state.collected.has(card.id)),
    video: {
      play_addr: urls(card.media),
      bit_rate: bitRates(card, state.ladders?.get(card.id)),
      cover: urls(card.poster),
      duration: card.durationMs,
      width: card.width,
      height: card.height,
    },
  };
}

/** A list of videos as awemes with the viewer's state. */
export async function awemeList(viewer: Viewer | null, cards: VideoCard[]): Promise<Aweme[]> {
  const state = await stateFor(viewer, cards);
  return cards.map((c) => aweme(c, state));
}

/** History entries: awemes with where the viewer stopped. */
export async function historyList(viewer: Viewer, cards: HistoryCard[]): Promise<z.input<typeof s.historyAweme>[]> {
  const state = await stateFor(viewer, cards);
  return cards.map((c) => ({ ...aweme(c, state), history_info: { progress_ms: c.progressMs, watched_at: unix(c.watchedAt) } }));
}

/** A profile as Douyin's user object. */
export function profileUser(p: Profile): z.input<typeof s.profileUser> {
  return {
    uid: String(p.id),
    sec_uid: p.secUid,
    nickname: p.nickname,
    signature: p.signature,
    avatar_thumb: urls(p.avatar),
    avatar_300x300: urls(p.avatar),
    avatar_larger: urls(p.avatar),
    favoriting_count: p.favoritingCount,
    follower_count: p.followerCount,
    following_count: p.followingCount,
    aweme_count: p.awemeCount,
    total_favorited: p.totalFavorited,
    follow_status: followStatusOf(p.isFollowing, p.followsViewer),
    follower_status: asBit(p.followsViewer),
    favorite_permission: { likes_public: p.privacy.likesPublic, collects_public: p.privacy.collectsPublic },
  };
}

/** An entry of a following or follower list. */
export function followUser(u: FollowUser, status: FollowStatus): z.input<typeof s.followUser> {
  return {
    uid: String(u.id),
    sec_uid: u.secUid,
    nickname: u.nickname,
    signature: u.signature,
    avatar_thumb: urls(u.avatar),
    follower_count: u.followerCount,
    following_count: u.followingCount,
    aweme_count: u.awemeCount,
    follow_status: status,
    follow_time: unix(u.followedAt),
  };
}

/** A list of users with the viewer's relation to each. */
export async function followUsers(viewer: Viewer | null, list: FollowUser[]): Promise<z.input<typeof s.followUser>[]> {
  const status = viewer ? await followStatuses(viewer.id, list.map((u) => u.id)) : new Map<number, FollowStatus>();
  return list.map((u) => followUser(u, status.get(u.id) ?? 0));
}

/** A comment as Douyin's comment object. */
export function comment(c: CommentView, liked: boolean): z.input<typeof s.comment> {
  return {
    cid: String(c.id),
    aweme_id: String(c.videoId),
    text: c.text,
    create_time: unix(c.createdAt),
    digg_count: c.diggCount,
    reply_comment_total: c.replyCount,
    user: { uid: String(c.user.id), sec_uid: c.user.secUid, nickname: c.user.nickname, avatar_thumb: urls(c.user.avatar) },
    user_digged: asBit(liked),
    is_author_digged: c.authorLiked,
    label_type: asBit(c.isAuthor),
    reply_id: String(c.parentId ?? 0),
    reply_to_username: c.replyTo?.nickname ?? null,
    reply_to_sec_uid: c.replyTo?.secUid ?? null,
    status: 1,
  };
}

/** A series as Douyin's mix_info. */
export function mixInfo(x: SeriesInfo): z.input<typeof s.mixInfo> {
  return {
    mix_id: String(x.id),
    mix_name: x.title,
    mix_type: x.kind,
    desc: x.description,
    cover_url: urls(x.cover),
    create_time: unix(x.createdAt),
    statis: { updated_to_episode: x.itemCount },
    first_aweme_id: x.firstVideoId === null ? null : String(x.firstVideoId),
    author: { uid: String(x.author.id), sec_uid: x.author.secUid, nickname: x.author.nickname, avatar_thumb: urls(x.author.avatar) },
  };
}

/** A live room as an entry of webcast/feed. */
export function liveRoom(r: LiveRoomCard): z.input<typeof s.liveRoom> {
  return {
    web_rid: String(r.id),
    type: 0,
    data: {
      id_str: String(r.id),
      title: r.title,
      status: 2,
      user_count: r.viewerCount,
      create_time: unix(r.startedAt),
      cover: urls(r.cover),
      stream_url: urls(r.media),
      owner: { sec_uid: r.host.secUid, nickname: r.host.nickname, avatar_thumb: urls(r.host.avatar) },
    },
  };
}

/** A video in Family B's camelCase. */
export function videoB(card: VideoCard, state: ViewerState = EMPTY): z.input<typeof s.videoB> {
  return {
    id: card.id,
    desc: card.desc,
    cover: mediaUrl(card.poster),
    playUrl: mediaUrl(card.media),
    duration: card.durationMs,
    width: card.width,
    height: card.height,
    createTime: card.createdAt.getTime(),
    channelId: card.channelId,
    diggCount: card.diggCount,
    commentCount: card.commentCount,
    collectCount: card.collectCount,
    shareCount: card.shareCount,
    playCount: card.playCount,
    isLiked: state.liked.has(card.id),
    isCollected: state.collected.has(card.id),
    author: userRefB(card.author),
  };
}

export async function videoListB(viewer: Viewer | null, cards: VideoCard[]): Promise<z.input<typeof s.videoB>[]> {
  const state = await stateFor(viewer, cards);
  return cards.map((c) => videoB(c, state));
}

/** A comment in Family B's camelCase. */
export function commentB(c: CommentView): z.input<typeof s.commentB> {
  return {
    id: c.id,
    vid: c.videoId,
    parentId: c.parentId,
    text: c.text,
    diggCount: c.diggCount,
    replyCount: c.replyCount,
    createTime: c.createdAt.getTime(),
    isAuthor: c.isAuthor,
    user: userRefB(c.user),
    replyTo: c.replyTo,
  };
}

/** A user reference in Family B's camelCase (a video's author, a comment's writer, who logged in). */
export function userRefB(u: AuthorRef): z.input<typeof s.userRefB> {
  return { id: u.id, secUid: u.secUid, nickname: u.nickname, avatar: mediaUrl(u.avatar) };
}

/** A profile in Family B's camelCase; the collect count only when it is the viewer's own. */
export function userB(p: Profile, own: boolean): z.input<typeof s.userB> {
  return {
    ...userRefB(p),
    signature: p.signature,
    followingCount: p.followingCount,
    followerCount: p.followerCount,
    awemeCount: p.awemeCount,
    totalFavorited: p.totalFavorited,
    favoritingCount: p.favoritingCount,
    collectCount: own ? p.collectCount : null,
    isFollowing: p.isFollowing,
    isFollower: p.followsViewer,
    likesPublic: p.privacy.likesPublic,
    collectsPublic: p.privacy.collectsPublic,
  };
}

/** A channel in Family B's camelCase. */
export function categoryB(c: Channel): z.input<typeof s.categoryB> {
  return { id: c.id, name: c.name, description: c.description, banner: mediaUrl(c.banner), hashtags: c.hashtags, videoCount: c.videoCount };
}

/** A login's answer in Family B's camelCase. */
export function loginB(r: LoginResult): z.input<typeof s.loginB> {
  return { token: r.token, expiresAt: r.expiresAt.getTime(), created: r.created, user: userRefB(r.user) };
}
