-- migrate: no-transaction
-- Built beside a running site: CONCURRENTLY takes no lock that stops writes to videos (a few seconds at a million works).
CREATE INDEX CONCURRENTLY IF NOT EXISTS "videos_facts_idx" ON "videos" USING btree ("id","channel_id","author_id","duration_ms");
