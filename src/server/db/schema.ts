/** The whole data model, one Drizzle pg-core schema for the embedded and any external PostgreSQL. */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { UPLOAD_KINDS, UPLOAD_STATUSES, VISIBILITIES, WORK_STATUSES, type Gear } from '../../shared/studio.ts';
import { NOTICE_KINDS } from '../../shared/messaging.ts';
import {
  MODERATION_TARGETS,
  REMOVABLE_TARGETS,
  REPORT_SOURCES,
  REPORT_STATES,
  STAFF_ROLES,
} from '../../shared/staff.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const id = () => integer('id').primaryKey().generatedAlwaysAsIdentity();

/** The profile banner an account has until it picks one (media/profile-banners.py draws it). */
export const DEFAULT_BANNER = 'banners/profile-00.svg';

/** Privacy settings stored on the account (the profile API enforces them). */
export interface Privacy {
  likesPublic: boolean;
  collectsPublic: boolean;
}

export const users = pgTable(
  'users',
  {
    id: id(),
    secUid: text('sec_uid').notNull(),
    email: text('email'),
    nickname: text('nickname').notNull(),
    signature: text('signature').notNull().default(''),
    avatar: text('avatar').notNull(),
    /** The profile banner (Douyin's cover_url), under the media root. */
    banner: text('banner').notNull().default(DEFAULT_BANNER),
    /** The province of the account's IP (IP属地), '' while unknown. */
    ipProvince: text('ip_province').notNull().default(''),
    /** Douyin's gender code: 0 not shown, 1 male, 2 female (编辑资料). */
    gender: smallint('gender').notNull().default(0),
    /** 'YYYY-MM-DD', or null while not given; the profile shows the age from it. */
    birthday: date('birthday', { mode: 'string' }),
    passwordHash: text('password_hash'),
    isDemo: boolean('is_demo').notNull().default(false),
    followingCount: integer('following_count').notNull().default(0),
    followerCount: integer('follower_count').notNull().default(0),
    awemeCount: integer('aweme_count').notNull().default(0),
    totalFavorited: integer('total_favorited').notNull().default(0),
    favoritingCount: integer('favoriting_count').notNull().default(0),
    collectCount: integer('collect_count').notNull().default(0),
    privacy: jsonb('privacy').$type<Privacy>().notNull().default({ likesPublic: true, collectsPublic: true }),
    notifySettings: jsonb('notify_settings').$type<Record<string, boolean>>().notNull().default({}),
    /** Character unigrams and bigrams of the nickname, computed by PostgreSQL (search_tokens_of, migration 0001) so no writer can forget them. */
    searchTokens: text('search_tokens')
      .array()
      .notNull()
      .generatedAlwaysAs(sql`search_tokens_of(nickname)`),
    /** 注销账号: when the member asked for the account to be deleted, and when the cooling-off ends (null: not asked). */
    deletionRequestedAt: timestamp('deletion_requested_at', { withTimezone: true }),
    deletionDueAt: timestamp('deletion_due_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_sec_uid_idx').on(t.secUid),
    index('users_deletion_due_idx')
      .on(t.deletionDueAt)
      .where(sql`${t.deletionDueAt} is not null`),
    uniqueIndex('users_email_idx').on(t.email),
    index('users_search_tokens_idx').using('gin', t.searchTokens),
    // Search suggestions' people: nicknames starting with the text (a prefix LIKE in any collation), and those holding it
    // read most followed first, so that a common character stops after a few rows instead of sorting every holder.
    index('users_nickname_prefix_idx').on(sql`lower(${t.nickname}) text_pattern_ops`),
    index('users_followers_idx').on(t.followerCount.desc(), t.id),
    check('users_gender_check', sql`${t.gender} in (0, 1, 2)`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent'),
    /** When the holder last proved who they are (the login, or a password or code entered again for staff work). */
    authenticatedAt: timestamp('authenticated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sessions_token_hash_idx').on(t.tokenHash), index('sessions_user_idx').on(t.userId)],
);

/**
 * Browsers that have logged in to an account (device cookies): a password login from one of them is judged on its own
 * failures, so that guessing at the account from elsewhere does not lock its owner out. Only the token's hash is kept.
 */
export const loginDevices = pgTable(
  'login_devices',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('login_devices_token_hash_idx').on(t.tokenHash), index('login_devices_user_idx').on(t.userId)],
);

