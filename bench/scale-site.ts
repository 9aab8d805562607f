/**
 * A large generated site on top of the seed, for `npm run bench:scale` and the tests that need one: users, videos over
 * the eight channels and 180 days with power-law authors and popularity, likes, collects, watch history, follows,
 * comments with reply threads and their likes, danmaku, live chat, and notifications and conversations for the most
 * active users. Deterministic: every choice is a hash of the row's number (no random state), so the same scale gives
 * the same site. Everything is set-based SQL on one connection, with the big tables' secondary indexes and keys dropped
 * while they fill and built again after, and foreign keys and triggers off (`session_replication_role = replica`;
 * the rows are consistent by construction).
 */
import type pg from 'pg';
import { CHANNEL_COUNTS_SQL, CREATOR_DAYS_SQL, HEAT_HOURS_SQL, SEARCH_HEAT_SQL } from '../src/server/db/derived.ts';
import {
  CHANNEL_IDS,
  CHANNELS,
  DANMAKU,
  GENERIC_COMMENTS,
  LIVE_MESSAGES,
  MESSAGE_LINES,
  NICK_SUFFIXES,
  REPLIES,
} from '../src/server/db/seed/content.ts';

/** How many of each; `sizeFor(1)` is the default large site. */
export interface ScaleSize {
  users: number;
  videos: number;
  likes: number;
  collects: number;
  watches: number;
  follows: number;
  comments: number;
  commentLikes: number;
  danmaku: number;
  liveMessages: number;
  searches: number;
  /** The most followed authors, who get notifications and conversations. */
  activeUsers: number;
}

/** The site at `scale` (1: a million videos). */
export function sizeFor(scale: number): ScaleSize {
  const n = (x: number) => Math.max(1, Math.round(x * scale));
  return {
    users: n(100_000),
    videos: n(1_000_000),
    likes: n(10_000_000),
    collects: n(1_000_000),
    watches: n(5_000_000),
    follows: n(1_000_000),
    comments: n(5_000_000),
    commentLikes: n(2_000_000),
    danmaku: n(1_000_000),
    liveMessages: n(100_000),
    searches: n(100_000),
    activeUsers: n(2_000),
  };
}

/** The span of time the site covers. */
export const SPAN_DAYS = 180;

// Tables filled in bulk: their secondary indexes (and keys nothing refers to) are dropped first and built after.
const BULK_TABLES = [
  'users',
  'videos',
  'video_hashtags',
  'likes',
  'collects',
  'watch_history',
  'follows',
  'comments',
  'comment_likes',
  'danmaku',
  'live_messages',
  'notifications',
  'conversations',
  'messages',
  'conversation_settings',
  'search_log',
  'video_daily_stats',
  'user_daily_followers',
];
// Keys other tables refer to (or the generator joins on) stay.
const KEPT_KEYS = new Set(['users_pkey', 'videos_pkey', 'comments_pkey', 'conversations_pkey', 'messages_pkey']);

type Log = (message: string) => void;

/** Content the SQL draws from, as literal arrays. */
const textArray = (items: readonly string[]) =>
  `ARRAY[${items.map((s) => `'${s.replaceAll("'", "''")}'`).join(',')}]::text[]`;

/** The hash-based uniform draw in [0, 1) of row `k`, stream `salt` (0-63); the same on every run. */
const RANDOM_FN = `
  CREATE FUNCTION pg_temp.r(k bigint, salt int) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
  $$ SELECT (hashint8(k * 64 + salt) & 2147483647)::float8 / 2147483648.0 $$`;

/**
 * Every title a channel's templates make, with its hashtags as the seed chooses them (the channel's own, the title's
 * subject, one more of the channel's), as the seed writes them: 'title #tag #tag'.
 */
function titlePool(): { channel: number; desc: string; tags: string[] }[] {
  const out = new Map<string, { channel: number; desc: string; tags: string[] }>();
  for (const channel of CHANNEL_IDS) {
    const c = CHANNELS[channel];
    let k = 0;
    for (const template of c.titles) {
      for (const a of c.a) {
        for (const b of c.b) {
          const title = template.replace('{a}', a).replace('{b}', b);
          const tags = [...new Set([c.tags[0]!, ...(k % 3 === 0 ? [] : [a]), c.tags[1 + (k % (c.tags.length - 1))]!])];
          const desc = `${title} ${tags.map((t) => `#${t}`).join(' ')}`;
          if (!out.has(desc)) out.set(desc, { channel, desc, tags });
          k += 1;
        }
      }
    }
  }
  return [...out.values()];
}

