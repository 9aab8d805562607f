-- Character unigrams and bigrams of text, as src/server/services/search-tokens.ts computes them (NFKC, lowercased,
-- runs of letters and digits), so PostgreSQL can fill and backfill token columns itself. The run class names code
-- point ranges instead of [[:alnum:]] so it works in every database locale (C included).
-- IF NOT EXISTS throughout: a database that ran an earlier draft of this migration takes the rest of it.
CREATE OR REPLACE FUNCTION search_tokens_of(input text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT tok), '{}'::text[])
  FROM regexp_split_to_table(
         lower(normalize(input, NFKC)),
         '[^0-9a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u1fff\u2c00-\u2fff\u3005-\u3007\u3021-\u3029\u3031-\u3035\u3038-\u303c\u3041-\u30fa\u30fc-\ud7ff\uf900-\ufdff\ufe70-\ufeff\uff10-\uffef\U00010000-\U0001efff\U00020000-\U0003ffff]+'
       ) AS run,
       LATERAL generate_series(1, char_length(run)) AS i,
       LATERAL (VALUES (substr(run, i, 1)), (CASE WHEN i < char_length(run) THEN substr(run, i, 2) END)) AS t(tok)
  WHERE tok IS NOT NULL
$$;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "search_tokens" text[] GENERATED ALWAYS AS (search_tokens_of(nickname)) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN IF NOT EXISTS "title_tokens" text[] GENERATED ALWAYS AS (search_tokens_of(split_part("desc", ' #', 1))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN IF NOT EXISTS "search_rank" double precision GENERATED ALWAYS AS ((ln(1 + digg_count) + 0.3 * ln(1 + play_count) + extract(epoch from created_at - timestamptz '2000-01-01 00:00:00+00') / 2592000)::float8) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "search_log_query_idx" ON "search_log" USING btree ("query","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "users_search_tokens_idx" ON "users" USING gin ("search_tokens");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "videos_title_tokens_idx" ON "videos" USING gin ("title_tokens");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "videos_search_rank_idx" ON "videos" USING btree ("search_rank" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "videos"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "videos_title_prefix_idx" ON "videos" USING btree (lower(split_part("desc", ' #', 1)) text_pattern_ops) WHERE "videos"."deleted_at" is null;