/**
 * The keys of writes a client may send again (a comment, a message, a work published): a repeat of a key answers the
 * write it made the first time (resultId: the comment, message or video) instead of making another. `fingerprint` is
 * a hash of the first request's scope and fields: the same key with another request is refused. Kept a day.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    scope: text('scope').notNull(),
    fingerprint: text('fingerprint').notNull(),
    resultId: integer('result_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

export const loginCodes = pgTable(
  'login_codes',
  {
    id: id(),
    email: text('email').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (t) => [index('login_codes_email_idx').on(t.email, t.createdAt)],
);

export const qrTickets = pgTable(
  'qr_tickets',
  {
    id: id(),
    ticketHash: text('ticket_hash').notNull(),
    status: text('status', { enum: ['pending', 'scanned', 'confirmed', 'consumed', 'expired'] })
      .notNull()
      .default('pending'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('qr_tickets_hash_idx').on(t.ticketHash)],
);

/**
 * Engagement × freshness as an order key that does not move with the clock (migration 0007 defines the function):
 * ln(engagement) + age / 3 days, so ordering by it is ordering by engagement × e^(−age / 3 days) at any moment.
 */
function rankScoreOf(
  t: Record<'diggCount' | 'commentCount' | 'collectCount' | 'shareCount' | 'playCount' | 'createdAt', AnyPgColumn>,
) {
  return sql`video_rank_score(${t.diggCount}, ${t.commentCount}, ${t.collectCount}, ${t.shareCount}, ${t.playCount}, ${t.createdAt})`;
}

/** Works everyone may see (visibility.ts's rule for an anonymous viewer): the predicate of the ranking indexes. */
const LISTED = sql`deleted_at is null and status = 'published' and visibility = 'public'`;

export const videos = pgTable(
  'videos',
  {
    id: id(),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id').notNull(),
    desc: text('desc').notNull(),
    media: text('media').notNull(),
    poster: text('poster').notNull(),
    durationMs: integer('duration_ms').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    diggCount: integer('digg_count').notNull().default(0),
    commentCount: integer('comment_count').notNull().default(0),
    collectCount: integer('collect_count').notNull().default(0),
    shareCount: integer('share_count').notNull().default(0),
    playCount: integer('play_count').notNull().default(0),
    /** Character unigrams and bigrams of title, hashtags and author nickname. */
    searchTokens: text('search_tokens')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The title's own tokens (desc before its ' #hashtags'), computed by PostgreSQL: search gathers title matches apart. */
    titleTokens: text('title_tokens')
      .array()
      .notNull()
      .generatedAlwaysAs(sql`search_tokens_of(split_part("desc", ' #', 1))`),
    /**
     * Popularity and freshness in one number: log likes and plays, plus one point per 30 days of creation time (so
     * ordering by it equals ordering by "minus one point per 30 days of age", and an index can hold it).
     */
    searchRank: doublePrecision('search_rank')
      .notNull()
      .generatedAlwaysAs(
        sql`(ln(1 + digg_count) + 0.3 * ln(1 + play_count) + extract(epoch from created_at - timestamptz '2000-01-01 00:00:00+00') / 2592000)::float8`,
      ),
    /** Who may see the work: everyone, friends (mutual follows), only the author. */
    visibility: text('visibility', { enum: VISIBILITIES }).notNull().default('public'),
    /** Uploaded works are 'processing' until the worker publishes their media; seeded ones are published. */
    status: text('status', { enum: WORK_STATUSES }).notNull().default('published'),
    allowComments: boolean('allow_comments').notNull().default(true),
    /** The cover's frame in seconds, or null for an uploaded image (or a seeded poster). */
    coverTime: doublePrecision('cover_time'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('videos_author_idx').on(t.authorId, t.createdAt),
    // The newest published works of a set of authors, per author, read from the index alone: their ids (关注 and 朋友's
    // feeds), and what the personal feed's follow and author pools rank them by (channel, visibility, the counters of
    // the ranking score). The columns after the id never order anything; they spare each work a visit to its row.
    index('videos_author_recent_idx')
      .on(
        t.authorId,
        t.createdAt,
        t.id,
        t.channelId,
        t.visibility,
        t.diggCount,
        t.commentCount,
        t.collectCount,
        t.shareCount,
        t.playCount,
      )
      .where(sql`${t.deletedAt} is null and ${t.status} = 'published'`),
    index('videos_channel_idx').on(t.channelId, t.createdAt),
    index('videos_created_idx').on(t.createdAt),
    index('videos_search_tokens_idx').using('gin', t.searchTokens),
    index('videos_title_tokens_idx').using('gin', t.titleTokens),
    index('videos_search_rank_idx')
      .on(t.searchRank.desc(), t.id.desc())
      .where(sql`${t.deletedAt} is null`),
    // Title completions (search suggestions): a prefix LIKE on the title before its ' #hashtags', in any collation.
    index('videos_title_prefix_idx')
      .on(sql`lower(split_part(${t.desc}, ' #', 1)) text_pattern_ops`)
      .where(sql`${t.deletedAt} is null`),
    // The stored ranking of what everyone may see (engagement × freshness, services/rankings.ts), read backwards for
    // 首页, the visitors' feed and the feed's popular pool, and per channel; kept by every write to the counters.
    index('videos_rank_idx').on(rankScoreOf(t), t.id).where(LISTED),
    index('videos_channel_rank_idx').on(t.channelId, rankScoreOf(t), t.id).where(LISTED),
    // What the feed's signals read of the works a member liked, collected and watched (channel, author, length), hundreds
    // at a time by id: from this narrow index alone, without a visit to each work's wide row.
    index('videos_facts_idx').on(t.id, t.channelId, t.authorId, t.durationMs),
  ],
);

/** The stored ranking score of a video row, as the ranking indexes hold it. */
export const RANK_SCORE = rankScoreOf(videos);

/** A work's encoded ladder: one H.264/AAC MP4 per gear (short side 540, 720, 1080). */
export const videoRenditions = pgTable(
  'video_renditions',
  {
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    gear: integer('gear').$type<Gear>().notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Bits per second, over the whole file. */
    bitRate: integer('bit_rate').notNull(),
    /** Under the media root, as mediaUrl() takes it. */
    path: text('path').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.gear] })],
);

