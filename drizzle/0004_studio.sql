CREATE TABLE "uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text DEFAULT 'video' NOT NULL,
	"file_name" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"status" text DEFAULT 'uploading' NOT NULL,
	"reason" text,
	"reason_vars" jsonb,
	"duration_ms" integer,
	"width" integer,
	"height" integer,
	"outputs" jsonb,
	"video_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "uploads_size_check" CHECK ("uploads"."size_bytes" >= 0)
);
--> statement-breakpoint
CREATE TABLE "user_daily_followers" (
	"user_id" integer NOT NULL,
	"day" date NOT NULL,
	"new_followers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "user_daily_followers_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "video_daily_stats" (
	"video_id" integer NOT NULL,
	"day" date NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	"likes" integer DEFAULT 0 NOT NULL,
	"comments" integer DEFAULT 0 NOT NULL,
	"shares" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "video_daily_stats_video_id_day_pk" PRIMARY KEY("video_id","day")
);
--> statement-breakpoint
CREATE TABLE "video_renditions" (
	"video_id" integer NOT NULL,
	"gear" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"bit_rate" integer NOT NULL,
	"path" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	CONSTRAINT "video_renditions_video_id_gear_pk" PRIMARY KEY("video_id","gear")
);
--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "visibility" text DEFAULT 'public' NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "status" text DEFAULT 'published' NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "allow_comments" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "cover_time" double precision;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_daily_followers" ADD CONSTRAINT "user_daily_followers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_daily_stats" ADD CONSTRAINT "video_daily_stats_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_renditions" ADD CONSTRAINT "video_renditions_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uploads_user_idx" ON "uploads" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_video_idx" ON "uploads" USING btree ("video_id");