CREATE TABLE "server_nodes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exhibits" ADD COLUMN "held_by" uuid;--> statement-breakpoint
CREATE INDEX "exhibits_held_by_idx" ON "exhibits" USING btree ("held_by");