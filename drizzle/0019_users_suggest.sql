-- migrate: no-transaction
-- Built beside a running site: CONCURRENTLY takes no lock that stops sign-ups, follows or the counts they keep.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_nickname_prefix_idx" ON "users" USING btree (lower("nickname") text_pattern_ops);--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "users_followers_idx" ON "users" USING btree ("follower_count" DESC NULLS LAST,"id");
