/** Service objects → API shapes: Douyin's awemes, users, comments, mixes and live rooms (Family A), and Family B's camelCase. */
import type { z } from 'zod';
import { ipLocation, t } from '../../i18n/t.ts';
import type { recommendReason } from '../../shared/api-shapes.ts';
import type { ItemReason } from '../../shared/feed-reason.ts';
import { hashtagSpans } from '../../shared/hashtag-text.ts';
import { mentionedNames, mentionSpans } from '../../shared/mention-text.ts';
import { ageOn, chinaToday } from '../../shared/profile-edit.ts';
import { shanyingId } from '../../shared/user-id.ts';
import { gearName, gearOf } from '../media/ladder.ts';
import { isStudioMedia } from '../media/paths.ts';
import { mediaUrl } from '../media-url.ts';
import type { LoginResult } from '../services/auth/login.ts';
import { liveHostsAmong } from '../services/live.ts';
import type { Channel } from '../services/channels.ts';
import { likedCommentIds, type CommentView } from '../services/comments.ts';
import type { LiveRoomCard } from '../services/live.ts';
import { usersByNickname } from '../services/mention-links.ts';
import type { MentionedUser } from '../services/mentions.ts';
import { captionsOf, type CaptionRef } from '../services/captions.ts';
import { ladderOrFile, laddersOf, type Rendition } from '../services/renditions.ts';
import { seriesPath, type SeriesInfo } from '../services/series.ts';
import type { Viewer } from '../services/sessions.ts';
import type { FollowUser } from '../services/social.ts';
import type { UserCard } from '../services/user-cards.ts';
import { followStatusFor, relations, type Profile, type Relation } from '../services/users.ts';
import type { AuthorRef, VideoCard } from '../services/video-cards.ts';
import { viewerVideoStates, type HistoryCard } from '../services/videos.ts';
import type * as s from './schemas.ts';

type Aweme = z.input<typeof s.aweme>;
type ApiUser = z.input<typeof s.user>;

/** Who asks: the viewer (their marks on what is listed) and their request (share links are made on its origin). */
export interface Asker {
  viewer: Viewer | null;
  request: Request;
}

/** What a list of videos needs besides its cards: the viewer's marks, the renditions and the users its texts mention. */
export interface ViewerState {
  liked: Set<number>;
  collected: Set<number>;
  /** The viewer's relation to the authors (only those following or followed). */
  relations: Map<number, Relation>;
  /** Each video's renditions (the same for every viewer); a video missing here answers its one file. */
  ladders?: Map<number, Rendition[]>;
  /** Users the descriptions @mention, by nickname. */
  mentioned?: Map<string, MentionedUser>;
  /** Each video's caption file (videos without captions are missing). */
  captions?: Map<number, CaptionRef>;
}

const EMPTY: ViewerState = { liked: new Set(), collected: new Set(), relations: new Map() };

/** The users `texts` @mention, by nickname: one lookup for a whole list, none when nothing is mentioned. */
async function mentionedIn(texts: string[]): Promise<Map<string, MentionedUser>> {
  const names = [...new Set(texts.flatMap(mentionedNames))];
  if (names.length === 0) return new Map();
  return new Map((await usersByNickname(names)).map((u) => [u.nickname, u]));
}

/** The viewer's relation to each of `userIds` (none when anonymous). */
async function relationsOf(viewer: Viewer | null, userIds: number[]): Promise<Map<number, Relation>> {
  return viewer ? relations(viewer.id, userIds) : new Map();
}

/** Loads the renditions of `cards`, the users their descriptions mention, and the viewer's likes, collects and follows (nothing of those when anonymous). */
export async function stateFor(viewer: Viewer | null, cards: VideoCard[]): Promise<ViewerState> {
  if (cards.length === 0) return EMPTY;
  const ids = cards.map((c) => c.id);
  // Only studio works have a ladder to look up: a list of seeded clips costs no query (ladderOrFile answers their file).
  const laddered = cards.filter((c) => isStudioMedia(c.media)).map((c) => c.id);
  const [videos, rel, ladders, mentioned, captions] = await Promise.all([
    viewer ? viewerVideoStates(viewer.id, ids) : EMPTY,
    relationsOf(
      viewer,
      cards.map((c) => c.author.id),
    ),
    laddersOf(laddered),
    mentionedIn(cards.map((c) => c.desc)),
    captionsOf(ids),
  ]);
  return { liked: videos.liked, collected: videos.collected, relations: rel, ladders, mentioned, captions };
}