/** What the worker made of an upload, kept on the upload until a work takes it over. */
export interface UploadOutputs {
  renditions: { gear: Gear; width: number; height: number; bitRate: number; path: string; sizeBytes: number }[];
  poster: string;
  /** The frame (seconds) the poster shows. */
  posterAt: number;
  durationMs: number;
  width: number;
  height: number;
}

/** A creator's upload (tus id) and its checks and processing; a work is made from a finished one. */
export const uploads = pgTable(
  'uploads',
  {
    /** The tus upload id, also the file's name under DATA_DIR/uploads. */
    id: text('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: UPLOAD_KINDS }).notNull().default('video'),
    fileName: text('file_name').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    status: text('status', { enum: UPLOAD_STATUSES }).notNull().default('uploading'),
    /** Catalogue key (error.*) of why it was refused, with its placeholders' values. */
    reason: text('reason'),
    reasonVars: jsonb('reason_vars').$type<Record<string, string | number>>(),
    durationMs: integer('duration_ms'),
    width: integer('width'),
    height: integer('height'),
    outputs: jsonb('outputs').$type<UploadOutputs>(),
    /** The work made from this upload (one at most). */
    videoId: integer('video_id').references(() => videos.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('uploads_user_idx').on(t.userId, t.createdAt),
    uniqueIndex('uploads_video_idx').on(t.videoId),
    check('uploads_size_check', sql`${t.sizeBytes} >= 0`),
  ],
);

/** A work's captions (字幕): one track of checked cues, uploaded by its author or written by the caption engine. */
export const videoCaptions = pgTable('video_captions', {
  videoId: integer('video_id')
    .primaryKey()
    .references(() => videos.id, { onDelete: 'cascade' }),
  /** 'upload' (the author's file, or edited by the author) or 'auto' (the caption engine's, untouched). */
  source: text('source', { enum: ['upload', 'auto'] }).notNull(),
  /** BCP 47 language of the cues. */
  lang: text('lang').notNull().default('zh-CN'),
  /** The cues in time order: start and end in ms, plain text (lines joined by \n). */
  cues: jsonb('cues').$type<{ start: number; end: number; text: string }[]>().notNull(),
  /** The WebVTT file made from the cues, under the media root (a new key on every change). */
  file: text('file').notNull(),
  createdAt: createdAt(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Per-video counts of one day (China's calendar), for 作品数据. */
export const videoDailyStats = pgTable(
  'video_daily_stats',
  {
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    plays: integer('plays').notNull().default(0),
    likes: integer('likes').notNull().default(0),
    comments: integer('comments').notNull().default(0),
    shares: integer('shares').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.day] })],
);

/**
 * A creator's counts of one day over their published works not deleted: video_daily_stats summed per author, kept by
 * triggers on it and on videos (migration 0007), so 作品数据 of all works reads a month of rows, whatever the works.
 */
export const authorDailyStats = pgTable(
  'author_daily_stats',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    plays: integer('plays').notNull().default(0),
    likes: integer('likes').notNull().default(0),
    comments: integer('comments').notNull().default(0),
    shares: integer('shares').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/** New followers a user gained on one day (China's calendar). */
export const userDailyFollowers = pgTable(
  'user_daily_followers',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    newFollowers: integer('new_followers').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

export const hashtags = pgTable(
  'hashtags',
  {
    id: id(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('hashtags_name_idx').on(t.name)],
);

export const videoHashtags = pgTable(
  'video_hashtags',
  {
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    hashtagId: integer('hashtag_id')
      .notNull()
      .references(() => hashtags.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.videoId, t.hashtagId] }),
    index('video_hashtags_tag_idx').on(t.hashtagId),
    // A tag's postings, newest works first: related videos read a bounded slice of each tag's list.
    index('video_hashtags_postings_idx').on(t.hashtagId, t.videoId),
  ],
);

export const series = pgTable(
  'series',
  {
    id: id(),
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['mix', 'theatre'] }).notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    cover: text('cover').notNull(),
    itemCount: integer('item_count').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('series_author_idx').on(t.authorId), index('series_kind_idx').on(t.kind, t.createdAt)],
);

export const seriesItems = pgTable(
  'series_items',
  {
    seriesId: integer('series_id')
      .notNull()
      .references(() => series.id, { onDelete: 'cascade' }),
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
  },
  (t) => [primaryKey({ columns: [t.seriesId, t.videoId] }), index('series_items_video_idx').on(t.videoId)],
);

export const comments = pgTable(
  'comments',
  {
    id: id(),
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Root comment of a reply thread; null for a top-level comment. */
    parentId: integer('parent_id'),
    replyToUserId: integer('reply_to_user_id').references(() => users.id, { onDelete: 'set null' }),
    text: text('text').notNull(),
    diggCount: integer('digg_count').notNull().default(0),
    replyCount: integer('reply_count').notNull().default(0),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('comments_video_idx').on(t.videoId, t.parentId, t.createdAt),
    index('comments_parent_idx').on(t.parentId, t.createdAt),
    index('comments_user_idx').on(t.userId),
    // A video's top-level comments in their shown order (most liked, then newest), read backwards from a keyset.
    index('comments_top_idx')
      .on(t.videoId, t.diggCount, t.createdAt, t.id)
      .where(sql`${t.parentId} is null and ${t.deletedAt} is null`),
  ],
);

/**
 * A (user, thing) pair table with its timestamp: likes, collects, watch later, not interested. `timeline` adds the
 * user's rows newest first, for lists a profile shows (喜欢, 收藏, 稍后再看) and the feed's recent signals.
 */
function pairTable(name: string, target: 'video_id' | 'comment_id', timeline = false) {
  return pgTable(
    name,
    {
      userId: integer('user_id')
        .notNull()
        .references(() => users.id, { onDelete: 'cascade' }),
      targetId: integer(target)
        .notNull()
        .references(() => (target === 'video_id' ? videos.id : comments.id), { onDelete: 'cascade' }),
      createdAt: createdAt(),
    },
    (t) => [
      primaryKey({ columns: [t.userId, t.targetId] }),
      index(`${name}_target_idx`).on(t.targetId),
      ...(timeline ? [index(`${name}_user_time_idx`).on(t.userId, t.createdAt, t.targetId)] : []),
    ],
  );
}

export const likes = pairTable('likes', 'video_id', true);
export const collects = pairTable('collects', 'video_id', true);
export const watchLater = pairTable('watch_later', 'video_id', true);
export const notInterested = pairTable('not_interested', 'video_id');

/**
 * 减少此类: a channel or an author the member wants less of in their recommend feed (feed-less.ts keeps a member's
 * newest rows only, so the feed reads a bounded set). `target_id` is a channel id or a user id, by `kind`.
 */
export const feedLess = pgTable(
  'feed_less',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'channel' | 'author'>().notNull(),
    targetId: integer('target_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind, t.targetId] }),
    check('feed_less_kind_check', sql`${t.kind} in ('channel', 'author')`),
  ],
);
export const commentLikes = pairTable('comment_likes', 'comment_id');

/**
 * 热度 by the hour: per video and hour (hours since 2000-01-01 UTC), the weight of the likes (1), live comments (2)
 * and collects (3) made in it, and their mass Σ weight × e^((made − hour's start) / 1 day). Kept by triggers on those
 * tables in the writing statement (migration 0007); hours leave when the 7-day window passes them (rankings.ts).
 */
export const heatHourly = pgTable(
  'heat_hourly',
  {
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    hour: integer('hour').notNull(),
    weight: integer('weight').notNull(),
    mass: doublePrecision('mass').notNull(),
  },
  (t) => [primaryKey({ columns: [t.videoId, t.hour] }), index('heat_hourly_hour_idx').on(t.hour)],
);

/**
 * Each video's 热度 over the window as one order key that does not move with the clock: score = ln Σ weight ×
 * e^((made − 2000-01-01) / 1 day), so 热度 now = e^(score − (now − 2000-01-01) / 1 day). Only videos with activity
 * in the window have a row.
 */
export const videoHeat = pgTable(
  'video_heat',
  {
    videoId: integer('video_id')
      .primaryKey()
      .references(() => videos.id, { onDelete: 'cascade' }),
    score: doublePrecision('score').notNull(),
    lastHour: integer('last_hour').notNull(),
  },
  (t) => [index('video_heat_score_idx').on(t.score, t.videoId)],
);

/** Works everyone may see, per channel (the channel list's counts), kept by a trigger on videos (migration 0007). */
export const channelCounts = pgTable('channel_counts', {
  channelId: integer('channel_id').primaryKey(),
  videoCount: integer('video_count').notNull().default(0),
});

/** The first hour the 热度 window still counts (one row): moved forward by heat_expire(). */
export const heatWindow = pgTable(
  'heat_window',
  {
    id: smallint('id').primaryKey(),
    startHour: integer('start_hour').notNull(),
  },
  (t) => [check('heat_window_one_row', sql`${t.id} = 1`)],
);

export const watchHistory = pgTable(
  'watch_history',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    progressMs: integer('progress_ms').notNull().default(0),
    watchedAt: timestamp('watched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.videoId] }), index('watch_history_user_idx').on(t.userId, t.watchedAt)],
);

export const follows = pgTable(
  'follows',
  {
    followerId: integer('follower_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    followeeId: integer('followee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.followerId, t.followeeId] }),
    index('follows_followee_idx').on(t.followeeId),
    // 关注 and 粉丝 lists, newest follow first, read from a cursor.
    index('follows_follower_time_idx').on(t.followerId, t.createdAt, t.followeeId),
    index('follows_followee_time_idx').on(t.followeeId, t.createdAt, t.followerId),
  ],
);

export const danmaku = pgTable(
  'danmaku',
  {
    id: id(),
    videoId: integer('video_id')
      .notNull()
      .references(() => videos.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    offsetMs: integer('offset_ms').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('danmaku_video_idx').on(t.videoId, t.offsetMs)],
);

export const liveRooms = pgTable(
  'live_rooms',
  {
    id: id(),
    hostId: integer('host_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id').notNull(),
    title: text('title').notNull(),
    cover: text('cover').notNull(),
    media: text('media').notNull(),
    status: text('status', { enum: ['live', 'ended'] })
      .notNull()
      .default('live'),
    viewerCount: integer('viewer_count').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the broadcast ended (null while on air). */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** Set while the host's publisher is gone and may come back (主播暂时离开); cleared when it does. */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    /** 点赞 taps, counted. */
    likeCount: integer('like_count').notNull().default(0),
    /** The work this broadcast was published as (回放), once its recording is processed. */
    replayVideoId: integer('replay_video_id').references(() => videos.id, { onDelete: 'set null' }),
    /** Whether this broadcast is being recorded for a 回放 (the host's switch when it went live). */
    recording: boolean('recording').notNull().default(false),
    /** The internal address of the app server holding the stream, for the others to relay (null: none now). */
    origin: text('origin'),
    /** What the publisher sends, as the holding server last measured it. */
    ingest: jsonb('ingest').$type<LiveIngest>(),
    /** The latest frame of the stream as a picture (a media key), refreshed every few seconds while on air. */
    thumb: text('thumb'),
  },
  (t) => [
    index('live_rooms_status_idx').on(t.status, t.startedAt),
    index('live_rooms_host_idx').on(t.hostId, t.startedAt),
    // One broadcast on air per host: a second publish continues it or is refused.
    uniqueIndex('live_rooms_one_live_idx')
      .on(t.hostId)
      .where(sql`${t.status} = 'live'`),
  ],
);

/** Incoming stream figures of a broadcast (codec names as FLV gives them, kbps over the last few seconds). */
export interface LiveIngest {
  width: number;
  height: number;
  fps: number;
  kbps: number;
  videoCodec: string;
  audioCodec: string;
  /** When the ingesting server measured them (ms): its heartbeat. */
  at: number;
}

/**
 * A member's live studio (直播): the stream key (stored as a SHA-256 hash only; the key itself is shown once), the
 * next broadcast's title, cover and channel, whether it is recorded, and the last refused publish with its reason.
 */
export const liveHosts = pgTable('live_hosts', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  keyHash: text('key_hash'),
  keyCreatedAt: timestamp('key_created_at', { withTimezone: true }),
  title: text('title').notNull().default(''),
  /** A media key; '' uses the stream's own frame. */
  cover: text('cover').notNull().default(''),
  channelId: integer('channel_id').notNull().default(300201),
  record: boolean('record').notNull().default(false),
  /** Catalogue key (live.refused.*) of the last refused publish, with its values and time. */
  refusal: text('refusal'),
  refusalVars: jsonb('refusal_vars').$type<Record<string, string | number>>(),
  refusedAt: timestamp('refused_at', { withTimezone: true }),
});

/**
 * Who each server process counts in a room's viewer_count, so that a process that died without closing its streams
 * (kill -9, a crash) can have its viewers taken back off: rows whose heartbeat (seen_at) is stale are swept
 * (services/live.ts).
 */
export const livePresence = pgTable(
  'live_presence',
  {
    instance: text('instance').notNull(),
    roomId: integer('room_id')
      .notNull()
      .references(() => liveRooms.id, { onDelete: 'cascade' }),
    viewers: integer('viewers').notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.instance, t.roomId] }), index('live_presence_seen_idx').on(t.seenAt)],
);

