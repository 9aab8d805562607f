CREATE TABLE "live_presence" (
	"instance" text NOT NULL,
	"room_id" integer NOT NULL,
	"viewers" integer NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_presence_instance_room_id_pk" PRIMARY KEY("instance","room_id")
);
--> statement-breakpoint
ALTER TABLE "live_presence" ADD CONSTRAINT "live_presence_room_id_live_rooms_id_fk" FOREIGN KEY ("room_id") REFERENCES "public"."live_rooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_presence_seen_idx" ON "live_presence" USING btree ("seen_at");