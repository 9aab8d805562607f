-- migrate: no-transaction
-- Room for the sorts of the builds below (the session's only: this runner's connection ends with the migrations).
SET maintenance_work_mem = '256MB';
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
