/**
 * A complete Family A aweme and user for unit tests of browser modules, with `over` changing what a test is about, and
 * the server's video card they are the answer for.
 */
import type { VideoCard } from '../../src/server/services/video-cards.ts';
import type { Aweme, User } from '../../src/shared/api-shapes.ts';

/** The card `testAweme()` answers (asked at http://shanying.test by a viewer who liked it and follows its author, who follows back). */
export function testCard(): VideoCard {
  return {
    id: 42,
    desc: '今天的美食探店 #美食',
    channelId: 300201,
    media: 'clips/c01.mp4',
    poster: 'posters/c01.webp',
    durationMs: 8000,
    width: 540,
    height: 960,
    sizeBytes: 400_000,
    diggCount: 10,
    commentCount: 3,
    collectCount: 2,
    shareCount: 1,
    playCount: 99,
    createdAt: new Date(1_700_000_000_000),
    visibility: 'public',
    allowComments: true,
    author: {
      id: 5,
      secUid: 'MS4wA',
      nickname: '跑步的大叔',
      signature: '',
      avatar: 'avatars/a.webp',
      banner: 'banners/profile-01.svg',
      ipProvince: '广东',
      followerCount: 0,
      followingCount: 0,
      awemeCount: 1,
      totalFavorited: 10,
      favoritingCount: 0,
    },
  };
}

const file = (uri: string) => ({ uri, url_list: [`/media/${uri}`] });

/** A complete user object, as every Family A answer carries one. */
export function testUser(over: Partial<User> = {}): User {
  const avatar = file('avatars/a.webp');
  return {
    uid: '5',
    sec_uid: 'MS4wA',
    unique_id: 'MS4wA',
    short_id: '5',
    nickname: '跑步的大叔',
    signature: '',
    avatar_thumb: avatar,
    avatar_medium: avatar,
    avatar_larger: avatar,
    avatar_300x300: avatar,
    cover_url: [file('banners/profile-01.svg')],
    follower_count: 0,
    mplatform_followers_count: 0,
    following_count: 0,
    aweme_count: 1,
    favoriting_count: 0,
    total_favorited: 10,
    follow_status: 0,
    follower_status: 0,
    ip_location: 'IP属地：广东',
    custom_verify: '',
    enterprise_verify_reason: '',
    secret: 0,
    ...over,
  };
}

export function testAweme(over: Partial<Aweme> & { secUid?: string } = {}): Aweme {
  const { secUid = 'MS4wA', ...rest } = over;
  const clip = { ...file('clips/c01.mp4'), width: 540, height: 960, data_size: 400_000 };
  const poster = { ...file('posters/c01.webp'), width: 540, height: 960 };
  const author = testUser({ sec_uid: secUid, follow_status: 2, follower_status: 1 });
  const desc = '今天的美食探店 #美食';
  return {
    aweme_id: '42',
    aweme_type: 0,
    media_type: 4,
    desc,
    preview_title: desc,
    create_time: 1_700_000_000,
    duration: 8000,
    group_id: '42',
    author_user_id: 5,
    text_extra: [{ type: 1, start: 8, end: 11, hashtag_name: '美食' }],
    seo_info: { ocr_content: desc },
    author,
    music: {
      id: 42,
      id_str: '42',
      mid: '42',
      title: '@跑步的大叔创作的原声',
      author: author.nickname,
      album: '',
      owner_id: author.uid,
      owner_nickname: author.nickname,
      sec_uid: secUid,
      cover_thumb: author.avatar_thumb,
      cover_medium: author.avatar_thumb,
      cover_large: author.avatar_thumb,
      play_url: file('clips/c01.mp4'),
      duration: 8,
      is_original_sound: true,
    },
    statistics: { digg_count: 10, comment_count: 3, collect_count: 2, share_count: 1, play_count: 99, admire_count: 0 },
    status: {
      is_delete: false,
      allow_share: true,
      private_status: 0,
      in_reviewing: false,
      is_prohibited: false,
      part_see: 0,
      review_result: { review_status: 0 },
    },
    aweme_control: { can_forward: true, can_share: true, can_comment: true, can_show_comment: true },
    share_url: 'http://shanying.test/video/42',
    share_info: {
      share_url: 'http://shanying.test/video/42',
      share_title: desc,
      share_link_desc:
        '跑步的大叔的作品：今天的美食探店 #美食 http://shanying.test/video/42 复制此口令，打开闪映直接观看！',
    },
    is_top: 0,
    images: null,
    risk_infos: { content: '', type: 0, warn: false, vote: false },
    prevent_download: false,
    user_digged: 1,
    collect_stat: 0,
    video: {
      play_addr: clip,
      // A seeded clip: its one file is its ladder.
      bit_rate: [{ gear_name: 'normal_540_0', bit_rate: 400_000, is_h265: 0, format: 'mp4', play_addr: clip }],
      cover: poster,
      origin_cover: poster,
      dynamic_cover: poster,
      duration: 8000,
      width: 540,
      height: 960,
      ratio: '540p',
      format: 'mp4',
      caption_infos: [],
    },
    ...rest,
  };
}