export const liveMessages = pgTable(
  'live_messages',
  {
    id: id(),
    roomId: integer('room_id')
      .notNull()
      .references(() => liveRooms.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('live_messages_room_idx').on(t.roomId, t.createdAt)],
);

export const conversations = pgTable(
  'conversations',
  {
    id: id(),
    /** The pair is stored ordered (userA < userB) so each pair has one conversation. */
    userA: integer('user_a')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userB: integer('user_b')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('conversations_pair_idx').on(t.userA, t.userB), index('conversations_b_idx').on(t.userB)],
);

export const messages = pgTable(
  'messages',
  {
    id: id(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    replyToId: integer('reply_to_id'),
    likedAt: timestamp('liked_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('messages_conversation_idx').on(t.conversationId, t.createdAt)],
);

/** 删除 of one message: hidden for this user only; the peer keeps seeing it. */
export const messageHides = pgTable(
  'message_hides',
  {
    messageId: integer('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.userId] })],
);

export const conversationSettings = pgTable(
  'conversation_settings',
  {
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    muted: boolean('muted').notNull().default(false),
    pinned: boolean('pinned').notNull().default(false),
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
    lastReadAt: timestamp('last_read_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.conversationId, t.userId] })],
);

export const blocks = pgTable(
  'blocks',
  {
    blockerId: integer('blocker_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    blockedId: integer('blocked_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] })],
);

/**
 * A member's mutes (屏蔽): keywords matched as plain substrings of a work's title and description, authors (不看TA的作品,
 * `authorId` set and `value` its id) and hashtags (by name). services/mutes.ts owns the caps and the one read rule.
 */
export const mutes = pgTable(
  'mutes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['keyword', 'author', 'hashtag'] }).notNull(),
    value: text('value').notNull(),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('mutes_user_kind_value_idx').on(t.userId, t.kind, t.value),
    check('mutes_kind_check', sql`${t.kind} in ('keyword', 'author', 'hashtag')`),
  ],
);

export const reports = pgTable(
  'reports',
  {
    id: id(),
    /** Who filed it; null when a watched word flagged the target. */
    reporterId: integer('reporter_id').references(() => users.id, { onDelete: 'cascade' }),
    targetType: text('target_type', { enum: MODERATION_TARGETS }).notNull(),
    targetId: integer('target_id').notNull(),
    reason: text('reason').notNull(),
    /** 'member' (a 举报) or 'watched_word' (flagged automatically; `detail` names the word). */
    source: text('source', { enum: REPORT_SOURCES }).notNull().default('member'),
    detail: text('detail'),
    status: text('status', { enum: REPORT_STATES }).notNull().default('open'),
    resolvedBy: integer('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('reports_status_idx').on(t.status, t.createdAt),
    index('reports_target_idx').on(t.targetType, t.targetId),
  ],
);

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    actorId: integer('actor_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: NOTICE_KINDS,
    }).notNull(),
    videoId: integer('video_id').references(() => videos.id, { onDelete: 'cascade' }),
    /** The broadcast a 开播了 notification is about. */
    roomId: integer('room_id').references(() => liveRooms.id, { onDelete: 'cascade' }),
    commentId: integer('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    text: text('text'),
    /** The data export a notification of kind export_ready announces. */
    exportId: integer('export_id').references(() => dataExports.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdAt),
    // The badge reads only unread rows (and stops at what it can show).
    index('notifications_unread_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.readAt} is null`),
  ],
);

export const searchLog = pgTable(
  'search_log',
  {
    id: id(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    query: text('query').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('search_log_created_idx').on(t.createdAt),
    index('search_log_user_idx').on(t.userId, t.createdAt),
    // A word's first row (its stable sentence_id) and who else searched it (猜你想搜).
    index('search_log_query_idx').on(t.query, t.id),
  ],
);

/**
 * 热搜's heat of each searched word as two order keys that do not move with the clock (log2 Σ 2^(t / unit) over its
 * searches, t counted from 2000-01-01): `burst` in units of 6 hours (a search's weight halves every 6 hours) and `week`
 * in units of 84 hours (halves every three and a half days). Heat now = 2^(burst − now / 6 h) + 0.1 × 2^(week − now /
 * 84 h). Kept by a trigger on search_log in the logging statement; `first_id` is the word's first search_log row.
 */
export const searchHeat = pgTable(
  'search_heat',
  {
    query: text('query').primaryKey(),
    firstId: integer('first_id').notNull(),
    burst: doublePrecision('burst').notNull(),
    week: doublePrecision('week').notNull(),
  },
  (t) => [index('search_heat_burst_idx').on(t.burst), index('search_heat_week_idx').on(t.week)],
);

export const feedback = pgTable('feedback', {
  id: id(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  contact: text('contact'),
  content: text('content').notNull(),
  createdAt: createdAt(),
});

/** 下载我的数据: one ZIP of a member's data, built by a job, downloadable by its owner until it expires. */
export const dataExports = pgTable(
  'data_exports',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'ready', 'failed'] })
      .notNull()
      .default('pending'),
    /** The ZIP's file name under the exports folder, once built. */
    file: text('file'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    createdAt: createdAt(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [index('data_exports_user_idx').on(t.userId, t.createdAt)],
);

/** Fixed-window counters for rate limits, shared by every app server through the database. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: bigint('reset_at', { mode: 'number' }).notNull(),
});

/** Staff roles held by members (editor, moderator, admin); granted by an admin, or from the shell (`npm run staff`). */
export const staffRoles = pgTable(
  'staff_roles',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: STAFF_ROLES }).notNull(),
    /** Null when granted from the shell. */
    grantedBy: integer('granted_by').references(() => users.id, { onDelete: 'set null' }),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.role] })],
);

