-- The one store of logs and report events, partitioned by day on "at" (docs/architecture.md, "Logs
-- and reports"). drizzle-kit cannot declare partitions: the PARTITION BY clauses, the function and
-- the copy of the old tables are written by hand.
CREATE TABLE "log_entries" (
	"id" bigserial NOT NULL,
	"source" text NOT NULL,
	"device_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"level" text NOT NULL,
	"event_type" text NOT NULL,
	"message" text NOT NULL
) PARTITION BY RANGE ("at");
--> statement-breakpoint
CREATE TABLE "report_events" (
	"id" bigserial NOT NULL,
	"source" text NOT NULL,
	"device_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"name" text NOT NULL,
	"value" text
) PARTITION BY RANGE ("at");
--> statement-breakpoint
CREATE INDEX "log_entries_device_idx" ON "log_entries" USING btree ("device_id","at","id");--> statement-breakpoint
CREATE INDEX "report_events_device_idx" ON "report_events" USING btree ("device_id","at");--> statement-breakpoint
-- One day's partition of log_entries or report_events (UTC days), created when missing. Nodes may
-- ask at the same time: the advisory lock makes the check and the create one step.
CREATE FUNCTION plinth_day_partition(parent text, day date) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	name text := parent || '_p' || to_char(day, 'YYYYMMDD');
BEGIN
	IF parent NOT IN ('log_entries', 'report_events') THEN
		RAISE EXCEPTION 'not a partitioned log table: %', parent;
	END IF;
	PERFORM pg_advisory_xact_lock(72110003);
	IF to_regclass(name) IS NULL THEN
		EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)', name, parent,
			(day::timestamp AT TIME ZONE 'UTC'), ((day + 1)::timestamp AT TIME ZONE 'UTC'));
	END IF;
	RETURN name;
END $$;
--> statement-breakpoint
SELECT plinth_day_partition('log_entries', d) FROM (SELECT DISTINCT (at AT TIME ZONE 'UTC')::date AS d FROM exhibit_logs) days;--> statement-breakpoint
INSERT INTO "log_entries" ("source", "device_id", "at", "level", "event_type", "message")
	SELECT 'exhibit', exhibit_id, at, level, level, message FROM exhibit_logs ORDER BY at, created_at;--> statement-breakpoint
SELECT plinth_day_partition('report_events', d) FROM (SELECT DISTINCT (at AT TIME ZONE 'UTC')::date AS d FROM exhibit_report_events) days;--> statement-breakpoint
INSERT INTO "report_events" ("source", "device_id", "at", "name", "value")
	SELECT 'exhibit', exhibit_id, at, name,
		CASE jsonb_typeof(data)
			WHEN 'string' THEN data #>> '{}'
			WHEN 'number' THEN data #>> '{}'
			WHEN 'boolean' THEN data #>> '{}'
			WHEN 'object' THEN data ->> 'value'
		END
	FROM exhibit_report_events ORDER BY at, created_at;--> statement-breakpoint
DROP TABLE "exhibit_logs";--> statement-breakpoint
DROP TABLE "exhibit_report_events";
--> statement-breakpoint
CREATE TABLE "live_log_leases" (
	"source" text NOT NULL,
	"device_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "live_log_leases_source_device_id_user_id_pk" PRIMARY KEY("source","device_id","user_id")
);
--> statement-breakpoint
CREATE INDEX "live_log_leases_expires_idx" ON "live_log_leases" USING btree ("expires_at");