CREATE TABLE "heat_hourly" (
	"video_id" integer NOT NULL,
	"hour" integer NOT NULL,
	"weight" integer NOT NULL,
	"mass" double precision NOT NULL,
	CONSTRAINT "heat_hourly_video_id_hour_pk" PRIMARY KEY("video_id","hour")
);
--> statement-breakpoint
CREATE TABLE "author_daily_stats" (
	"user_id" integer NOT NULL,
	"day" date NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	"likes" integer DEFAULT 0 NOT NULL,
	"comments" integer DEFAULT 0 NOT NULL,
	"shares" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "author_daily_stats_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "channel_counts" (
	"channel_id" integer PRIMARY KEY NOT NULL,
	"video_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "heat_window" (
	"id" smallint PRIMARY KEY NOT NULL,
	"start_hour" integer NOT NULL,
	CONSTRAINT "heat_window_one_row" CHECK ("heat_window"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "video_heat" (
	"video_id" integer PRIMARY KEY NOT NULL,
	"score" double precision NOT NULL,
	"last_hour" integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX "heat_hourly_hour_idx" ON "heat_hourly" USING btree ("hour");
--> statement-breakpoint
CREATE INDEX "video_heat_score_idx" ON "video_heat" USING btree ("score","video_id");
--> statement-breakpoint
-- Engagement × freshness as one order key that does not move with the clock: ordering by
-- engagement × e^(-age / 3 days) is ordering by ln(engagement) - age / 3 days, and since every work ages alike that is
-- ordering by ln(engagement) + (created - 2000-01-01) / 3 days. Engagement is (likes + 2 comments + 3 collects +
-- shares) / (plays + 50); none of it gives -Infinity, last. Immutable, so an index holds it (videos_rank_idx).
CREATE OR REPLACE FUNCTION video_rank_score(digg integer, comments integer, collects integer, shares integer, plays integer, created timestamptz)
RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN digg::float8 + 2 * comments::float8 + 3 * collects::float8 + shares::float8 <= 0 THEN '-Infinity'::float8
    ELSE ln((digg::float8 + 2 * comments::float8 + 3 * collects::float8 + shares::float8) / (greatest(plays, 0)::float8 + 50))
      + extract(epoch from created - timestamptz '2000-01-01 00:00:00+00')::float8 / 259200 END
$$;
--> statement-breakpoint
-- 热度's hour buckets: hours since 2000-01-01 UTC, and an event's mass within its hour.
CREATE OR REPLACE FUNCTION heat_hour(t timestamptz) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT floor(extract(epoch from t - timestamptz '2000-01-01 00:00:00+00') / 3600)::integer
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION heat_mass(w integer, t timestamptz) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT w * exp((extract(epoch from t - timestamptz '2000-01-01 00:00:00+00')::float8 - heat_hour(t)::float8 * 3600) / 86400)
$$;
--> statement-breakpoint
-- Recomputes the 热度 score of `ids` from their hours in the window (at most 169 rows each); drops those left with none.
-- score = ln Σ mass × e^(hour / 24), computed from the latest hour so nothing overflows. One read of the ids' hours in
-- key order (a window gives each its latest hour), not a lookup per video: the migration's back-fill rescores them all.
CREATE OR REPLACE FUNCTION heat_refresh(ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  first_hour integer := (SELECT start_hour FROM heat_window WHERE id = 1);
BEGIN
  INSERT INTO video_heat (video_id, score, last_hour)
  SELECT h.video_id,
    h.last_hour::float8 / 24 + ln(greatest(sum(h.mass * exp((h.hour - h.last_hour)::float8 / 24)), 1e-300)),
    h.last_hour
  FROM (SELECT video_id, hour, mass, max(hour) OVER (PARTITION BY video_id) AS last_hour
        FROM heat_hourly WHERE video_id = ANY (ids) AND hour >= first_hour) h
  GROUP BY h.video_id, h.last_hour
  ORDER BY h.video_id
  ON CONFLICT (video_id) DO UPDATE SET score = excluded.score, last_hour = excluded.last_hour;
  DELETE FROM video_heat vh WHERE vh.video_id = ANY (ids)
    AND NOT EXISTS (SELECT 1 FROM heat_hourly h WHERE h.video_id = vh.video_id AND h.hour >= first_hour);
END $$;
--> statement-breakpoint
-- Adds events (video, made at, weight; a negative weight takes one back) to their hours and rescores their videos.
-- Events before the window are not counted; hours whose events were all taken back go. An hour may go below zero only
-- while the back-fill (next migration) has not yet added the rows made before these triggers: it is kept, so the
-- back-fill's sum lands on it. Locks in video order.
CREATE OR REPLACE FUNCTION heat_merge(vs integer[], ts timestamptz[], ws integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  first_hour integer := (SELECT start_hour FROM heat_window WHERE id = 1);
  touched integer[];
BEGIN
  WITH d AS (
    SELECT x.v AS video_id, heat_hour(x.t) AS hour, sum(x.w)::integer AS weight, sum(heat_mass(x.w, x.t)) AS mass
    FROM unnest(vs, ts, ws) AS x(v, t, w)
    WHERE heat_hour(x.t) >= first_hour
    GROUP BY 1, 2
    HAVING sum(x.w) <> 0
  ), up AS (
    INSERT INTO heat_hourly (video_id, hour, weight, mass)
    SELECT d.video_id, d.hour, d.weight, d.mass FROM d
    WHERE EXISTS (SELECT 1 FROM videos WHERE videos.id = d.video_id)
    ORDER BY d.video_id, d.hour
    ON CONFLICT (video_id, hour) DO UPDATE
      SET weight = heat_hourly.weight + excluded.weight, mass = heat_hourly.mass + excluded.mass
  )
  SELECT array_agg(DISTINCT d.video_id) INTO touched FROM d;
  IF touched IS NULL THEN RETURN; END IF;
  DELETE FROM heat_hourly WHERE video_id = ANY (touched) AND weight = 0;
  PERFORM heat_refresh(touched);
END $$;
--> statement-breakpoint
-- Moves the window to the hour 7 days before now: drops the hours it passed and rescores their videos. Returns how
-- many videos were rescored; two at once are serialised by the window's row.
CREATE OR REPLACE FUNCTION heat_expire() RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  new_start integer := heat_hour(now() - interval '7 days');
  touched integer[];
BEGIN
  UPDATE heat_window SET start_hour = new_start WHERE id = 1 AND start_hour < new_start;
  IF NOT FOUND THEN RETURN 0; END IF;
  WITH gone AS (DELETE FROM heat_hourly WHERE hour < new_start RETURNING video_id)
  SELECT array_agg(DISTINCT video_id ORDER BY video_id) INTO touched FROM gone;
  IF touched IS NULL THEN RETURN 0; END IF;
  PERFORM heat_refresh(touched);
  RETURN cardinality(touched);
END $$;
--> statement-breakpoint
-- Likes (weight 1) and collects (3): rows added, removed, or re-dated by an upsert.
CREATE OR REPLACE FUNCTION heat_pairs() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  w integer := TG_ARGV[0]::integer;
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM heat_merge(ARRAY[OLD.video_id, NEW.video_id], ARRAY[OLD.created_at, NEW.created_at], ARRAY[-w, w]);
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM heat_merge(array_agg(video_id), array_agg(created_at), array_agg(w)) FROM new_rows;
  ELSE
    PERFORM heat_merge(array_agg(video_id), array_agg(created_at), array_agg(-w)) FROM old_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Comments (weight 2) count while not deleted: added, removed, deleted or restored.
CREATE OR REPLACE FUNCTION heat_comments() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'ROW' THEN
    PERFORM heat_merge(
      ARRAY[OLD.video_id, NEW.video_id],
      ARRAY[OLD.created_at, NEW.created_at],
      ARRAY[CASE WHEN OLD.deleted_at IS NULL THEN -2 ELSE 0 END, CASE WHEN NEW.deleted_at IS NULL THEN 2 ELSE 0 END]);
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM heat_merge(array_agg(video_id), array_agg(created_at), array_agg(2)) FROM new_rows WHERE deleted_at IS NULL;
  ELSE
    PERFORM heat_merge(array_agg(video_id), array_agg(created_at), array_agg(-2)) FROM old_rows WHERE deleted_at IS NULL;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
INSERT INTO heat_window (id, start_hour) VALUES (1, heat_hour(now() - interval '7 days')) ON CONFLICT (id) DO NOTHING;
--> statement-breakpoint
-- From here the triggers keep the derived tables; what the rows held before them is added by the next migration's
-- back-fill, outside this transaction, so that no writer waits for it.
CREATE TRIGGER likes_heat_insert AFTER INSERT ON likes REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION heat_pairs(1);
--> statement-breakpoint
CREATE TRIGGER likes_heat_delete AFTER DELETE ON likes REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION heat_pairs(1);
--> statement-breakpoint
CREATE TRIGGER likes_heat_update AFTER UPDATE ON likes FOR EACH ROW
  WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.video_id <> NEW.video_id) EXECUTE FUNCTION heat_pairs(1);
--> statement-breakpoint
CREATE TRIGGER collects_heat_insert AFTER INSERT ON collects REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION heat_pairs(3);
--> statement-breakpoint
CREATE TRIGGER collects_heat_delete AFTER DELETE ON collects REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION heat_pairs(3);
--> statement-breakpoint
CREATE TRIGGER collects_heat_update AFTER UPDATE ON collects FOR EACH ROW
  WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.video_id <> NEW.video_id) EXECUTE FUNCTION heat_pairs(3);
--> statement-breakpoint
CREATE TRIGGER comments_heat_insert AFTER INSERT ON comments REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION heat_comments();
--> statement-breakpoint
CREATE TRIGGER comments_heat_delete AFTER DELETE ON comments REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION heat_comments();
--> statement-breakpoint
CREATE TRIGGER comments_heat_update AFTER UPDATE ON comments FOR EACH ROW
  WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.video_id <> NEW.video_id)
  EXECUTE FUNCTION heat_comments();
--> statement-breakpoint
-- Works everyone may see per channel, kept as works are published, hidden, deleted or moved.
CREATE OR REPLACE FUNCTION channel_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was boolean := TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL AND OLD.status = 'published' AND OLD.visibility = 'public';
  now_listed boolean := TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL AND NEW.status = 'published' AND NEW.visibility = 'public';
BEGIN
  IF was AND (NOT now_listed OR OLD.channel_id <> NEW.channel_id) THEN
    INSERT INTO channel_counts (channel_id, video_count) VALUES (OLD.channel_id, -1)
    ON CONFLICT (channel_id) DO UPDATE SET video_count = channel_counts.video_count - 1;
  END IF;
  IF now_listed AND (NOT was OR OLD.channel_id <> NEW.channel_id) THEN
    INSERT INTO channel_counts (channel_id, video_count) VALUES (NEW.channel_id, 1)
    ON CONFLICT (channel_id) DO UPDATE SET video_count = channel_counts.video_count + 1;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER videos_channel_counts AFTER INSERT OR DELETE OR UPDATE OF channel_id, deleted_at, status, visibility ON videos
  FOR EACH ROW EXECUTE FUNCTION channel_counts_keep();
--> statement-breakpoint
-- 作品数据 per creator: video_daily_stats summed over each author's published works not deleted, kept as stats are
-- added and as works are published, deleted or restored.
CREATE OR REPLACE FUNCTION author_stats_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO author_daily_stats AS a (user_id, day, plays, likes, comments, shares)
    SELECT v.author_id, d.day, sum(d.plays)::int, sum(d.likes)::int, sum(d.comments)::int, sum(d.shares)::int
    FROM new_rows d JOIN videos v ON v.id = d.video_id AND v.deleted_at IS NULL AND v.status = 'published'
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (user_id, day) DO UPDATE SET plays = a.plays + excluded.plays, likes = a.likes + excluded.likes,
      comments = a.comments + excluded.comments, shares = a.shares + excluded.shares;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO author_daily_stats AS a (user_id, day, plays, likes, comments, shares)
    SELECT v.author_id, d.day, sum(d.plays)::int, sum(d.likes)::int, sum(d.comments)::int, sum(d.shares)::int
    FROM (SELECT video_id, day, plays, likes, comments, shares FROM new_rows
          UNION ALL SELECT video_id, day, -plays, -likes, -comments, -shares FROM old_rows) d
    JOIN videos v ON v.id = d.video_id AND v.deleted_at IS NULL AND v.status = 'published'
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (user_id, day) DO UPDATE SET plays = a.plays + excluded.plays, likes = a.likes + excluded.likes,
      comments = a.comments + excluded.comments, shares = a.shares + excluded.shares;
  ELSE
    INSERT INTO author_daily_stats AS a (user_id, day, plays, likes, comments, shares)
    SELECT v.author_id, o.day, -sum(o.plays)::int, -sum(o.likes)::int, -sum(o.comments)::int, -sum(o.shares)::int
    FROM old_rows o JOIN videos v ON v.id = o.video_id AND v.deleted_at IS NULL AND v.status = 'published'
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (user_id, day) DO UPDATE SET plays = a.plays + excluded.plays, likes = a.likes + excluded.likes,
      comments = a.comments + excluded.comments, shares = a.shares + excluded.shares;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A work that starts or stops counting (published, deleted, restored, given to another author) brings or takes its days.
CREATE OR REPLACE FUNCTION author_stats_work() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.deleted_at IS NULL AND OLD.status = 'published' THEN
    INSERT INTO author_daily_stats AS a (user_id, day, plays, likes, comments, shares)
    SELECT OLD.author_id, s.day, -s.plays, -s.likes, -s.comments, -s.shares FROM video_daily_stats s WHERE s.video_id = OLD.id
    ORDER BY s.day
    ON CONFLICT (user_id, day) DO UPDATE SET plays = a.plays + excluded.plays, likes = a.likes + excluded.likes,
      comments = a.comments + excluded.comments, shares = a.shares + excluded.shares;
  END IF;
  IF NEW.deleted_at IS NULL AND NEW.status = 'published' THEN
    INSERT INTO author_daily_stats AS a (user_id, day, plays, likes, comments, shares)
    SELECT NEW.author_id, s.day, s.plays, s.likes, s.comments, s.shares FROM video_daily_stats s WHERE s.video_id = NEW.id
    ORDER BY s.day
    ON CONFLICT (user_id, day) DO UPDATE SET plays = a.plays + excluded.plays, likes = a.likes + excluded.likes,
      comments = a.comments + excluded.comments, shares = a.shares + excluded.shares;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER video_daily_stats_author_insert AFTER INSERT ON video_daily_stats REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION author_stats_keep();
--> statement-breakpoint
CREATE TRIGGER video_daily_stats_author_update AFTER UPDATE ON video_daily_stats
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION author_stats_keep();
--> statement-breakpoint
CREATE TRIGGER video_daily_stats_author_delete AFTER DELETE ON video_daily_stats REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION author_stats_keep();
--> statement-breakpoint
CREATE TRIGGER videos_author_stats AFTER UPDATE OF deleted_at, status, author_id ON videos FOR EACH ROW
  WHEN ((OLD.deleted_at IS NULL AND OLD.status = 'published') IS DISTINCT FROM (NEW.deleted_at IS NULL AND NEW.status = 'published')
    OR OLD.author_id <> NEW.author_id)
  EXECUTE FUNCTION author_stats_work();
