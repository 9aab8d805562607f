-- migrate: no-transaction
-- Room for the sorts of the builds below (the session's only: this runner's connection ends with the migrations).
SET maintenance_work_mem = '256MB';
--> statement-breakpoint
-- And for the back-fill's sums (two million creator-days at a million videos), which would otherwise spill to disk.
SET work_mem = '256MB';
--> statement-breakpoint
-- The back-fill of what the previous migration's triggers keep, written while the site runs: each difference is read in
-- one snapshot S of the rows, (the definition at S) - (the kept row at S), and added to each kept row. The triggers have
-- counted every write since they were made; those committed before S are in both terms and cancel, those committed
-- after S are kept, and the rows from before the triggers are added once. Run twice, the second adds nothing.
-- 热度's and 作品数据's back-fills each run on a lane of their own (each one process of PostgreSQL's for most of its
-- time: together they take both cores), the channels' counts on the runner's connection.
-- migrate: lane heat
SET work_mem = '256MB';
--> statement-breakpoint
-- migrate: lane heat
-- 热度's hours in the window. The difference is computed in one statement into a table of its own, which PostgreSQL
-- may fill with parallel workers (never a statement that writes to a table already there), and then added.
DROP TABLE IF EXISTS scale_backfill_heat;
--> statement-breakpoint
-- migrate: lane heat
CREATE UNLOGGED TABLE scale_backfill_heat AS
WITH truth AS (
  SELECT a.video_id, heat_hour(a.created_at) AS hour, sum(a.w)::integer AS weight, sum(heat_mass(a.w, a.created_at)) AS mass
  FROM (
    SELECT video_id, created_at, 1 AS w FROM likes
    UNION ALL SELECT video_id, created_at, 3 FROM collects
    UNION ALL SELECT video_id, created_at, 2 FROM comments WHERE deleted_at IS NULL
  ) a
  WHERE a.created_at >= timestamptz '2000-01-01 00:00:00+00' + (SELECT start_hour FROM heat_window WHERE id = 1) * interval '1 hour'
  GROUP BY 1, 2
), diff AS (
  SELECT coalesce(t.video_id, k.video_id) AS video_id, coalesce(t.hour, k.hour) AS hour,
    coalesce(t.weight, 0) - coalesce(k.weight, 0) AS weight, coalesce(t.mass, 0) - coalesce(k.mass, 0) AS mass,
    k.video_id IS NULL AS fresh
  FROM truth t FULL JOIN heat_hourly k ON k.video_id = t.video_id AND k.hour = t.hour
)
SELECT video_id, hour, weight, mass, fresh FROM diff WHERE weight <> 0;
--> statement-breakpoint
-- migrate: lane heat
-- Added in two passes, each in key order, as the triggers write theirs, so that a writer and the back-fill never wait on
-- each other in a circle (a trigger's statement holding a key the back-fill is about to update while it waits for one
-- the back-fill inserted is a deadlock, and the writer's statement would fail). First the keys no row held in the
-- difference's snapshot, with a plain insert (INSERT ... ON CONFLICT's speculative insertion of two million rows took
-- twice as long); should a trigger have inserted one of them since, the plain insert fails and they are left to the
-- second pass instead. Then the keys that had a row (and those), with ON CONFLICT. Differences add, so the two passes
-- may commit apart.
DO $$
BEGIN
  INSERT INTO heat_hourly (video_id, hour, weight, mass)
  SELECT video_id, hour, weight, mass FROM scale_backfill_heat WHERE fresh ORDER BY video_id, hour;
EXCEPTION WHEN unique_violation THEN
  UPDATE scale_backfill_heat SET fresh = false WHERE fresh;