export const unix = (d: Date): number => Math.floor(d.getTime() / 1000);
const urls = (rel: string) => ({ url_list: [mediaUrl(rel)] });
/** A file under the media root as Douyin names one. */
const image = (rel: string) => ({ uri: rel, url_list: [mediaUrl(rel)] });
const sized = (rel: string, width: number, height: number) => ({ ...image(rel), width, height });
/** A boolean as Douyin's 0/1. */
export const asBit = (b: boolean): 0 | 1 => (b ? 1 : 0);
const origin = (request: Request) => new URL(request.url).origin;

/** A user of the 私信 and 互动消息 answers, with the viewer's relation to them and theirs to the viewer. */
export function imUser(
  u: { id: number; secUid: string; nickname: string; avatar: string },
  following: boolean,
  followedBy: boolean,
): z.input<typeof s.imUser> {
  return {
    uid: String(u.id),
    sec_uid: u.secUid,
    nickname: u.nickname,
    avatar_thumb: { url_list: [mediaUrl(u.avatar)] },
    follow_status: followStatusFor({ following, followedBy }),
    follower_status: asBit(followedBy),
  };
}

/** A user as every Family A answer carries one, with the viewer's relation to them. */
export function user(u: UserCard, relation?: Relation): ApiUser {
  const avatar = image(u.avatar);
  return {
    uid: String(u.id),
    sec_uid: u.secUid,
    unique_id: shanyingId(u.secUid),
    short_id: String(u.id),
    nickname: u.nickname,
    signature: u.signature,
    avatar_thumb: avatar,
    avatar_medium: avatar,
    avatar_larger: avatar,
    avatar_300x300: avatar,
    cover_url: [image(u.banner)],
    follower_count: u.followerCount,
    mplatform_followers_count: u.followerCount,
    following_count: u.followingCount,
    aweme_count: u.awemeCount,
    favoriting_count: u.favoritingCount,
    total_favorited: u.totalFavorited,
    follow_status: followStatusFor(relation),
    follower_status: asBit(relation?.followedBy ?? false),
    ip_location: ipLocation(u.ipProvince),
    custom_verify: '',
    enterprise_verify_reason: '',
    secret: 0,
  };
}

/**
 * Douyin's text_extra of a text: its @mentions that name a user (type 0) and its #hashtags (type 1), in text order,
 * at UTF-16 offsets as JavaScript clients slice the text. A '#' inside a mention is part of the name, not a hashtag.
 */
export function textExtra(text: string, mentioned: Map<string, MentionedUser> = new Map()): Aweme['text_extra'] {
  const spans = mentionSpans(text);
  const mentions = spans.flatMap((m) => {
    const u = mentioned.get(m.name);
    return u ? [{ type: 0 as const, start: m.start, end: m.end, user_id: String(u.id), sec_uid: u.secUid }] : [];
  });
  const inMention = (at: number) => spans.some((m) => at > m.start && at < m.end);
  const hashtags = hashtagSpans(text)
    .filter((h) => !inMention(h.start))
    .map((h) => ({ type: 1 as const, start: h.start, end: h.end, hashtag_name: h.name }));
  return [...mentions, ...hashtags].sort((a, b) => a.start - b.start);
}

/** Douyin's `video.bit_rate[]`: one entry per rendition, highest gear first; `file` is the card's own media, reused. */
function bitRates(
  card: VideoCard,
  ladder: Rendition[] | undefined,
  file: ReturnType<typeof image>,
): Aweme['video']['bit_rate'] {
  return ladderOrFile(card, ladder).map((r) => ({
    gear_name: gearName(r.gear),
    bit_rate: r.bitRate,
    is_h265: 0,
    format: 'mp4',
    play_addr: {
      ...(r.path === card.media ? file : image(r.path)),
      width: r.width,
      height: r.height,
      data_size: r.sizeBytes,
    },
  }));
}

const PRIVATE_STATUS = { public: 0, private: 1, friends: 2 } as const;

/** The video's original sound: its own audio track (`file`), credited to its author as Douyin credits one. */
function originalSound(card: VideoCard, author: ApiUser, file: ReturnType<typeof image>): Aweme['music'] {
  const cover = author.avatar_thumb;
  return {
    id: card.id,
    id_str: String(card.id),
    mid: String(card.id),
    title: t('user.originalSound', { nickname: card.author.nickname }),
    author: card.author.nickname,
    album: '',
    owner_id: String(card.author.id),
    owner_nickname: card.author.nickname,
    sec_uid: card.author.secUid,
    cover_thumb: cover,
    cover_medium: cover,
    cover_large: cover,
    play_url: file,
    duration: Math.round(card.durationMs / 1000),
    is_original_sound: true,
  };
}

