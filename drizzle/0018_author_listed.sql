-- migrate: no-transaction
-- Built beside a running site: CONCURRENTLY takes no lock that stops writes to videos (a few seconds at a million works).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "videos_author_listed_idx" ON "videos" USING btree ("author_id","created_at","id") WHERE "videos"."deleted_at" is null and "videos"."status" = 'published';