END $$;
--> statement-breakpoint
-- migrate: lane heat
INSERT INTO heat_hourly AS h (video_id, hour, weight, mass)
SELECT video_id, hour, weight, mass FROM scale_backfill_heat WHERE NOT fresh ORDER BY video_id, hour
ON CONFLICT (video_id, hour) DO UPDATE SET weight = h.weight + excluded.weight, mass = h.mass + excluded.mass;
--> statement-breakpoint
-- migrate: lane heat
DROP TABLE scale_backfill_heat;
--> statement-breakpoint
-- migrate: lane heat
-- Hours whose events were all taken back, as heat_merge drops them.
DELETE FROM heat_hourly WHERE weight = 0;
--> statement-breakpoint
-- migrate: lane heat
-- The scores the triggers wrote so far may have been computed from hours still missing the back-fill: none survives.
-- Writers of the tables whose triggers rescore are held for the moment it takes (waiting out those under way, whose
-- scores go too); every score written after it comes from complete hours.
BEGIN;
--> statement-breakpoint
-- migrate: lane heat
LOCK TABLE likes, collects, comments IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
-- migrate: lane heat
DELETE FROM video_heat;
--> statement-breakpoint
-- migrate: lane heat
COMMIT;
--> statement-breakpoint
-- migrate: lane heat
-- 热度's scores, from the hours, in one pass (heat_refresh's formula over every video). A video the triggers rescore
-- meanwhile already has its score from the whole of its hours: it is kept, and one rescored after this pass's row is
-- written overwrites it, so a score is never older than its hours.
DROP TABLE IF EXISTS scale_backfill_heat_scores;
--> statement-breakpoint
-- migrate: lane heat
CREATE UNLOGGED TABLE scale_backfill_heat_scores AS
SELECT h.video_id,
  h.last_hour::float8 / 24 + ln(greatest(sum(h.mass * exp((h.hour - h.last_hour)::float8 / 24)), 1e-300)) AS score,
  h.last_hour
FROM (SELECT video_id, hour, mass, max(hour) OVER (PARTITION BY video_id) AS last_hour
      FROM heat_hourly WHERE hour >= (SELECT start_hour FROM heat_window WHERE id = 1)) h
GROUP BY h.video_id, h.last_hour;
--> statement-breakpoint
-- migrate: lane heat
-- Plain inserts again, the slow way should a trigger score one of the videos meanwhile.
DO $$
BEGIN
  INSERT INTO video_heat (video_id, score, last_hour)
  SELECT s.video_id, s.score, s.last_hour FROM scale_backfill_heat_scores s
  WHERE NOT EXISTS (SELECT 1 FROM video_heat k WHERE k.video_id = s.video_id)
  ORDER BY s.video_id;
EXCEPTION WHEN unique_violation THEN
  INSERT INTO video_heat (video_id, score, last_hour)
  SELECT video_id, score, last_hour FROM scale_backfill_heat_scores ORDER BY video_id
  ON CONFLICT (video_id) DO NOTHING;
END $$;
--> statement-breakpoint
-- migrate: lane heat
DROP TABLE scale_backfill_heat_scores;
--> statement-breakpoint
-- migrate: lane authors
SET work_mem = '256MB';
--> statement-breakpoint
-- migrate: lane authors
-- 作品数据's sums per creator and day, computed and added as 热度's hours are.
DROP TABLE IF EXISTS scale_backfill_authors;
--> statement-breakpoint
-- migrate: lane authors
CREATE UNLOGGED TABLE scale_backfill_authors AS
WITH truth AS (
  SELECT v.author_id AS user_id, s.day, sum(s.plays)::int AS plays, sum(s.likes)::int AS likes,
    sum(s.comments)::int AS comments, sum(s.shares)::int AS shares
  FROM video_daily_stats s JOIN videos v ON v.id = s.video_id AND v.deleted_at IS NULL AND v.status = 'published'
  GROUP BY 1, 2
), diff AS (
  SELECT coalesce(t.user_id, k.user_id) AS user_id, coalesce(t.day, k.day) AS day,
    coalesce(t.plays, 0) - coalesce(k.plays, 0) AS plays, coalesce(t.likes, 0) - coalesce(k.likes, 0) AS likes,
    coalesce(t.comments, 0) - coalesce(k.comments, 0) AS comments, coalesce(t.shares, 0) - coalesce(k.shares, 0) AS shares,
    k.user_id IS NULL AS fresh
  FROM truth t FULL JOIN author_daily_stats k ON k.user_id = t.user_id AND k.day = t.day
)
SELECT user_id, day, plays, likes, comments, shares, fresh FROM diff
WHERE plays <> 0 OR likes <> 0 OR comments <> 0 OR shares <> 0;
--> statement-breakpoint
-- migrate: lane authors
-- Added in two passes in key order, as 热度's hours are.
DO $$
BEGIN
  INSERT INTO author_daily_stats (user_id, day, plays, likes, comments, shares)
  SELECT user_id, day, plays, likes, comments, shares FROM scale_backfill_authors WHERE fresh ORDER BY user_id, day;
EXCEPTION WHEN unique_violation THEN
  UPDATE scale_backfill_authors SET fresh = false WHERE fresh;
END $$;
--> statement-breakpoint
-- migrate: lane authors
INSERT INTO author_daily_stats AS a (user_id, day, plays, likes, comments, shares)
SELECT user_id, day, plays, likes, comments, shares FROM scale_backfill_authors WHERE NOT fresh ORDER BY user_id, day
ON CONFLICT (user_id, day) DO UPDATE SET plays = a.plays + excluded.plays, likes = a.likes + excluded.likes,
  comments = a.comments + excluded.comments, shares = a.shares + excluded.shares;
