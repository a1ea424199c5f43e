CREATE TABLE "auth_throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"last_failure_at" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "hardware" ADD COLUMN "invalid_messages" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "hardware" ADD COLUMN "last_invalid_reason" text;--> statement-breakpoint
ALTER TABLE "hardware" ADD COLUMN "last_invalid_at" timestamp with time zone;