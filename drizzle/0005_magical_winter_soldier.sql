CREATE TABLE "declines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"office_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"session_id" uuid NOT NULL,
	"link_id" uuid,
	"stage" text NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signing_sessions" ADD COLUMN "decline_id" uuid;--> statement-breakpoint
ALTER TABLE "signing_sessions" ADD COLUMN "draft" jsonb;--> statement-breakpoint
CREATE INDEX "declines_application" ON "declines" USING btree ("office_id","application_id","created_at");