--> statement-breakpoint
-- migrate: lane authors
DROP TABLE scale_backfill_authors;
--> statement-breakpoint
-- Works everyone may see per channel.
WITH truth AS (
  SELECT channel_id, count(*)::int AS n FROM videos
  WHERE deleted_at IS NULL AND status = 'published' AND visibility = 'public'
  GROUP BY channel_id
), diff AS (
  SELECT coalesce(t.channel_id, k.channel_id) AS channel_id, coalesce(t.n, 0) - coalesce(k.video_count, 0) AS n
  FROM truth t FULL JOIN channel_counts k ON k.channel_id = t.channel_id
)
INSERT INTO channel_counts AS c (channel_id, video_count)
SELECT channel_id, n FROM diff WHERE n <> 0 ORDER BY channel_id
ON CONFLICT (channel_id) DO UPDATE SET video_count = c.video_count + excluded.video_count;
--> statement-breakpoint
-- migrate: join
-- Their references, added once the rows are in (checking each inserted row would triple the back-fill's time). NOT
-- VALID holds writes only for a moment; rows whose video or member went before the reference existed are dropped, and
-- the check of the rest then holds no writer.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'heat_hourly_video_id_videos_id_fk') THEN
    ALTER TABLE heat_hourly ADD CONSTRAINT heat_hourly_video_id_videos_id_fk FOREIGN KEY (video_id)
      REFERENCES public.videos (id) ON DELETE cascade ON UPDATE no action NOT VALID;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'video_heat_video_id_videos_id_fk') THEN
    ALTER TABLE video_heat ADD CONSTRAINT video_heat_video_id_videos_id_fk FOREIGN KEY (video_id)
      REFERENCES public.videos (id) ON DELETE cascade ON UPDATE no action NOT VALID;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = 'author_daily_stats_user_id_users_id_fk') THEN
    ALTER TABLE author_daily_stats ADD CONSTRAINT author_daily_stats_user_id_users_id_fk FOREIGN KEY (user_id)
      REFERENCES public.users (id) ON DELETE cascade ON UPDATE no action NOT VALID;
  END IF;
END $$;
--> statement-breakpoint
DELETE FROM heat_hourly h WHERE NOT EXISTS (SELECT 1 FROM videos v WHERE v.id = h.video_id);
--> statement-breakpoint
DELETE FROM video_heat h WHERE NOT EXISTS (SELECT 1 FROM videos v WHERE v.id = h.video_id);
--> statement-breakpoint
DELETE FROM author_daily_stats a WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = a.user_id);
--> statement-breakpoint
ALTER TABLE heat_hourly VALIDATE CONSTRAINT heat_hourly_video_id_videos_id_fk;
--> statement-breakpoint
ALTER TABLE video_heat VALIDATE CONSTRAINT video_heat_video_id_videos_id_fk;
--> statement-breakpoint
ALTER TABLE author_daily_stats VALIDATE CONSTRAINT author_daily_stats_user_id_users_id_fk;
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "collects_user_time_idx" ON "collects" USING btree ("user_id","created_at","video_id");
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "comments_top_idx" ON "comments" USING btree ("video_id","digg_count","created_at","id") WHERE "comments"."parent_id" is null and "comments"."deleted_at" is null;
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "likes_user_time_idx" ON "likes" USING btree ("user_id","created_at","video_id");
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "notifications_unread_idx" ON "notifications" USING btree ("user_id","created_at") WHERE "notifications"."read_at" is null;
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "video_hashtags_postings_idx" ON "video_hashtags" USING btree ("hashtag_id","video_id");
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "videos_rank_idx" ON "videos" USING btree (video_rank_score("digg_count", "comment_count", "collect_count", "share_count", "play_count", "created_at"),"id") WHERE deleted_at is null and status = 'published' and visibility = 'public';
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "videos_channel_rank_idx" ON "videos" USING btree ("channel_id",video_rank_score("digg_count", "comment_count", "collect_count", "share_count", "play_count", "created_at"),"id") WHERE deleted_at is null and status = 'published' and visibility = 'public';
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "watch_later_user_time_idx" ON "watch_later" USING btree ("user_id","created_at","video_id");
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "follows_follower_time_idx" ON "follows" USING btree ("follower_id","created_at","followee_id");
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "follows_followee_time_idx" ON "follows" USING btree ("followee_id","created_at","follower_id");
--> statement-breakpoint
ANALYZE videos;