async function timed(client: pg.Client, log: Log, label: string, text: string): Promise<number> {
  const started = performance.now();
  const result = await client.query(text);
  log(`  ${label}: ${result.rowCount ?? 0} rows, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result.rowCount ?? 0;
}

/** Drops the bulk tables' secondary indexes and free keys; returns the statements that build them again. */
async function dropIndexes(client: pg.Client): Promise<string[]> {
  const { rows: keys } = await client.query<{ tbl: string; name: string; def: string }>(
    `SELECT c.conrelid::regclass::text AS tbl, c.conname AS name, pg_get_constraintdef(c.oid) AS def
     FROM pg_constraint c WHERE c.contype IN ('p', 'u') AND c.conrelid::regclass::text = ANY ($1)`,
    [BULK_TABLES],
  );
  const { rows: indexes } = await client.query<{ name: string; def: string }>(
    `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
     WHERE i.schemaname = 'public' AND i.tablename = ANY ($1)
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    [BULK_TABLES],
  );
  const rebuild: string[] = [];
  for (const k of keys.filter((k) => !KEPT_KEYS.has(k.name))) {
    await client.query(`ALTER TABLE ${k.tbl} DROP CONSTRAINT "${k.name}"`);
    rebuild.push(`ALTER TABLE ${k.tbl} ADD CONSTRAINT "${k.name}" ${k.def}`);
  }
  for (const i of indexes) {
    await client.query(`DROP INDEX "${i.name}"`);
    rebuild.push(i.def);
  }
  return rebuild;
}

/**
 * Adds the large site to a migrated, seeded database (its own tables as the schema has them at that point), on a
 * superuser connection. `now` is the site's present: every time is before it.
 *
 * No generated row is written twice: a video's and a comment's counters are counted from their likes, comments and
 * watches before the row itself is inserted (an UPDATE of a video recomputes its search columns and every index
 * entry, a millisecond a row), so the facts each draw needs (a video's time, length and author; a comment's video,
 * author and time) come from narrow temporary tables computed first.
 */
