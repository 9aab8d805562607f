/**
 * Answers of douyin.com web in Douyin's own shape, one per call a web client reads that has no older twin here, trimmed
 * to the fields such a client reads. They go into the OpenAPI document as each answer's example, and the contract
 * tests hold every path of them to ours: a field a client reads here is a field we send, with the same JSON type.
 * Values are sample data (ids, names, addresses), never anything a test compares by value.
 */

const image = (uri: string) => ({
  uri,
  url_list: [`https://p3-pc.douyinpic.com/img/${uri}~c5_300x300.jpeg`],
});
const sized = (uri: string, width: number, height: number) => ({ ...image(uri), width, height });

const user = {
  uid: '96283940214',
  sec_uid: 'MS4wLjABAAAAxF2kd0dmhvCzbe2qD7-5cqpK3Nu1fC5nEKpQvG9W3Lk',
  unique_id: 'meishi_xw',
  short_id: '2038475611',
  nickname: '美食探店小王',
  signature: '每天一家店，吃遍全城',
  avatar_thumb: image('aweme-avatar/tos-cn-avt-0015_7b2f'),
  avatar_medium: image('aweme-avatar/tos-cn-avt-0015_7b2f'),
  avatar_larger: image('aweme-avatar/tos-cn-avt-0015_7b2f'),
  avatar_300x300: image('aweme-avatar/tos-cn-avt-0015_7b2f'),
  cover_url: [image('c8510002be9a3a61aad2')],
  follower_count: 128403,
  mplatform_followers_count: 128403,
  following_count: 213,
  aweme_count: 468,
  favoriting_count: 1207,
  total_favorited: 2390411,
  follow_status: 0,
  follower_status: 0,
  ip_location: 'IP属地：广东',
  custom_verify: '',
  enterprise_verify_reason: '',
  secret: 0,
};

const music = {
  id: 7352611208850164,
  id_str: '7352611208850164520',
  mid: '7352611208850164520',
  title: '@美食探店小王创作的原声',
  author: '美食探店小王',
  album: '',
  owner_id: '96283940214',
  owner_nickname: '美食探店小王',
  sec_uid: user.sec_uid,
  cover_thumb: image('aweme-avatar/tos-cn-avt-0015_7b2f'),
  cover_medium: image('aweme-avatar/tos-cn-avt-0015_7b2f'),
  cover_large: image('aweme-avatar/tos-cn-avt-0015_7b2f'),
  play_url: { uri: 'https://sf5-hl-ali-cdn-tos.douyinstatic.com/obj/ies-music/7352611262.mp3', url_list: [] },
  duration: 27,
  is_original_sound: true,
};

const playAddr = {
  ...sized('v0300fg10000cnq1aqbc77u2rl9b4m10', 1080, 1920),
  url_list: ['https://www.douyin.com/aweme/v1/play/?video_id=v0300fg10000cnq1aqbc77u2rl9b4m10&ratio=1080p'],
  data_size: 6392817,
};

/** An aweme as douyin.com web answers one, trimmed to what a player, a card and a share panel read. */
const aweme = {
  aweme_id: '7352611208850164520',
  aweme_type: 0,
  media_type: 4,
  desc: '藏在老街里的牛肉粉，汤头一绝 #美食 #探店',
  preview_title: '藏在老街里的牛肉粉，汤头一绝 #美食 #探店',
  create_time: 1711872000,
  duration: 27466,
  group_id: '7352611208850164520',
  author_user_id: 96283940214,
  text_extra: [{ type: 1, start: 16, end: 19, hashtag_name: '美食' }],
  seo_info: { ocr_content: '藏在老街里的牛肉粉' },
  author: user,
  music,
  statistics: {
    digg_count: 31882,
    comment_count: 1204,
    collect_count: 2981,
    share_count: 877,
    play_count: 0,
    admire_count: 0,
  },
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
  share_url: 'https://www.iesdouyin.com/share/video/7352611208850164520/',
  share_info: {
    share_url: 'https://www.iesdouyin.com/share/video/7352611208850164520/',
    share_title: '藏在老街里的牛肉粉，汤头一绝',
    share_link_desc: '7.94 复制打开抖音，看看【美食探店小王的作品】藏在老街里的牛肉粉 https://v.douyin.com/iFhT2bqa/',
  },
  is_top: 0,
  images: null,
  risk_infos: { content: '', type: 0, warn: false, vote: false },
  prevent_download: false,
  user_digged: 0,
  collect_stat: 0,
  video: {
    play_addr: playAddr,
    bit_rate: [{ gear_name: 'normal_1080_0', bit_rate: 1862041, is_h265: 0, format: 'mp4', play_addr: playAddr }],
    cover: sized('tos-cn-p-0015/oAfbAnQDIhEe9AgCLzACvQfDlAIgABgA7nq8MI', 1080, 1920),
    origin_cover: sized('tos-cn-p-0015/oAfbAnQDIhEe9AgCLzACvQfDlAIgABgA7nq8MI', 1080, 1920),
    dynamic_cover: sized('tos-cn-p-0015/oAfbAnQDIhEe9AgCLzACvQfDlAIgABgA7nq8MI', 1080, 1920),
    duration: 27466,
    width: 1080,
    height: 1920,
    ratio: '1080p',
    format: 'mp4',
  },
};

const extra = { fatal_item_ids: [], logid: '20240401120000F2B1C6A5E3D4A1B2C3D4', now: 1711944000000 };
const logPb = { impr_id: '20240401120000F2B1C6A5E3D4A1B2C3D4' };

