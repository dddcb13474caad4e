CREATE TABLE "key_checks" (
	"name" text PRIMARY KEY NOT NULL,
	"box" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
