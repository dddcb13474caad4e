CREATE TABLE "audit_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"office_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"type" text NOT NULL,
	"channel" text,
	"ip" text,
	"user_agent" text,
	"rep" text,
	"session_id" uuid,
	"data" jsonb NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "decisions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"office_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"session_id" uuid NOT NULL,
	"is_accepted" boolean NOT NULL,
	"body" jsonb NOT NULL,
	"ssn_enc" text,
	"ssn_last4" text NOT NULL,
	"decline_reason" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"last_status" integer,
	"merchant_decision_id" integer,
	"response_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "identity_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"office_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"session_id" uuid NOT NULL,
	"question_set_id" text NOT NULL,
	"questions_enc" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deadline_at" timestamp with time zone NOT NULL,
	"outcome" text DEFAULT 'pending' NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "mail_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"transport" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limits" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "rate_limits_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE TABLE "sanitized_html" (
	"raw_hash" text PRIMARY KEY NOT NULL,
	"html" text NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signing_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"office_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"email" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "signing_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"channel" text NOT NULL,
	"link_id" uuid,
	"rep_id" text,
	"office_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"business_name" text NOT NULL,
	"owner_first_name" text DEFAULT '' NOT NULL,
	"owner_last_name" text DEFAULT '' NOT NULL,
	"owner_email" text DEFAULT '' NOT NULL,
	"ip" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"terms_version" text,
	"terms_shown" jsonb,
	"terms_shown_at" timestamp with time zone,
	"consent_at" timestamp with time zone,
	"identity_passed_at" timestamp with time zone,
	"decision_id" uuid,
	"finished_at" timestamp with time zone,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sandbox_acceptance_overrides" (
	"office_id" integer NOT NULL,
	"section" text NOT NULL,
	"override" jsonb NOT NULL,
	CONSTRAINT "sandbox_acceptance_overrides_office_id_section_pk" PRIMARY KEY("office_id","section")
);
--> statement-breakpoint
CREATE TABLE "sandbox_applications" (
	"id" integer PRIMARY KEY NOT NULL,
	"office_id" integer NOT NULL,
	"scenario" text DEFAULT 'ordinary' NOT NULL,
	"document" json NOT NULL,
	"owner_ssns" jsonb NOT NULL,
	"submitted" json NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_counters" (
	"name" text PRIMARY KEY NOT NULL,
	"value" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_decisions" (
	"id" integer PRIMARY KEY NOT NULL,
	"office_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"is_accepted" boolean NOT NULL,
	"body" json NOT NULL,
	"ssn_sha256" text NOT NULL,
	"ssn_last4" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_faults" (
	"operation" text PRIMARY KEY NOT NULL,
	"status" integer,
	"latency_ms" integer,
	"hang" boolean DEFAULT false NOT NULL,
	"body" text,
	"content_type" text
);
--> statement-breakpoint
CREATE TABLE "sandbox_question_sets" (
	"id" text PRIMARY KEY NOT NULL,
	"office_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"questions" jsonb NOT NULL,
	"answers" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"answered_at" timestamp with time zone,
	"outcome" text
);
--> statement-breakpoint
CREATE TABLE "sandbox_requests" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"operation" text,
	"status" integer,
	"at" timestamp with time zone NOT NULL,
	"duration_ms" integer
);
--> statement-breakpoint
CREATE TABLE "sandbox_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "audit_events_chain" ON "audit_events" USING btree ("office_id","application_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "decisions_application" ON "decisions" USING btree ("office_id","application_id");--> statement-breakpoint
CREATE INDEX "decisions_due" ON "decisions" USING btree ("next_attempt_at") WHERE "decisions"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "identity_attempts_application" ON "identity_attempts" USING btree ("office_id","application_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "signing_links_token_hash" ON "signing_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "signing_links_application" ON "signing_links" USING btree ("office_id","application_id");--> statement-breakpoint
CREATE UNIQUE INDEX "signing_sessions_token_hash" ON "signing_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "signing_sessions_application" ON "signing_sessions" USING btree ("office_id","application_id");--> statement-breakpoint
CREATE INDEX "sandbox_applications_office" ON "sandbox_applications" USING btree ("office_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_decisions_application" ON "sandbox_decisions" USING btree ("office_id","application_id");--> statement-breakpoint
CREATE INDEX "sandbox_question_sets_application" ON "sandbox_question_sets" USING btree ("office_id","application_id");--> statement-breakpoint
CREATE INDEX "sandbox_requests_path" ON "sandbox_requests" USING btree ("path","id");