CREATE TABLE "rep_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"rep_id" uuid NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "reps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"office_id" integer NOT NULL,
	"rep_no" integer NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"password_hash" text NOT NULL,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"password_changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signing_sessions" ADD COLUMN "rep_no" integer;--> statement-breakpoint
ALTER TABLE "rep_sessions" ADD CONSTRAINT "rep_sessions_rep_id_reps_id_fk" FOREIGN KEY ("rep_id") REFERENCES "public"."reps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "rep_sessions_token_hash" ON "rep_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "rep_sessions_rep" ON "rep_sessions" USING btree ("rep_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reps_email" ON "reps" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "reps_office_rep_no" ON "reps" USING btree ("office_id","rep_no") WHERE "reps"."disabled_at" is null;