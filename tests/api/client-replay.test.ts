/**
 * The reads a douyin.com web client makes on its recommend, discover, detail and profile pages, replayed against the
 * API, with the expressions its code evaluates on each answer. They are plain property accesses, as the client's own:
 * a missing key on the way throws a TypeError, and a read that ends on a missing key is a failure too.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadFixture, type Fixture } from './fixture.ts';
import { ok, useApiDb } from './helpers.ts';

const ctx = useApiDb();
let f: Fixture;
beforeAll(async () => {
  f = await loadFixture(ctx);
});

type Query = Record<string, string | number>;
/** One expression the client evaluates on an answer (untyped JSON, as the client has it). */
type Read = (body: any) => unknown;

interface Replay {
  page: 'recommend' | 'discover' | 'detail' | 'profile';
  path: string;
  query: (f: Fixture) => Query;
  /** Asked without a session (default: as the demo account). */
  anonymous?: boolean;
  /** Sent as a POSTed form, as douyin.com's client sends module/feed (default: GET with a query). */
  post?: boolean;
  reads: Read[];
}

const W = '/aweme/v1/web';

// What a player, a card and a share panel read of one aweme.
const awemeReads = (get: (body: any) => any): Read[] => [
  (b) => get(b).aweme_id,
  (b) => get(b).desc,
  (b) => get(b).video.play_addr.url_list[0],
  (b) => get(b).video.play_addr.uri,
  (b) => get(b).video.bit_rate[0].play_addr.url_list[0],
  (b) => get(b).video.bit_rate[0].gear_name,
  (b) => get(b).video.cover.url_list[0],
  (b) => get(b).video.origin_cover.url_list[0],
  (b) => get(b).video.dynamic_cover.url_list[0],
  (b) => get(b).video.ratio,
  (b) => get(b).video.duration,
  (b) => get(b).duration,
  (b) => get(b).author.avatar_thumb.url_list[0],
  (b) => get(b).author.cover_url[0].url_list[0],
  (b) => get(b).author.follow_status,
  (b) => get(b).author.follower_count,
  (b) => get(b).author.unique_id,
  (b) => get(b).music.title,
  (b) => get(b).music.play_url.url_list[0],
  (b) => get(b).music.cover_thumb.url_list[0],
  (b) => get(b).statistics.digg_count,
  (b) => get(b).statistics.admire_count,
  (b) => get(b).share_url,
  (b) => get(b).share_info.share_url,
  (b) => get(b).share_info.share_link_desc,
  (b) => get(b).seo_info.ocr_content,
  (b) => get(b).status.private_status,
  (b) => get(b).aweme_control.can_comment,
  (b) => get(b).text_extra.length,
  (b) => get(b).media_type,
  (b) => get(b).aweme_type,
  (b) => get(b).is_top,
  (b) => get(b).images,
  (b) => get(b).risk_infos.content,
  (b) => get(b).preview_title,
];

// What a profile header and a user row read of one user.
const userReads = (get: (body: any) => any): Read[] => [
  (b) => get(b).nickname,
  (b) => get(b).avatar_thumb.url_list[0],
  (b) => get(b).avatar_larger.url_list[0],
  (b) => get(b).cover_url[0].url_list[0],
  (b) => get(b).unique_id,
  (b) => get(b).short_id,
  (b) => get(b).signature,
  (b) => get(b).ip_location,
  (b) => get(b).follower_count,
  (b) => get(b).mplatform_followers_count,
  (b) => get(b).following_count,
  (b) => get(b).total_favorited,
  (b) => get(b).aweme_count,
  (b) => get(b).follow_status,
  (b) => get(b).follower_status,
];

