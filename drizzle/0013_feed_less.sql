CREATE TABLE "feed_less" (
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"target_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feed_less_user_id_kind_target_id_pk" PRIMARY KEY("user_id","kind","target_id"),
	CONSTRAINT "feed_less_kind_check" CHECK ("feed_less"."kind" in ('channel', 'author'))
);
--> statement-breakpoint
ALTER TABLE "feed_less" ADD CONSTRAINT "feed_less_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;