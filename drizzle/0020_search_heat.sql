CREATE TABLE "search_heat" (
	"query" text PRIMARY KEY NOT NULL,
	"first_id" integer NOT NULL,
	"burst" double precision NOT NULL,
	"week" double precision NOT NULL
);
--> statement-breakpoint
CREATE INDEX "search_heat_burst_idx" ON "search_heat" USING btree ("burst");--> statement-breakpoint
CREATE INDEX "search_heat_week_idx" ON "search_heat" USING btree ("week");--> statement-breakpoint
-- A search's two keys: its time since 2000-01-01 in units of 6 hours (burst) and of 84 hours (week).
CREATE OR REPLACE FUNCTION search_burst_key(t timestamptz) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT extract(epoch from t - timestamptz '2000-01-01 00:00:00+00')::float8 / 21600
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_week_key(t timestamptz) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT extract(epoch from t - timestamptz '2000-01-01 00:00:00+00')::float8 / 302400
$$;
--> statement-breakpoint
-- log2(2^a + 2^b) without leaving float8's range: a key that is 1000 below the other adds nothing it can hold.
CREATE OR REPLACE FUNCTION search_log2_add(a double precision, b double precision) RETURNS double precision LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT greatest(a, b) + ln(1 + power(2::float8, -least(abs(a - b), 1000))) / ln(2::float8)
$$;
--> statement-breakpoint
-- Adds searches (their words, search_log ids and times) to their words' sums: summed per word first, then merged.
CREATE OR REPLACE FUNCTION search_heat_merge(qs text[], ids integer[], ts timestamptz[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO search_heat AS h (query, first_id, burst, week)
  SELECT query, min(id), mb + ln(sum(power(2::float8, greatest(b - mb, -1000)))) / ln(2::float8),
    mw + ln(sum(power(2::float8, greatest(w - mw, -1000)))) / ln(2::float8)
  FROM (
    SELECT query, id, b, w, max(b) OVER (PARTITION BY query) AS mb, max(w) OVER (PARTITION BY query) AS mw
    FROM (
      SELECT query, id, search_burst_key(t) AS b, search_week_key(t) AS w FROM unnest(qs, ids, ts) AS r(query, id, t)
    ) r
  ) x
  GROUP BY query, mb, mw
  ON CONFLICT (query) DO UPDATE SET
    first_id = least(h.first_id, excluded.first_id),
    burst = search_log2_add(h.burst, excluded.burst),
    week = search_log2_add(h.week, excluded.week)
$$;
--> statement-breakpoint
-- Each logging statement adds its searches (one merged row per word per statement).
CREATE OR REPLACE FUNCTION search_heat_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM search_heat_merge(array_agg(query), array_agg(id), array_agg(created_at)) FROM new_rows;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The rows logged before the trigger: the next migration adds them, outside this transaction, so that no search waits
-- for it. Every row logged once the trigger exists has a higher id than this (its insert waits for this lock).
CREATE TABLE search_heat_backfill (upto integer NOT NULL);
--> statement-breakpoint
LOCK TABLE search_log IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
INSERT INTO search_heat_backfill (upto) SELECT coalesce(max(id), 0) FROM search_log;
--> statement-breakpoint
CREATE TRIGGER search_log_heat AFTER INSERT ON search_log REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_heat_add();