/** Douyin's `video.caption_infos[]`: the work's one caption track, or none. */
function captionInfos(videoId: number, ref: CaptionRef | undefined): Aweme['video']['caption_infos'] {
  if (!ref) return [];
  return [
    {
      language_code: ref.lang,
      lang: ref.lang.split('-')[0]!,
      caption_format: 'webvtt',
      url: ref.url,
      url_list: [ref.url],
      is_auto_generated: asBit(ref.source === 'auto'),
      sub_id: String(videoId),
    },
  ];
}

/** The sound of a work, as its aweme's music (收藏 → 音乐 lists these). */
export function soundOf(card: VideoCard): Aweme['music'] {
  return originalSound(card, user(card.author), image(card.media));
}

/** A video as Douyin's aweme; `origin` is the site's, for its share links. */
export function aweme(card: VideoCard, state: ViewerState, origin: string): Aweme {
  const url = `${origin}/video/${card.id}`;
  // Objects that several fields share are made once (JSON writes each place out): a list's shaping costs little beside its query.
  const file = image(card.media);
  const poster = sized(card.poster, card.width, card.height);
  const author = user(card.author, state.relations.get(card.author.id));
  const shareable = card.visibility !== 'private';
  return {
    aweme_id: String(card.id),
    aweme_type: 0,
    media_type: 4,
    desc: card.desc,
    preview_title: card.desc,
    create_time: unix(card.createdAt),
    duration: card.durationMs,
    group_id: String(card.id),
    author_user_id: card.author.id,
    text_extra: textExtra(card.desc, state.mentioned),
    seo_info: { ocr_content: card.desc },
    author,
    music: originalSound(card, author, file),
    statistics: {
      digg_count: card.diggCount,
      comment_count: card.commentCount,
      collect_count: card.collectCount,
      share_count: card.shareCount,
      play_count: card.playCount,
      admire_count: 0,
    },
    // Lists hold only published works their viewer may see: none is deleted, prohibited or in review.
    status: {
      is_delete: false,
      allow_share: shareable,
      private_status: PRIVATE_STATUS[card.visibility],
      in_reviewing: false,
      is_prohibited: false,
      part_see: asBit(card.visibility === 'friends'),
      review_result: { review_status: 0 },
    },
    aweme_control: {
      can_forward: shareable,
      can_share: shareable,
      can_comment: card.allowComments,
      can_show_comment: true,
    },
    share_url: url,
    share_info: {
      share_url: url,
      share_title: card.desc,
      share_link_desc: t('share.code', { nickname: card.author.nickname, desc: card.desc, url }),
    },
    is_top: 0,
    images: null,
    risk_infos: { content: '', type: 0, warn: false, vote: false },
    prevent_download: false,
    user_digged: asBit(state.liked.has(card.id)),
    collect_stat: asBit(state.collected.has(card.id)),
    video: {
      play_addr: { ...file, width: card.width, height: card.height, data_size: card.sizeBytes },
      bit_rate: bitRates(card, state.ladders?.get(card.id), file),
      cover: poster,
      origin_cover: poster,
      dynamic_cover: poster,
      duration: card.durationMs,
      width: card.width,
      height: card.height,
      ratio: `${gearOf(card.width, card.height)}p`,
      format: 'mp4',
      caption_infos: captionInfos(card.id, state.captions?.get(card.id)),
    },
  };
}

/** A feed item's reason (为什么推荐) with Douyin's snake_case names. */
export function reasonA(r: ItemReason): z.input<typeof recommendReason> {
  return { code: r.code, text: r.text, signals: r.signals, channel_id: r.channelId, channel_name: r.channelName };
}

/** A list of videos as awemes with the viewer's state. */
export async function awemeList(asker: Asker, cards: VideoCard[]): Promise<Aweme[]> {
  const state = await stateFor(asker.viewer, cards);
  const at = origin(asker.request);
  return cards.map((c) => aweme(c, state, at));
}

/** History entries: awemes with where the viewer stopped. */
export async function historyList(
  asker: Asker & { viewer: Viewer },
  cards: HistoryCard[],
): Promise<z.input<typeof s.historyAweme>[]> {
  const state = await stateFor(asker.viewer, cards);
  const at = origin(asker.request);
  return cards.map((c) => ({
    ...aweme(c, state, at),
    history_info: { progress_ms: c.progressMs, watched_at: unix(c.watchedAt) },
  }));
}

