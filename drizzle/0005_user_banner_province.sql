ALTER TABLE "users" ADD COLUMN "banner" text DEFAULT 'banners/profile-00.svg' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "ip_province" text DEFAULT '' NOT NULL;