-- migrate: no-transaction
-- The authors' newest works with what the personal feed ranks them by, so its follow and author pools read no work's
-- row. Built beside a running site (CONCURRENTLY stops no write to videos; a few seconds at a million works) before the
-- index it replaces goes, so the 关注 feed always has one of the two.
SET maintenance_work_mem = '256MB';
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "videos_author_recent_idx" ON "videos" USING btree ("author_id","created_at","id","channel_id","visibility","digg_count","comment_count","collect_count","share_count","play_count") WHERE "videos"."deleted_at" is null and "videos"."status" = 'published';
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "videos_author_listed_idx";