/** A profile as Douyin's user object. */
export function profileUser(p: Profile): z.input<typeof s.profileUser> {
  return {
    ...user(p, { following: p.isFollowing, followedBy: p.followsViewer }),
    favorite_permission: { likes_public: p.privacy.likesPublic, collects_public: p.privacy.collectsPublic },
    gender: p.gender === 1 || p.gender === 2 ? p.gender : 0,
    user_age: p.birthday ? ageOn(p.birthday, chinaToday()) : -1,
  };
}

/** The viewer's own profile: the public one and the birthday. */
export function selfUser(p: Profile): z.input<typeof s.selfUser> {
  return { ...profileUser(p), birthday: p.birthday ?? '' };
}

/** Users of a list (search results, say) with the viewer's relation to each. */
export async function userList(viewer: Viewer | null, list: UserCard[]): Promise<ApiUser[]> {
  const rel = await relationsOf(
    viewer,
    list.map((u) => u.id),
  );
  return list.map((u) => user(u, rel.get(u.id)));
}

/** A following or follower list with the viewer's relation to each. */
export async function followUsers(viewer: Viewer | null, list: FollowUser[]): Promise<z.input<typeof s.followUser>[]> {
  const ids = list.map((u) => u.id);
  const [rel, live] = await Promise.all([relationsOf(viewer, ids), liveHostsAmong(ids)]);
  return list.map((u) => ({
    ...user(u, rel.get(u.id)),
    follow_time: unix(u.followedAt),
    room_id: live.get(u.id) ?? 0,
  }));
}

/** A comment as Douyin's comment object; `mentioned` holds the users its text may @mention. */
export function comment(
  c: CommentView,
  liked: boolean,
  relation: Relation | undefined,
  mentioned: Map<string, MentionedUser>,
): z.input<typeof s.comment> {
  return {
    cid: String(c.id),
    aweme_id: String(c.videoId),
    text: c.text,
    text_extra: textExtra(c.text, mentioned),
    create_time: unix(c.createdAt),
    digg_count: c.diggCount,
    reply_comment_total: c.replyCount,
    user: user(c.user, relation),
    ip_label: c.user.ipProvince,
    user_digged: asBit(liked),
    is_author_digged: c.authorLiked,
    is_folded: false,
    label_type: asBit(c.isAuthor),
    reply_id: String(c.parentId ?? 0),
    reply_to_username: c.replyTo?.nickname ?? null,
    reply_to_sec_uid: c.replyTo?.secUid ?? null,
    status: 1,
  };
}

/** Comments with the viewer's likes and relation to each commenter, and the users their texts mention: a few queries per list. */
export async function commentList(viewer: Viewer | null, items: CommentView[]): Promise<z.input<typeof s.comment>[]> {
  const [liked, rel, mentioned] = await Promise.all([
    viewer
      ? likedCommentIds(
          viewer.id,
          items.map((c) => c.id),
        )
      : new Set<number>(),
    relationsOf(
      viewer,
      items.map((c) => c.user.id),
    ),
    mentionedIn(items.map((c) => c.text)),
  ]);
  return items.map((c) => comment(c, liked.has(c.id), rel.get(c.user.id), mentioned));
}

/** A series as Douyin's mix_info, with the viewer's relation to its author; `origin` is the site's, for its page's address. */
export function mixInfo(x: SeriesInfo, origin: string, relation?: Relation): z.input<typeof s.mixInfo> {
  return {
    mix_id: String(x.id),
    mix_name: x.title,
    mix_type: x.kind,
    desc: x.description,
    cover_url: image(x.cover),
    create_time: unix(x.createdAt),
    statis: { updated_to_episode: x.itemCount },
    first_aweme_id: x.firstVideoId === null ? null : String(x.firstVideoId),
    author: user(x.author, relation),
    share_info: { share_url: `${origin}${seriesPath(x)}`, share_title: x.title },
  };
}

/** Series with the viewer's relation to their authors. */
export async function mixList(asker: Asker, list: SeriesInfo[]): Promise<z.input<typeof s.mixInfo>[]> {
  const rel = await relationsOf(
    asker.viewer,
    list.map((x) => x.author.id),
  );
  const at = origin(asker.request);
  return list.map((x) => mixInfo(x, at, rel.get(x.author.id)));
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
export function videoB(
  card: VideoCard,
  state: Pick<ViewerState, 'liked' | 'collected'> = EMPTY,
): z.input<typeof s.videoB> {
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
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    banner: mediaUrl(c.banner),
    hashtags: c.hashtags,
    videoCount: c.videoCount,
  };
}

/** A login's answer in Family B's camelCase. */
export function loginB(r: LoginResult): z.input<typeof s.loginB> {
  return { token: r.token, expiresAt: r.expiresAt.getTime(), created: r.created, user: userRefB(r.user) };
}
