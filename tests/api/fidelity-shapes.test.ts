/**
 * Every Family A read, walked: each aweme, user and comment anywhere in its answer (JSON strings included, as
 * module/feed's cards carry their aweme) has every field a douyin.com web client reads, with the right type.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/server/api/router.ts';
import { aweme, comment, user } from '../../src/shared/api-shapes.ts';
import { loadFixture, type Fixture } from './fixture.ts';
import { ok, useApiDb } from './helpers.ts';

const ctx = useApiDb();
let f: Fixture;
beforeAll(async () => {
  f = await loadFixture(ctx);
});

type Query = Record<string, string | number>;
type Kind = 'aweme' | 'user' | 'comment';

interface Sample {
  query: (f: Fixture) => Query;
  /** What the answer holds at least one of with this query, as seeded. */
  meets?: Kind[];
}

const W = '/aweme/v1/web';

/**
 * Sample parameters of every Family A GET route, by path, asked as the demo account. A registered route missing here
 * fails the walk, so a new read cannot be forgotten: add its line (and what it meets, so the walk is known to check it).
 */
const SAMPLES: Record<string, Sample> = {
  [`${W}/tab/feed/`]: { query: () => ({ count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/module/feed/`]: { query: () => ({ count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/aweme/detail/`]: { query: (f) => ({ aweme_id: f.video }), meets: ['aweme', 'user'] },
  [`${W}/aweme/related/`]: { query: (f) => ({ aweme_id: f.video, count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/channel/feed/`]: { query: () => ({ tag_id: 300201, count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/hot/aweme/list/`]: { query: () => ({ count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/friend/feed/`]: { query: () => ({ count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/comment/list/`]: { query: (f) => ({ aweme_id: f.video, count: 10 }), meets: ['comment', 'user'] },
  [`${W}/comment/list/reply/`]: {
    query: (f) => ({ item_id: f.video, comment_id: f.comment, count: 10 }),
    meets: ['comment', 'user'],
  },
  [`${W}/comment/mention/resolve/`]: { query: (f) => ({ nicknames: f.author.nickname }) },
  [`${W}/danmaku/list/`]: { query: (f) => ({ aweme_id: f.video }) },
  [`${W}/general/search/single/`]: { query: (f) => ({ keyword: f.word, count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/discover/search/`]: { query: (f) => ({ keyword: f.author.nickname, count: 6 }), meets: ['user'] },
  [`${W}/api/suggest_words/`]: { query: (f) => ({ query: f.word }) },
  [`${W}/search/sug/`]: { query: (f) => ({ keyword: f.word }) },
  [`${W}/hot/search/list/`]: { query: () => ({ count: 10 }) },
  [`${W}/user/profile/self/`]: { query: () => ({}), meets: ['user'] },
  [`${W}/user/profile/other/`]: { query: (f) => ({ sec_user_id: f.author.secUid }), meets: ['user'] },
  [`${W}/user/following/list/`]: { query: () => ({ count: 10 }), meets: ['user'] },
  [`${W}/user/follower/list/`]: { query: (f) => ({ sec_user_id: f.author.secUid, count: 10 }), meets: ['user'] },
  [`${W}/aweme/post/`]: { query: (f) => ({ sec_user_id: f.author.secUid, count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/aweme/favorite/`]: { query: (f) => ({ sec_user_id: f.demo.secUid, count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/aweme/listcollection/`]: { query: () => ({ count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/history/read/`]: { query: () => ({ count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/lvideo/query/history/`]: { query: () => ({ count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/webcast/feed/`]: { query: () => ({ count: 6 }) },
  [`${W}/mix/list/`]: { query: (f) => ({ sec_user_id: f.author.secUid }), meets: ['user'] },
  [`${W}/mix/detail/`]: { query: (f) => ({ mix_id: f.mix }), meets: ['user'] },
  [`${W}/mix/aweme/`]: { query: (f) => ({ mix_id: f.mix, count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/mix/progress/`]: { query: (f) => ({ mix_id: f.mix }) },
  [`${W}/notice/`]: { query: () => ({ count: 10 }) },
  [`${W}/notice/count/`]: { query: () => ({}) },
  [`${W}/seo/inner/link/`]: { query: () => ({}) },
  [`${W}/im/conversation/list/`]: { query: () => ({ count: 10 }) },
  [`${W}/im/conversation/detail/`]: { query: (f) => ({ sec_user_id: f.peer }) },
  [`${W}/im/message/list/`]: { query: (f) => ({ conversation_id: f.conversation, count: 10 }) },
  [`${W}/im/unread/`]: { query: () => ({}) },
  '/aweme/v2/web/module/feed/': { query: () => ({ count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/follow/feed/`]: { query: () => ({ count: 6 }), meets: ['aweme', 'user'] },
  '/webcast/web/feed/follow/': { query: () => ({ count: 6 }) },
  [`${W}/watchlater/list/`]: { query: () => ({ count: 6 }) },
  [`${W}/collects/list/`]: { query: () => ({ count: 6 }) },
  [`${W}/collects/video/list/`]: { query: (f) => ({ collects_id: f.demo.id, count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/mix/listcollection/`]: { query: () => ({ count: 6 }) },
  [`${W}/series/list/`]: { query: (f) => ({ sec_user_id: f.dramatist, count: 6 }), meets: ['user'] },
  [`${W}/private/aweme/`]: { query: () => ({ count: 6 }) },
  [`${W}/im/spotlight/relation/`]: { query: () => ({ count: 10 }), meets: ['user'] },
  [`${W}/familiar/atlist/`]: { query: () => ({ count: 10 }), meets: ['user'] },
  [`${W}/home/search/item/`]: { query: (f) => ({ keyword: f.word, count: 6 }), meets: ['aweme', 'user'] },
  [`${W}/music/listcollection/`]: { query: () => ({ count: 6 }) },
  [`${W}/view/user/visited/list/`]: { query: () => ({ count: 6 }) },
  '/passport/qr/status': { query: (f) => ({ ticket: f.ticket }) },
  '/passport/demo': { query: () => ({}) },
};

type Json = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'null';

/** The fields of an aweme that a client reads, by dotted path. */
const AWEME_FIELDS: Record<string, Json> = {
  aweme_id: 'string',
  aweme_type: 'number',
  media_type: 'number',
  desc: 'string',
  preview_title: 'string',
  create_time: 'number',
  duration: 'number',
  group_id: 'string',
  author_user_id: 'number',
  text_extra: 'array',
  'seo_info.ocr_content': 'string',
  author: 'object',
  'music.id': 'number',
  'music.id_str': 'string',
  'music.title': 'string',
  'music.author': 'string',
  'music.owner_nickname': 'string',
  'music.cover_thumb.url_list': 'array',
  'music.cover_medium.url_list': 'array',
  'music.cover_large.url_list': 'array',
  'music.play_url.uri': 'string',
  'music.play_url.url_list': 'array',
  'music.duration': 'number',
  'statistics.digg_count': 'number',
  'statistics.comment_count': 'number',
  'statistics.collect_count': 'number',
  'statistics.share_count': 'number',
  'statistics.play_count': 'number',
  'statistics.admire_count': 'number',
  'status.is_delete': 'boolean',
  'status.allow_share': 'boolean',
  'status.private_status': 'number',
  'status.in_reviewing': 'boolean',
  'status.is_prohibited': 'boolean',
  'status.part_see': 'number',
  'status.review_result.review_status': 'number',
  'aweme_control.can_forward': 'boolean',
  'aweme_control.can_share': 'boolean',
  'aweme_control.can_comment': 'boolean',
  'aweme_control.can_show_comment': 'boolean',
  share_url: 'string',
  'share_info.share_url': 'string',
  'share_info.share_title': 'string',
  'share_info.share_link_desc': 'string',
  is_top: 'number',
  images: 'null',
  'risk_infos.content': 'string',
  'risk_infos.warn': 'boolean',
  prevent_download: 'boolean',
  user_digged: 'number',
  collect_stat: 'number',
  'video.play_addr.uri': 'string',
  'video.play_addr.url_list': 'array',
  'video.play_addr.width': 'number',
  'video.play_addr.height': 'number',
  'video.play_addr.data_size': 'number',
  'video.bit_rate': 'array',
  'video.cover.uri': 'string',
  'video.cover.url_list': 'array',
  'video.cover.width': 'number',
  'video.cover.height': 'number',
  'video.origin_cover.url_list': 'array',
  'video.dynamic_cover.url_list': 'array',
  'video.duration': 'number',
  'video.width': 'number',
  'video.height': 'number',
  'video.ratio': 'string',
  'video.format': 'string',
};

/** The fields of every user object (authors, profiles, list rows, commenters, mix authors). */
const USER_FIELDS: Record<string, Json> = {
  uid: 'string',
  sec_uid: 'string',
  unique_id: 'string',
  short_id: 'string',
  nickname: 'string',
  signature: 'string',
  'avatar_thumb.url_list': 'array',
  'avatar_medium.url_list': 'array',
  'avatar_larger.url_list': 'array',
  'avatar_300x300.url_list': 'array',
  cover_url: 'array',
  follower_count: 'number',
  mplatform_followers_count: 'number',
  following_count: 'number',
  aweme_count: 'number',
  favoriting_count: 'number',
  total_favorited: 'number',
  follow_status: 'number',
  follower_status: 'number',
  ip_location: 'string',
  custom_verify: 'string',
  enterprise_verify_reason: 'string',
  secret: 'number',
};

const COMMENT_FIELDS: Record<string, Json> = {
  cid: 'string',
  aweme_id: 'string',
  text: 'string',
  text_extra: 'array',
  create_time: 'number',
  digg_count: 'number',
  reply_comment_total: 'number',
  user: 'object',
  ip_label: 'string',
  user_digged: 'number',
  is_author_digged: 'boolean',
  is_folded: 'boolean',
  label_type: 'number',
  reply_id: 'string',
  status: 'number',
};

/**
 * Users of the messaging answers, by the key they sit under: they carry the messaging shape (src/shared/messaging.ts
 * ImUser), not a profile's.
 */
const MESSAGING_USERS = new Set(['peer', 'actor']);

const jsonType = (v: unknown): Json | 'undefined' =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : (typeof v as Json | 'undefined');

function at(o: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);
}

type Found = Record<Kind, Record<string, unknown>[]>;

/** Every aweme (aweme_id and video), comment (cid and user) and user (uid and sec_uid) in an answer. */
function collect(value: unknown, key = '', found: Found = { aweme: [], user: [], comment: [] }): Found {
  if (typeof value === 'string' && value.startsWith('{')) {
    try {
      collect(JSON.parse(value), key, found);
    } catch {
      // Text that merely starts with a brace.
    }
    return found;
  }
  if (Array.isArray(value)) {
    for (const v of value) collect(v, key, found);
    return found;
  }
  if (!value || typeof value !== 'object') return found;
  const o = value as Record<string, unknown>;
  if ('aweme_id' in o && 'video' in o) found.aweme.push(o);
  if ('cid' in o && 'user' in o) found.comment.push(o);
  if ('uid' in o && 'sec_uid' in o && !MESSAGING_USERS.has(key)) found.user.push(o);
  for (const [k, v] of Object.entries(o)) collect(v, k, found);
  return found;
}

/** What is wrong with `o` against a field table, as readable lines. */
function missing(o: unknown, fields: Record<string, Json>, label: string): string[] {
  return Object.entries(fields).flatMap(([path, type]) => {
    const got = jsonType(at(o, path));
    return got === type ? [] : [`${label}.${path}: ${got}, not ${type}`];
  });
}

describe('Family A shapes', () => {
  const reads = registeredRoutes().filter((r) => r.family === 'A' && r.method === 'GET');

  it('has a sample for every Family A read, and none for a read that is gone', () => {
    const paths = reads.map((r) => r.path);
    expect(
      paths.filter((p) => !(p in SAMPLES)),
      'add these to SAMPLES',
    ).toEqual([]);
    expect(
      Object.keys(SAMPLES).filter((p) => !paths.includes(p)),
      'no such Family A read',
    ).toEqual([]);
  });

  it.each(reads.map((r) => r.path))('%s carries whole awemes, users and comments', async (path) => {
    const sample = SAMPLES[path];
    if (!sample) throw new Error(`add ${path} to SAMPLES`);
    const body = await ok('GET', path, { query: sample.query(f), token: f.demo.token });
    const found = collect(body);
    for (const kind of sample.meets ?? []) expect(found[kind].length, `${path} answers no ${kind}`).toBeGreaterThan(0);

    const problems: string[] = [];
    for (const a of found.aweme) {
      const id = String(a.aweme_id);
      problems.push(...missing(a, AWEME_FIELDS, `aweme ${id}`));
      if (!aweme.safeParse(a).success) problems.push(`aweme ${id}: does not match the aweme schema`);
      if (a.share_url !== `http://shanying.test/video/${id}`)
        problems.push(`aweme ${id}: share_url ${String(a.share_url)}`);
      if (a.aweme_type !== 0 || a.media_type !== 4)
        problems.push(`aweme ${id}: aweme_type ${String(a.aweme_type)}, media_type ${String(a.media_type)}`);
      const ladder = at(a, 'video.bit_rate') as { play_addr?: { url_list?: unknown[] } }[];
      if (!ladder.length || ladder.some((r) => typeof r.play_addr?.url_list?.[0] !== 'string'))
        problems.push(`aweme ${id}: a bit_rate entry without an address`);
    }
    for (const u of found.user) {
      const label = `user ${String(u.sec_uid)}`;
      problems.push(...missing(u, USER_FIELDS, label));
      if (!user.safeParse(u).success) problems.push(`${label}: does not match the user schema`);
      if (typeof at(u, 'cover_url.0.url_list.0') !== 'string')
        problems.push(`${label}: a cover_url without an address`);
      if (!/^(IP属地：\S+)?$/.test(String(u.ip_location)))
        problems.push(`${label}: ip_location ${String(u.ip_location)}`);
    }
    for (const c of found.comment) {
      problems.push(...missing(c, COMMENT_FIELDS, `comment ${String(c.cid)}`));
      if (!comment.safeParse(c).success) problems.push(`comment ${String(c.cid)}: does not match the comment schema`);
    }
    expect(problems).toEqual([]);
  });
});
