CREATE TABLE "scheduled_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exhibit_id" uuid NOT NULL,
	"recurring_id" uuid,
	"name" text NOT NULL,
	"start_date" timestamp with time zone NOT NULL,
	"end_date" timestamp with time zone,
	"recurring" boolean DEFAULT false NOT NULL,
	"frequency" jsonb,
	"recurring_start_date" timestamp with time zone,
	"recurring_end_date" timestamp with time zone,
	"changes" jsonb NOT NULL,
	"state" text DEFAULT 'scheduled' NOT NULL,
	"end_state" text DEFAULT 'none' NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ran_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scheduled_events" ADD CONSTRAINT "scheduled_events_exhibit_id_exhibits_id_fk" FOREIGN KEY ("exhibit_id") REFERENCES "public"."exhibits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scheduled_events_exhibit_start" ON "scheduled_events" USING btree ("exhibit_id","start_date");--> statement-breakpoint
CREATE INDEX "scheduled_events_series" ON "scheduled_events" USING btree ("recurring_id");--> statement-breakpoint
CREATE INDEX "scheduled_events_due" ON "scheduled_events" USING btree ("start_date") WHERE state in ('scheduled', 'running');--> statement-breakpoint
CREATE INDEX "scheduled_events_end_due" ON "scheduled_events" USING btree ("end_date") WHERE end_state in ('pending', 'restoring');--> statement-breakpoint
INSERT INTO "site_settings" ("site_id", "id_string", "display", "value")
SELECT "id", 'site_time_zone', 'Schedule Time Zone', '' FROM "sites"
WHERE NOT EXISTS (SELECT 1 FROM "site_settings" s WHERE s."site_id" = "sites"."id" AND s."id_string" = 'site_time_zone');