/**
 * Every staff action, append-only (a trigger refuses UPDATE and DELETE, migration 0007): who, when, what, and the state
 * before and after. `actor_id` is null for the shell; the actor's id is kept even if the account goes.
 */
export const staffAudit = pgTable(
  'staff_audit',
  {
    id: id(),
    actorId: integer('actor_id'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [index('staff_audit_created_idx').on(t.createdAt), index('staff_audit_actor_idx').on(t.actorId, t.createdAt)],
);

/** The editors' content (what src/content seeds): one row per entry, its current version. */
export const contentEntries = pgTable(
  'content_entries',
  {
    collection: text('collection').notNull(),
    entryId: text('entry_id').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** The Markdown body of FAQ answers and pages; null for data-only collections. */
    body: text('body'),
    version: integer('version').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [primaryKey({ columns: [t.collection, t.entryId] })],
);

/** Every version of every entry, the seed's first; `data` null marks a deletion. */
export const contentVersions = pgTable(
  'content_versions',
  {
    id: id(),
    collection: text('collection').notNull(),
    entryId: text('entry_id').notNull(),
    version: integer('version').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>(),
    body: text('body'),
    /** Null for the seed and for `npm run content:import`. */
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    /** 'seed', 'edit', 'restore', 'delete' or 'import'. */
    kind: text('kind').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('content_versions_entry_idx').on(t.collection, t.entryId, t.version)],
);

/** Words moderators watch: new comments, titles, bios and messages containing one are flagged into the queue. */
export const watchedWords = pgTable(
  'watched_words',
  {
    id: id(),
    /** Stored lower-cased; matched as a substring of the lower-cased text. */
    word: text('word').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('watched_words_word_idx').on(t.word)],
);

/** Mutes and bans. A mute ends at `ends_at`; a ban lasts until lifted. Lifting keeps the row (the history stays). */
export const sanctions = pgTable(
  'sanctions',
  {
    id: id(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['mute', 'ban'] }).notNull(),
    reason: text('reason').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** The works a ban made private, with the visibility each had, which lifting the ban gives back. */
    hiddenWorks: jsonb('hidden_works').$type<{ id: number; visibility: string }[]>().notNull().default([]),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    liftedAt: timestamp('lifted_at', { withTimezone: true }),
    liftedBy: integer('lifted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('sanctions_user_idx').on(t.userId, t.kind)],
);

/** Content a moderator removed, with what the removal took along, so that restoring puts back exactly that. */
export const removals = pgTable(
  'removals',
  {
    id: id(),
    targetType: text('target_type', { enum: REMOVABLE_TARGETS }).notNull(),
    targetId: integer('target_id').notNull(),
    /** The author told of it. */
    authorId: integer('author_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Rows hidden by it (a comment's replies come along with it). */
    hiddenIds: integer('hidden_ids').array().notNull(),
    /** What restoring puts back besides (a work's visibility, a live room's status). */
    previous: jsonb('previous').$type<Record<string, unknown>>(),
    reason: text('reason').notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    restoredAt: timestamp('restored_at', { withTimezone: true }),
    restoredBy: integer('restored_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('removals_target_idx').on(t.targetType, t.targetId)],
);

/** 收藏 → 音乐: the sounds a user collected. A sound here is a work's original sound, so its id is the work's. */
export const musicCollects = pairTable('music_collects', 'video_id');

/** 观看历史 → 用户: the profiles a user visited, the latest visit kept. */
export const profileVisits = pgTable(
  'profile_visits',
  {
    viewerId: integer('viewer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    visitedAt: timestamp('visited_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.viewerId, t.userId] }),
    index('profile_visits_viewer_idx').on(t.viewerId, t.visitedAt),
  ],
);

/** 观看历史 → 直播: the live rooms a user watched, the latest visit kept. */
export const liveWatchHistory = pgTable(
  'live_watch_history',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roomId: integer('room_id')
      .notNull()
      .references(() => liveRooms.id, { onDelete: 'cascade' }),
    watchedAt: timestamp('watched_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.roomId] }),
    index('live_watch_history_user_idx').on(t.userId, t.watchedAt),
  ],
);
