CREATE TABLE "in_person_handovers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"rep_session_id" uuid NOT NULL,
	"rep_id" uuid NOT NULL,
	"signing_session_id" uuid NOT NULL,
	"office_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_at" timestamp with time zone,
	"lock_reason" text,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "in_person_handovers" ADD CONSTRAINT "in_person_handovers_rep_session_id_rep_sessions_id_fk" FOREIGN KEY ("rep_session_id") REFERENCES "public"."rep_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "in_person_handovers" ADD CONSTRAINT "in_person_handovers_rep_id_reps_id_fk" FOREIGN KEY ("rep_id") REFERENCES "public"."reps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "in_person_handovers_token_hash" ON "in_person_handovers" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "in_person_handovers_rep_session" ON "in_person_handovers" USING btree ("rep_session_id") WHERE "in_person_handovers"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "in_person_handovers_signing_session" ON "in_person_handovers" USING btree ("signing_session_id");