/** The replayed reads, by page. Add a line for a new endpoint a client page calls. */
const REPLAYS: Replay[] = [
  {
    page: 'recommend',
    path: `${W}/tab/feed/`,
    query: () => ({ count: 10, refresh_index: 1 }),
    reads: [(b) => b.has_more, ...awemeReads((b) => b.aweme_list[0])],
  },
  {
    page: 'recommend',
    path: `${W}/tab/feed/`,
    query: () => ({ count: 10 }),
    anonymous: true,
    reads: awemeReads((b) => b.aweme_list[0]),
  },
  {
    page: 'recommend',
    path: `${W}/module/feed/`,
    query: () => ({ count: 10 }),
    reads: [(b) => b.cards[0].type, ...awemeReads((b) => JSON.parse(b.cards[0].aweme))],
  },
  {
    page: 'recommend',
    path: '/aweme/v2/web/module/feed/',
    query: () => ({
      module_id: 3003101,
      count: 10,
      refresh_index: 1,
      pull_type: 0,
      awemePcRecRawData: '{"is_client":false}',
    }),
    post: true,
    reads: [(b) => b.has_more, ...awemeReads((b) => b.aweme_list[0])],
  },
  {
    page: 'recommend',
    path: '/aweme/v2/web/module/feed/',
    query: () => ({ count: 10, refresh_index: 1, tag_id: '' }),
    anonymous: true,
    reads: awemeReads((b) => b.aweme_list[0]),
  },
  {
    page: 'recommend',
    path: `${W}/follow/feed/`,
    query: () => ({ cursor: 0, count: 10 }),
    reads: [(b) => b.has_more, ...awemeReads((b) => b.aweme_list[0])],
  },
  {
    page: 'recommend',
    path: '/webcast/web/feed/follow/',
    query: () => ({ count: 10 }),
    reads: [(b) => b.data.data.length, (b) => b.data.has_more],
  },
  {
    page: 'recommend',
    path: `${W}/seo/inner/link/`,
    query: () => ({}),
    anonymous: true,
    reads: [(b) => b.link_data[0].link_list[0].anchor, (b) => b.link_data[0].link_list[0].url],
  },
  {
    page: 'recommend',
    path: `${W}/user/profile/self/`,
    query: () => ({}),
    anonymous: true,
    // A visitor: the client decides it is logged out by a non-zero status_code on an HTTP 200.
    reads: [(b) => (b.status_code === 8 ? b.status_msg : undefined)],
  },
  {
    page: 'discover',
    path: `${W}/channel/feed/`,
    query: () => ({ tag_id: 300201, count: 24 }),
    reads: [(b) => b.cursor, ...awemeReads((b) => b.aweme_list[0])],
  },
  {
    page: 'discover',
    path: `${W}/hot/aweme/list/`,
    query: () => ({ count: 20 }),
    reads: [(b) => b.aweme_list[0].hot_value, ...awemeReads((b) => b.aweme_list[0])],
  },
  {
    page: 'discover',
    path: `${W}/hot/search/list/`,
    query: () => ({ count: 20 }),
    reads: [(b) => b.data.word_list[0].word, (b) => b.data.word_list[0].hot_value, (b) => b.data.active_time],
  },
  {
    page: 'detail',
    path: `${W}/aweme/detail/`,
    query: (f) => ({ aweme_id: f.video }),
    reads: [
      (b) => b.aweme_detail.seo_info,
      ...awemeReads((b) => b.aweme_detail),
      ...userReads((b) => b.aweme_detail.author),
    ],
  },
  {
    page: 'detail',
    path: `${W}/aweme/related/`,
    query: (f) => ({ aweme_id: f.video, count: 12 }),
    reads: awemeReads((b) => b.aweme_list[0]),
  },
  {
    page: 'detail',
    path: `${W}/comment/list/`,
    query: (f) => ({ aweme_id: f.video, cursor: 0, count: 20 }),
    reads: [
      (b) => b.total,
      (b) => b.comments[0].cid,
      (b) => b.comments[0].text,
      (b) => b.comments[0].ip_label,
      (b) => b.comments[0].text_extra.length,
      (b) => b.comments[0].is_folded,
      (b) => b.comments[0].reply_comment_total,
      (b) => b.comments[0].digg_count,
      (b) => b.comments[0].user_digged,
      ...userReads((b) => b.comments[0].user),
    ],
  },
  {
    page: 'detail',
    path: `${W}/comment/list/reply/`,
    query: (f) => ({ item_id: f.video, comment_id: f.comment, cursor: 0, count: 10 }),
    reads: [
      (b) => b.comments[0].ip_label,
      (b) => b.comments[0].reply_to_username,
      (b) => b.comments[0].text_extra.length,
      ...userReads((b) => b.comments[0].user),
    ],
  },
  {
    page: 'profile',
    path: `${W}/user/profile/self/`,
    query: () => ({}),
    reads: [
      (b) => b.user.avatar_300x300.url_list[0],
      (b) => b.user.favoriting_count,
      (b) => b.user_collect_count.collect_count_list[0].collect_count,
      ...userReads((b) => b.user),
    ],
  },
  {
    page: 'profile',
    path: `${W}/user/profile/other/`,
    query: (f) => ({ sec_user_id: f.author.secUid }),
    reads: userReads((b) => b.user),
  },
  {
    page: 'profile',
    path: `${W}/user/profile/other/`,
    query: (f) => ({ sec_user_id: f.author.secUid }),
    anonymous: true,
    reads: userReads((b) => b.user),
  },
  {
    page: 'profile',
    path: `${W}/aweme/post/`,
    query: (f) => ({ sec_user_id: f.author.secUid, max_cursor: 0, count: 18 }),
    reads: [(b) => b.max_cursor, (b) => b.has_more, ...awemeReads((b) => b.aweme_list[0])],
  },
  {
    page: 'profile',
    path: `${W}/aweme/favorite/`,
    query: (f) => ({ sec_user_id: f.demo.secUid, max_cursor: 0, count: 18 }),
    reads: [(b) => b.max_cursor, ...awemeReads((b) => b.aweme_list[0])],
  },
  {
    page: 'profile',
    path: `${W}/user/following/list/`,
    query: (f) => ({ sec_user_id: f.demo.secUid, offset: 0, count: 20 }),
    reads: [(b) => b.total, (b) => b.followings[0].follow_time, ...userReads((b) => b.followings[0])],
  },
  {
    page: 'profile',
    path: `${W}/user/follower/list/`,
    query: (f) => ({ sec_user_id: f.author.secUid, offset: 0, count: 20 }),
    reads: [(b) => b.total, ...userReads((b) => b.followers[0])],
  },
  {
    page: 'profile',
    path: `${W}/collects/list/`,
    query: () => ({ cursor: 0, count: 10 }),
    reads: [
      (b) => b.collects_list[0].collects_id_str,
      (b) => b.collects_list[0].collects_name,
      (b) => b.collects_list[0].total_number,
    ],
  },
  {
    page: 'profile',
    path: `${W}/collects/video/list/`,
    query: (f) => ({ collects_id: f.demo.id, cursor: 0, count: 10 }),
    reads: [(b) => b.has_more, ...awemeReads((b) => b.aweme_list[0])],
  },
  {
    page: 'profile',
    path: `${W}/private/aweme/`,
    query: () => ({ max_cursor: 0, count: 18 }),
    reads: [(b) => b.aweme_list.length, (b) => b.has_more],
  },
  {
    page: 'profile',
    path: `${W}/series/list/`,
    query: (f) => ({ sec_user_id: f.dramatist, cursor: 0, count: 12 }),
    reads: [
      (b) => b.series_infos[0].series_name,
      (b) => b.series_infos[0].cover_url.url_list[0],
      ...userReads((b) => b.series_infos[0].author),
    ],
  },
  {
    page: 'profile',
    path: `${W}/im/spotlight/relation/`,
    query: () => ({ count: 20 }),
    reads: userReads((b) => b.followings[0]),
  },
  {
    page: 'profile',
    path: `${W}/familiar/atlist/`,
    query: () => ({ count: 20 }),
    reads: userReads((b) => b.user_list[0]),
  },
  {
    page: 'discover',
    path: `${W}/home/search/item/`,
    query: (f) => ({ keyword: f.word, offset: 0, count: 10, search_channel: 'aweme_video_web' }),
    reads: [(b) => b.has_more, ...awemeReads((b) => b.data[0].aweme_info)],
  },
  {
    page: 'profile',
    path: `${W}/mix/list/`,
    query: (f) => ({ sec_user_id: f.author.secUid, cursor: 0, count: 12 }),
    reads: [
      (b) => b.mix_infos[0].mix_id,
      (b) => b.mix_infos[0].mix_name,
      (b) => b.mix_infos[0].cover_url.url_list[0],
      (b) => b.mix_infos[0].statis.updated_to_episode,
      ...userReads((b) => b.mix_infos[0].author),
    ],
  },
];

/** The reads that throw or end on nothing, as `read → why`. */
function failures(body: unknown, reads: Read[]): string[] {
  return reads.flatMap((read) => {
    try {
      return read(body) === undefined ? [`${read.toString()} → undefined`] : [];
    } catch (error) {
      return [`${read.toString()} → ${(error as Error).message}`];
    }
  });
}

describe('a douyin.com web client replayed', () => {
  it.each(REPLAYS.map((r) => [`${r.page}: ${r.path}${r.anonymous ? ' (anonymous)' : ''}`, r] as const))(
    '%s',
    async (_name, replay) => {
      const token = replay.anonymous ? undefined : f.demo.token;
      const body = replay.post
        ? await ok('POST', replay.path, { form: replay.query(f), token })
        : await ok('GET', replay.path, { query: replay.query(f), token });
      expect(failures(body, replay.reads)).toEqual([]);
    },
  );

  it('fails a read that meets a missing key', () => {
    expect(
      failures({ aweme_list: [{}] }, [
        (b) => b.aweme_list[0].video.play_addr.url_list[0],
        (b) => b.aweme_list[0].seo_info,
      ]),
    ).toHaveLength(2);
  });
});