/** follow/feed: the followed users' works under data[].aweme. */
export const followFeedExample = {
  status_code: 0,
  data: [{ aweme }],
  has_more: 1,
  cursor: 18,
};

/** watchlater/list (稍后再看): the works under items, the ids of entries that no longer play apart. */
export const watchLaterExample = {
  status_code: 0,
  status_msg: '',
  items: [aweme],
  invalid_item_ids: ['7331829904475434280'],
  has_more: 0,
  offset: 20,
};

/** home/search/item (搜索TA的作品): each result an item of type 1. */
export const homeSearchItemExample = {
  status_code: 0,
  aweme_list: [{ type: 1, item: aweme }],
  cursor: 10,
  has_more: 1,
  extra: { ...extra, scenes: null, search_request_id: '' },
  log_pb: logPb,
  global_doodle_config: { home_text: '', jump_general: 1, keyword: '牛肉粉' },
  path: '/aweme/v1/web/home/search/item/',
};

/** webcast/feed (观看历史 → 直播): live records, paged by extra.max_time. */
export const webcastFeedExample = {
  status_code: 0,
  data: [
    {
      type: 0,
      rid: '7352715533019408139',
      tags: [],
      live_status: 2,
      is_recommend_card: false,
      is_pseudo_living: false,
      is_live_explore: false,
      is_ad: false,
      live_reason: '',
      live_source: '',
      content_category: 0,
      camera_type: 0,
      latest_watch_time: 1711943000000,
      latest_watch_time_str: '1711943000000',
      user_id: 96283940214,
      placeholder: { msg: '', type: 0 },
      user_info: user,
      UserLiveRecord: {
        user_id: 96283940214,
        user_id_str: '96283940214',
        nickname: '美食探店小王',
        sec_uid: user.sec_uid,
        avatar: sized('aweme-avatar/tos-cn-avt-0015_7b2f', 100, 100),
        follow_status: 0,
        secret: 0,
        right_text: '',
        under_name_text: '夜市直播，带你吃宵夜',
        scheduled_text: '',
        announcement_content: '',
        videos: [],
      },
    },
  ],
  extra: {
    has_more: true,
    max_time: 1711943000000,
    max_time_str: '1711943000000',
    min_time: 1711943000000,
    now: 1711944000000,
    offset: 1,
    total: 0,
    log_pb: logPb,
  },
};

/** lvideo/query/history (观看历史 → 影视综): one entry per series, at the episode watched last. */
export const lvideoHistoryExample = {
  status_code: 0,
  status_msg: '',
  has_more: 0,
  cursor: 1,
  extra,
  log_pb: logPb,
  lvideo_history_list: [
    {
      album_id: '7291803926447719948',
      album_item_id: '7291803926447719948',
      album_type: 1,
      title: '逆风而行',
      title_before: '',
      title_after: '',
      cover_url: 'https://p3-pc.douyinpic.com/img/tos-cn-p-0015/oQAfbAnQ~c5_300x400.jpeg',
      episode_id: '7291806310590169641',
      episode_item_id: '7291806310590169641',
      episode_type: 1,
      seq: 3,
      episode_look_at: '看到第3集',
      updated_episode: '更新至12集',
      has_update: false,
      progress: 94,
      msec: 94210,
      play_time: 1711943000,
      expired_time: 0,
      label: 0,
      label_v2: 0,
      purchase_status: 0,
      pay_info: { pay_status: false, pay_type: 0 },
      scheme_url: '',
    },
  ],
};

/** music/listcollection (收藏 → 音乐): the sounds a member collected. */
export const musicCollectionExample = {
  status_code: 0,
  msg: '',
  has_more: 0,
  cursor: 1,
  mc_list: [
    {
      ...music,
      cover_hd: sized('aweme-avatar/tos-cn-avt-0015_7b2f', 720, 720),
      cover_large: sized('aweme-avatar/tos-cn-avt-0015_7b2f', 720, 720),
      cover_medium: sized('aweme-avatar/tos-cn-avt-0015_7b2f', 720, 720),
      cover_thumb: sized('aweme-avatar/tos-cn-avt-0015_7b2f', 168, 168),
      schema_url: '',
      source_platform: 23,
      start_time: 0,
      end_time: 0,
      user_count: 0,
      collect_stat: 1,
      status: 1,
      offline_desc: '',
      is_original: false,
      owner_handle: 'meishi_xw',
      prevent_download: false,
      is_del_video: false,
      is_video_self_see: false,
      author_deleted: false,
      is_restricted: false,
      redirect: false,
      binded_challenge_id: 0,
      preview_start_time: 0,
      preview_end_time: 0,
      is_commerce_music: false,
      audition_duration: 27,
      shoot_duration: 27,
      video_duration: 27,
      music_collect_count: 0,
      artists: [],
      external_song_info: [],
    },
  ],
};

/** view/user/visited/list (观看历史 → 用户): the profiles a member opened, the latest first. */
export const visitedUsersExample = {
  status_code: 0,
  has_more: false,
  next_cursor: '1',
  extra,
  log_pb: logPb,
  freq_visit_user_list: [],
  visit_user_list: [
    {
      ...user,
      avatar_168x168: image('aweme-avatar/tos-cn-avt-0015_7b2f'),
      visit_time: 1711943000,
      is_block: false,
      is_gov_media_vip: false,
      room_id: 0,
      room_id_str: '0',
      account_cert_info: '',
      user_permissions: null,
      not_seen_item_id_list_v2: null,
    },
  ],
};
