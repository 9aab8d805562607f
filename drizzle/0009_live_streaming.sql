CREATE TABLE "live_hosts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"key_hash" text,
	"key_created_at" timestamp with time zone,
	"title" text DEFAULT '' NOT NULL,
	"cover" text DEFAULT '' NOT NULL,
	"channel_id" integer DEFAULT 300201 NOT NULL,
	"record" boolean DEFAULT false NOT NULL,
	"refusal" text,
	"refusal_vars" jsonb,
	"refused_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "live_rooms" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "live_rooms" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "live_rooms" ADD COLUMN "like_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "live_rooms" ADD COLUMN "replay_video_id" integer;--> statement-breakpoint
ALTER TABLE "live_rooms" ADD COLUMN "recording" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "live_rooms" ADD COLUMN "origin" text;--> statement-breakpoint
ALTER TABLE "live_rooms" ADD COLUMN "ingest" jsonb;--> statement-breakpoint
ALTER TABLE "live_rooms" ADD COLUMN "thumb" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "room_id" integer;--> statement-breakpoint
ALTER TABLE "live_hosts" ADD CONSTRAINT "live_hosts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "live_rooms" ADD CONSTRAINT "live_rooms_replay_video_id_videos_id_fk" FOREIGN KEY ("replay_video_id") REFERENCES "public"."videos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_room_id_live_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."live_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_rooms_host_idx" ON "live_rooms" USING btree ("host_id","started_at");--> statement-breakpoint
-- Before real broadcasts, no room could be on air: rooms an existing site shows as live become past broadcasts.
UPDATE "live_rooms" SET "status" = 'ended', "ended_at" = "started_at" + interval '1 hour' WHERE "status" = 'live';--> statement-breakpoint
CREATE UNIQUE INDEX "live_rooms_one_live_idx" ON "live_rooms" USING btree ("host_id") WHERE "live_rooms"."status" = 'live';