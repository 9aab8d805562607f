/**
 * What the database's triggers keep (drizzle/0011_scale_rankings.sql), by definition over the rows, as SQL for a raw
 * client: each a SELECT whose rows are the kept table's. The generated large site rebuilds the kept tables from them,
 * and the migration's test checks the kept tables against them. The migrations spell them out again on purpose: a
 * migration is frozen once applied, these follow the code.
 */

/** 热度's hours (heat_hourly): per video and hour in the window, the events' weight (like 1, comment not deleted 2, collect 3) and mass. */
export const HEAT_HOURS_SQL = `
  SELECT a.video_id, heat_hour(a.created_at) AS hour, sum(a.w)::integer AS weight, sum(heat_mass(a.w, a.created_at)) AS mass
  FROM (
    SELECT video_id, created_at, 1 AS w FROM likes
    UNION ALL SELECT video_id, created_at, 3 FROM collects
    UNION ALL SELECT video_id, created_at, 2 FROM comments WHERE deleted_at IS NULL
  ) a
  WHERE a.created_at >= timestamptz '2000-01-01 00:00:00+00' + (SELECT start_hour FROM heat_window WHERE id = 1) * interval '1 hour'
  GROUP BY 1, 2`;

/** 作品数据's sums per creator and day (author_daily_stats): their published works' daily stats, deleted ones left out. */
export const CREATOR_DAYS_SQL = `
  SELECT v.author_id AS user_id, s.day, sum(s.plays)::int AS plays, sum(s.likes)::int AS likes,
    sum(s.comments)::int AS comments, sum(s.shares)::int AS shares
  FROM video_daily_stats s JOIN videos v ON v.id = s.video_id AND v.deleted_at IS NULL AND v.status = 'published'
  GROUP BY 1, 2`;

/** The works everyone may see per channel (channel_counts). */
export const CHANNEL_COUNTS_SQL = `
  SELECT channel_id, count(*)::int AS video_count FROM videos
  WHERE deleted_at IS NULL AND status = 'published' AND visibility = 'public'
  GROUP BY channel_id`;

/** 热搜's words (search_heat): per searched word, its first search and its two heat keys over every search of it. */
export const SEARCH_HEAT_SQL = `
  SELECT query, min(id) AS first_id, mb + ln(sum(power(2::float8, greatest(b - mb, -1000)))) / ln(2::float8) AS burst,
    mw + ln(sum(power(2::float8, greatest(w - mw, -1000)))) / ln(2::float8) AS week
  FROM (
    SELECT query, id, b, w, max(b) OVER (PARTITION BY query) AS mb, max(w) OVER (PARTITION BY query) AS mw
    FROM (SELECT query, id, search_burst_key(created_at) AS b, search_week_key(created_at) AS w FROM search_log) r
  ) x
  GROUP BY query, mb, mw`;
