CREATE TABLE "link_reminders" (
	"link_id" uuid PRIMARY KEY NOT NULL,
	"office_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"to" text NOT NULL,
	"business" text NOT NULL,
	"rep" jsonb,
	"url_enc" text,
	"expires_at" timestamp with time zone NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"office_id" integer,
	"application_id" integer,
	"kind" text NOT NULL,
	"link_id" uuid,
	"to" text,
	"reply_to" text,
	"subject" text NOT NULL,
	"body_enc" text,
	"data" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"transport" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"last_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
DROP TABLE "mail_messages" CASCADE;--> statement-breakpoint
CREATE INDEX "link_reminders_due" ON "link_reminders" USING btree ("next_at") WHERE "link_reminders"."next_at" is not null;--> statement-breakpoint
CREATE INDEX "link_reminders_application" ON "link_reminders" USING btree ("office_id","application_id");--> statement-breakpoint
CREATE INDEX "mail_outbox_due" ON "mail_outbox" USING btree ("next_attempt_at") WHERE "mail_outbox"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "mail_outbox_application" ON "mail_outbox" USING btree ("office_id","application_id","created_at");