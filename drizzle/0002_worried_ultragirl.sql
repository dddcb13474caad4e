CREATE TABLE "presented_pdfs" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"office_id" integer NOT NULL,
	"application_id" integer NOT NULL,
	"sha256" text NOT NULL,
	"pages" integer NOT NULL,
	"bytes_enc" text NOT NULL,
	"offered_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seal_certificates" (
	"sha256" text PRIMARY KEY NOT NULL,
	"pem" text NOT NULL,
	"subject" text NOT NULL,
	"first_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "decisions" ADD COLUMN "signature" text;--> statement-breakpoint
CREATE INDEX "presented_pdfs_application" ON "presented_pdfs" USING btree ("office_id","application_id");