export async function generateSite(client: pg.Client, size: ScaleSize, now: Date, log: Log = () => {}): Promise<void> {
  const s = size;
  const nowSql = `timestamptz '${now.toISOString()}'`;
  const span = `interval '${SPAN_DAYS} days'`;
  await client.query(`SET session_replication_role = replica`);
  await client.query(`SET maintenance_work_mem = '512MB'`);
  await client.query(`SET work_mem = '256MB'`);
  await client.query(`SET synchronous_commit = off`);
  await client.query(RANDOM_FN);
  const max = async (table: string) =>
    Number((await client.query(`SELECT coalesce(max(id), 0) AS m FROM ${table}`)).rows[0].m);
  const U0 = (await max('users')) + 1;
  const V0 = (await max('videos')) + 1;
  const C0 = (await max('comments')) + 1;
  const K0 = (await max('conversations')) + 1;
  const { U, V } = { U: s.users, V: s.videos };
  const topComments = Math.round(s.comments * 0.7);
  const replies = s.comments - topComments;
  // Power laws: the k-th draw of r^a picks low numbers often; a fixed multiplier (prime, coprime with the range)
  // scatters them so the popular users and videos are spread over ids and time.
  const author = (k: string, salt: number) =>
    `(${U0} + (floor(${U} * pg_temp.r(${k}, ${salt}) ^ 1.7)::bigint * 7919) % ${U})`;
  const actor = (k: string, salt: number, a = 1.6) =>
    `(${U0} + (floor(${U} * pg_temp.r(${k}, ${salt}) ^ ${a})::bigint * 104729) % ${U})`;
  const popular = (k: string, salt: number) =>
    `(${V0} + (floor(${V} * pg_temp.r(${k}, ${salt}) ^ 2.2)::bigint * 48271) % ${V})`;
  const topComment = (k: string, salt: number, a: number) =>
    `(${C0} + (floor(${topComments} * pg_temp.r(${k}, ${salt}) ^ ${a})::bigint * 15485863) % ${topComments})`;

  log('dropping the bulk tables’ indexes');
  const rebuild = await dropIndexes(client);

  const nicks = CHANNEL_IDS.flatMap((c) => CHANNELS[c].nickPrefixes);
  await timed(
    client,
    log,
    'users',
    `INSERT INTO users (id, sec_uid, nickname, signature, avatar, created_at) OVERRIDING SYSTEM VALUE
     SELECT ${U0} + g, 'MS4wLjABAAAAgen' || (${U0} + g),
       (${textArray(nicks)})[1 + floor(pg_temp.r(g, 1) * ${nicks.length})::int]
         || (${textArray(NICK_SUFFIXES)})[1 + floor(pg_temp.r(g, 2) * ${NICK_SUFFIXES.length})::int] || (g % 1000),
       '', 'seed/avatars/' || (1 + g % 60) || '.svg', ${nowSql} - ${span} - interval '30 days' * pg_temp.r(g, 3)
     FROM generate_series(0, ${U - 1}) g`,
  );

  // The titles: channel, text and hashtags, tokens computed once per title; the seed's clips.
  const pool = titlePool();
  await client.query(
    `CREATE TEMP TABLE gen_titles (k int PRIMARY KEY, channel_id int, "desc" text, tokens text[], tag_ids int[])`,
  );
  await client.query(
    `INSERT INTO gen_titles (k, channel_id, "desc", tokens, tag_ids)
     SELECT t.k, t.channel_id, t.d, search_tokens_of(t.d),
       coalesce((SELECT array_agg(h.id ORDER BY h.id) FROM hashtags h WHERE h.name = ANY (t.tags)), '{}')
     FROM jsonb_to_recordset($1::jsonb) AS t(k int, channel_id int, d text, tags text[])`,
    [JSON.stringify(pool.map((p, k) => ({ k, channel_id: p.channel, d: p.desc, tags: p.tags })))],
  );
  await client.query(
    `CREATE TEMP TABLE gen_clips AS SELECT (row_number() OVER (ORDER BY id) - 1)::int AS k, media, poster, duration_ms,
       width, height, size_bytes FROM videos WHERE id < ${V0}`,
  );
  const clips = Number((await client.query('SELECT count(*) AS n FROM gen_clips')).rows[0].n);

  // Each video's facts. Ids grow with time, 180 days up to now; 97 % public, 2 % friends-only, 1 % private; 0.3 %
  // deleted.
  await timed(
    client,
    log,
    'video facts',
    `CREATE TEMP TABLE gen_v AS
     SELECT ${V0} + g AS id, ${author('g', 10)}::int AS author_id, floor(pg_temp.r(g, 11) * ${pool.length})::int AS title,
       (g % ${clips})::int AS clip, c.duration_ms,
       CASE WHEN pg_temp.r(g, 6) < 0.97 THEN 'public' WHEN pg_temp.r(g, 6) < 0.99 THEN 'friends' ELSE 'private' END AS visibility,
       CASE WHEN pg_temp.r(g, 7) < 0.003 THEN ${nowSql} - interval '1 day' * pg_temp.r(g, 8) END AS deleted_at,
       ${nowSql} - ${span} * (1 - (g + pg_temp.r(g, 9)) / ${V}) AS created_at
     FROM generate_series(0, ${V - 1}) g JOIN gen_clips c ON c.k = g % ${clips}`,
  );
  await client.query(`ALTER TABLE gen_v ADD PRIMARY KEY (id)`);

  // A pair table of `n` draws: user and video by their power laws, made between the video's creation and now (soon
  // after it, mostly); one row per pair.
  const pairs = (table: string, n: number, salt: number) =>
    timed(
      client,
      log,
      table,
      `INSERT INTO ${table} (user_id, video_id, created_at)
       SELECT DISTINCT ON (p.u, p.v) p.u, p.v, v.created_at + (${nowSql} - v.created_at) * pg_temp.r(p.g, ${salt + 2}) ^ 3
       FROM (SELECT g, ${actor('g', salt)} AS u, ${popular('g', salt + 1)} AS v FROM generate_series(0, ${n - 1}) g) p
       JOIN gen_v v ON v.id = p.v
       ORDER BY p.u, p.v`,
    );
  await pairs('likes', s.likes, 12);
  await pairs('collects', s.collects, 16);
  await timed(
    client,
    log,
    'watch_history',
    `INSERT INTO watch_history (user_id, video_id, progress_ms, watched_at)
     SELECT DISTINCT ON (p.u, p.v) p.u, p.v, floor(v.duration_ms * pg_temp.r(p.g, 22))::int,
       v.created_at + (${nowSql} - v.created_at) * pg_temp.r(p.g, 23) ^ 2
     FROM (SELECT g, ${actor('g', 20, 1.4)} AS u, ${popular('g', 21)} AS v FROM generate_series(0, ${s.watches - 1}) g) p
     JOIN gen_v v ON v.id = p.v
     ORDER BY p.u, p.v`,
  );
  await timed(
    client,
    log,
    'follows',
    `INSERT INTO follows (follower_id, followee_id, created_at)
     SELECT DISTINCT ON (a, b) a, b, ${nowSql} - ${span} * pg_temp.r(g, 26)
     FROM (SELECT g, ${actor('g', 24, 1.3)} AS a, ${author('g', 25)} AS b FROM generate_series(0, ${s.follows - 1}) g) f
     WHERE a <> b ORDER BY a, b`,
  );

  // Top-level comments' facts, then their replies (to the popular ones more often, on their video, after them) and
  // likes, then the comments themselves with those counted.
  const texts = [...GENERIC_COMMENTS, ...CHANNEL_IDS.flatMap((c) => CHANNELS[c].comments)];
  await timed(
    client,
    log,
    'comment facts',
    `CREATE TEMP TABLE gen_c AS
     SELECT ${C0} + p.g AS id, p.v AS video_id, p.u AS user_id,
       CASE WHEN pg_temp.r(p.g, 30) < 0.01 THEN ${nowSql} END AS deleted_at,
       v.created_at + (${nowSql} - v.created_at) * pg_temp.r(p.g, 31) ^ 3 AS created_at, p.g
     FROM (SELECT g, ${actor('g', 27, 1.4)} AS u, ${popular('g', 28)} AS v FROM generate_series(0, ${topComments - 1}) g) p
     JOIN gen_v v ON v.id = p.v`,
  );
  await client.query(`ALTER TABLE gen_c ADD PRIMARY KEY (id)`);
  await timed(
    client,
    log,
    'comments (replies)',
    `INSERT INTO comments (id, video_id, user_id, parent_id, reply_to_user_id, text, created_at) OVERRIDING SYSTEM VALUE
     SELECT ${C0 + topComments} + p.g, c.video_id, p.u, c.id, c.user_id,
       (${textArray(REPLIES)})[1 + floor(pg_temp.r(p.g, 34) * ${REPLIES.length})::int],
       c.created_at + (${nowSql} - c.created_at) * pg_temp.r(p.g, 35) ^ 4
     FROM (SELECT g, ${actor('g', 32, 1.4)} AS u, ${topComment('g', 33, 2)} AS parent
           FROM generate_series(0, ${replies - 1}) g) p
     JOIN gen_c c ON c.id = p.parent`,
  );
  await timed(
    client,
    log,
    'comment_likes',
    `INSERT INTO comment_likes (user_id, comment_id, created_at)
     SELECT DISTINCT ON (p.u, p.c) p.u, p.c, c.created_at + (${nowSql} - c.created_at) * pg_temp.r(p.g, 38)
     FROM (SELECT g, ${actor('g', 36)} AS u, ${topComment('g', 37, 2.5)} AS c
           FROM generate_series(0, ${s.commentLikes - 1}) g) p
     JOIN gen_c c ON c.id = p.c
     ORDER BY p.u, p.c`,
  );
  await timed(
    client,
    log,
    'comments (top level)',
    `INSERT INTO comments (id, video_id, user_id, text, deleted_at, digg_count, reply_count, created_at) OVERRIDING SYSTEM VALUE
     SELECT c.id, c.video_id, c.user_id, (${textArray(texts)})[1 + floor(pg_temp.r(c.g, 29) * ${texts.length})::int],
       c.deleted_at, coalesce(l.n, 0), coalesce(r.n, 0), c.created_at
     FROM gen_c c
     LEFT JOIN (SELECT comment_id, count(*)::int AS n FROM comment_likes WHERE comment_id >= ${C0} GROUP BY 1) l
       ON l.comment_id = c.id
     LEFT JOIN (SELECT parent_id, count(*)::int AS n FROM comments WHERE id >= ${C0} AND parent_id IS NOT NULL GROUP BY 1) r
       ON r.parent_id = c.id`,
  );

  // The videos, counted: likes, collects, live comments (replies too), and plays from watches.
  await timed(
    client,
    log,
    'videos',
    `INSERT INTO videos (id, author_id, channel_id, "desc", media, poster, duration_ms, width, height, size_bytes,
       digg_count, comment_count, collect_count, share_count, play_count, search_tokens, visibility, deleted_at, created_at)
     OVERRIDING SYSTEM VALUE
     SELECT v.id, v.author_id, t.channel_id, t."desc", c.media, c.poster, c.duration_ms, c.width, c.height, c.size_bytes,
       coalesce(l.n, 0), coalesce(m.n, 0), coalesce(k.n, 0), floor(20 * pg_temp.r(v.id, 5) ^ 6)::int,
       greatest(coalesce(w.n, 0) * 30 + floor(200 * pg_temp.r(v.id, 55))::int, coalesce(l.n, 0)),
       t.tokens || a.search_tokens, v.visibility, v.deleted_at, v.created_at
     FROM gen_v v
     JOIN users a ON a.id = v.author_id
     JOIN gen_titles t ON t.k = v.title
     JOIN gen_clips c ON c.k = v.clip
     LEFT JOIN (SELECT video_id, count(*)::int AS n FROM likes WHERE video_id >= ${V0} GROUP BY 1) l ON l.video_id = v.id
     LEFT JOIN (SELECT video_id, count(*)::int AS n FROM collects WHERE video_id >= ${V0} GROUP BY 1) k ON k.video_id = v.id
     LEFT JOIN (SELECT video_id, count(*)::int AS n FROM comments WHERE id >= ${C0} AND deleted_at IS NULL GROUP BY 1) m
       ON m.video_id = v.id
     LEFT JOIN (SELECT video_id, count(*)::int AS n FROM watch_history WHERE video_id >= ${V0} GROUP BY 1) w
       ON w.video_id = v.id`,
  );
  await timed(
    client,
    log,
    'video_hashtags',
    `INSERT INTO video_hashtags (video_id, hashtag_id)
     SELECT v.id, unnest(t.tag_ids) FROM gen_v v JOIN gen_titles t ON t.k = v.title`,
  );
  await timed(
    client,
    log,
    'danmaku',
    `INSERT INTO danmaku (video_id, user_id, text, offset_ms, created_at)
     SELECT v.id, p.u, (${textArray(DANMAKU)})[1 + floor(pg_temp.r(p.g, 41) * ${DANMAKU.length})::int],
       floor(v.duration_ms * pg_temp.r(p.g, 42))::int, v.created_at + (${nowSql} - v.created_at) * pg_temp.r(p.g, 43)
     FROM (SELECT g, ${actor('g', 39)} AS u, ${popular('g', 40)} AS v FROM generate_series(0, ${s.danmaku - 1}) g) p
     JOIN gen_v v ON v.id = p.v`,
  );
  await timed(
    client,
    log,
    'live_messages',
    `INSERT INTO live_messages (room_id, user_id, text, created_at)
     SELECT r.id, ${actor('g', 44)}, (${textArray(LIVE_MESSAGES)})[1 + floor(pg_temp.r(g, 45) * ${LIVE_MESSAGES.length})::int],
       ${nowSql} - interval '3 hours' * pg_temp.r(g, 46)
     FROM generate_series(0, ${s.liveMessages - 1}) g
     JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k, count(*) OVER () AS n FROM live_rooms) r
       ON r.k = floor(pg_temp.r(g, 47) * r.n)`,
  );
  const words = [...new Set(CHANNEL_IDS.flatMap((c) => [...CHANNELS[c].a, ...CHANNELS[c].tags]))];
  await timed(
    client,
    log,
    'search_log',
    `INSERT INTO search_log (user_id, query, created_at)
     SELECT CASE WHEN pg_temp.r(g, 48) < 0.6 THEN ${actor('g', 49)} END,
       (${textArray(words)})[1 + floor(pg_temp.r(g, 50) ^ 2.5 * ${words.length})::int],
       ${nowSql} - interval '7 days' * pg_temp.r(g, 51)
     FROM generate_series(0, ${s.searches - 1}) g`,
  );

  // The most followed authors hear of their latest likes, comments and follows, and write with ten people each.
  await client.query(
    `CREATE TEMP TABLE gen_active AS SELECT id FROM (
       SELECT ${author('g', 52)}::int AS id, count(*) AS n FROM generate_series(0, ${s.activeUsers * 20}) g GROUP BY 1) x
     ORDER BY n DESC, id LIMIT ${s.activeUsers}`,
  );
  await timed(
    client,
    log,
    'notifications',
    `INSERT INTO notifications (user_id, actor_id, kind, video_id, comment_id, text, read_at, created_at)
     SELECT n.user_id, n.actor_id, n.kind, n.video_id, n.comment_id, n.text,
       CASE WHEN n.k > 5 THEN n.created_at + interval '1 hour' END, n.created_at
     FROM (
       SELECT x.*, row_number() OVER (PARTITION BY x.user_id, x.kind ORDER BY x.created_at DESC) AS k FROM (
         SELECT v.author_id AS user_id, l.user_id AS actor_id, 'like_video' AS kind, l.video_id, NULL::int AS comment_id,
           NULL::text AS text, l.created_at
         FROM likes l JOIN gen_v v ON v.id = l.video_id JOIN gen_active a ON a.id = v.author_id
         UNION ALL
         SELECT v.author_id, c.user_id, 'comment', c.video_id, c.id, c.text, c.created_at
         FROM comments c JOIN gen_v v ON v.id = c.video_id JOIN gen_active a ON a.id = v.author_id
         WHERE c.parent_id IS NULL AND c.id >= ${C0}
         UNION ALL
         SELECT f.followee_id, f.follower_id, 'follow', NULL, NULL, NULL, f.created_at
         FROM follows f JOIN gen_active a ON a.id = f.followee_id
       ) x WHERE x.user_id <> x.actor_id
     ) n WHERE n.k <= 30`,
  );
  await timed(
    client,
    log,
    'conversations',
    `INSERT INTO conversations (id, user_a, user_b, last_message_at, created_at) OVERRIDING SYSTEM VALUE
     SELECT ${K0} + row_number() OVER (ORDER BY a, b) - 1, a, b, ${nowSql} - interval '1 day' * min(t), ${nowSql} - interval '30 days'
     FROM (SELECT least(x.id, p.peer) AS a, greatest(x.id, p.peer) AS b, p.t
           FROM gen_active x
           CROSS JOIN LATERAL (SELECT ${actor('x.id * 16 + j', 53, 1.2)} AS peer, pg_temp.r(x.id * 16 + j, 54) AS t
                               FROM generate_series(0, 9) j) p
           WHERE p.peer <> x.id) c
     GROUP BY a, b`,
  );
  await timed(
    client,
    log,
    'messages',
    `INSERT INTO messages (conversation_id, sender_id, text, created_at)
     SELECT c.id, CASE WHEN m % 2 = 0 THEN c.user_a ELSE c.user_b END,
       (${textArray(MESSAGE_LINES)})[1 + (m + c.id) % ${MESSAGE_LINES.length}],
       c.last_message_at - interval '20 minutes' * (14 - m)
     FROM conversations c CROSS JOIN generate_series(0, 14) m WHERE c.id >= ${K0}`,
  );
  await timed(
    client,
    log,
    'conversation_settings',
    `INSERT INTO conversation_settings (conversation_id, user_id, last_read_at)
     SELECT c.id, u, c.last_message_at - interval '30 minutes'
     FROM conversations c CROSS JOIN LATERAL (VALUES (c.user_a), (c.user_b)) s(u) WHERE c.id >= ${K0}`,
  );
  // 作品数据: the last 30 days of likes, comments and plays per work and day (China's calendar), and new followers.
  await timed(
    client,
    log,
    'video_daily_stats',
    `INSERT INTO video_daily_stats (video_id, day, plays, likes, comments)
     SELECT video_id, day, sum(p)::int, sum(l)::int, sum(c)::int FROM (
       SELECT video_id, (created_at AT TIME ZONE 'Asia/Shanghai')::date AS day, 0 AS p, 1 AS l, 0 AS c FROM likes
       WHERE created_at > ${nowSql} - interval '30 days' AND video_id >= ${V0}
       UNION ALL SELECT video_id, (created_at AT TIME ZONE 'Asia/Shanghai')::date, 0, 0, 1 FROM comments
       WHERE created_at > ${nowSql} - interval '30 days' AND id >= ${C0}
       UNION ALL SELECT video_id, (watched_at AT TIME ZONE 'Asia/Shanghai')::date, 30, 0, 0 FROM watch_history
       WHERE watched_at > ${nowSql} - interval '30 days' AND video_id >= ${V0}
     ) x GROUP BY video_id, day`,
  );
  await timed(
    client,
    log,
    'user_daily_followers',
    `INSERT INTO user_daily_followers (user_id, day, new_followers)
     SELECT followee_id, (created_at AT TIME ZONE 'Asia/Shanghai')::date, count(*)::int FROM follows
     WHERE created_at > ${nowSql} - interval '30 days' AND followee_id >= ${U0}
     GROUP BY 1, 2`,
  );
  // The new users' counters, as recount.ts counts them (works and likes on works not deleted).
  await timed(
    client,
    log,
    'users (counters)',
    `UPDATE users u SET following_count = coalesce(fo.n, 0), follower_count = coalesce(fe.n, 0),
       aweme_count = coalesce(aw.n, 0), total_favorited = coalesce(tf.n, 0), favoriting_count = coalesce(fg.n, 0),
       collect_count = coalesce(co.n, 0)
     FROM generate_series(${U0}, ${U0 + U - 1}) x(id)
     LEFT JOIN (SELECT follower_id AS id, count(*)::int AS n FROM follows GROUP BY 1) fo ON fo.id = x.id
     LEFT JOIN (SELECT followee_id AS id, count(*)::int AS n FROM follows GROUP BY 1) fe ON fe.id = x.id
     LEFT JOIN (SELECT author_id AS id, count(*)::int AS n FROM gen_v WHERE deleted_at IS NULL GROUP BY 1) aw ON aw.id = x.id
     LEFT JOIN (SELECT v.author_id AS id, count(*)::int AS n FROM likes l JOIN gen_v v ON v.id = l.video_id
                WHERE v.deleted_at IS NULL GROUP BY 1) tf ON tf.id = x.id
     LEFT JOIN (SELECT l.user_id AS id, count(*)::int AS n FROM likes l JOIN gen_v v ON v.id = l.video_id
                WHERE v.deleted_at IS NULL GROUP BY 1) fg ON fg.id = x.id
     LEFT JOIN (SELECT c.user_id AS id, count(*)::int AS n FROM collects c JOIN gen_v v ON v.id = c.video_id
                WHERE v.deleted_at IS NULL GROUP BY 1) co ON co.id = x.id
     WHERE u.id = x.id`,
  );

  log('building the indexes again');
  const started = performance.now();
  await client.query('SET max_parallel_maintenance_workers = 2');
  for (const statement of rebuild) await client.query(statement);
  log(`  indexes: ${rebuild.length}, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const table of ['users', 'videos', 'comments', 'conversations']) {
    await client.query(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM ${table}), false)`,
    );
  }
  await client.query(`SET session_replication_role = origin`);
}

/**
 * Recomputes what triggers keep (热度's hours and scores, the channels' counts, the creators' daily sums, 热搜's words) from the rows,
 * for a site generated with triggers off on a schema that has them.
 */
export async function refreshDerived(client: pg.Client): Promise<void> {
  await client.query(`TRUNCATE heat_hourly, video_heat, channel_counts, author_daily_stats, search_heat`);
  await client.query(
    `INSERT INTO author_daily_stats (user_id, day, plays, likes, comments, shares) ${CREATOR_DAYS_SQL}`,
  );
  await client.query(`UPDATE heat_window SET start_hour = heat_hour(now() - interval '7 days')`);
  await client.query(`INSERT INTO heat_hourly (video_id, hour, weight, mass) ${HEAT_HOURS_SQL}`);
  await client.query(`SELECT heat_refresh(array(SELECT DISTINCT video_id FROM heat_hourly ORDER BY video_id))`);
  await client.query(`INSERT INTO channel_counts (channel_id, video_count) ${CHANNEL_COUNTS_SQL}`);
  await client.query(`INSERT INTO search_heat (query, first_id, burst, week) ${SEARCH_HEAT_SQL}`);
}
