CREATE TABLE "audit_chains" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"last_sequence" bigint DEFAULT 0 NOT NULL,
	"last_hash" text NOT NULL,
	"anchor_sequence" bigint DEFAULT 0 NOT NULL,
	"anchor_hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"sequence" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"actor_label" text NOT NULL,
	"address" text,
	"site_id" uuid,
	"exhibit_id" uuid,
	"hardware_id" uuid,
	"resource" text NOT NULL,
	"resource_id" text NOT NULL,
	"action" text NOT NULL,
	"before_json" text,
	"after_json" text,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "audit_entries_chain_idx" ON "audit_entries" USING btree ("organization_id","sequence");--> statement-breakpoint
CREATE INDEX "audit_entries_exhibit_idx" ON "audit_entries" USING btree ("organization_id","exhibit_id","sequence");--> statement-breakpoint
CREATE INDEX "audit_entries_hardware_idx" ON "audit_entries" USING btree ("organization_id","hardware_id","sequence");--> statement-breakpoint
CREATE INDEX "audit_entries_site_idx" ON "audit_entries" USING btree ("organization_id","site_id","sequence");--> statement-breakpoint
CREATE INDEX "audit_entries_at_idx" ON "audit_entries" USING btree ("organization_id","at");--> statement-breakpoint
INSERT INTO "organization_settings" ("organization_id", "id_string", "display", "value", "inherited") SELECT "id", 'audit_retention_days', 'Audit Log Retention (days)', '365', false FROM "organizations" ON CONFLICT ("organization_id", "id_string") DO NOTHING;
