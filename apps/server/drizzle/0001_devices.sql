CREATE TABLE "firmware" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"hardware_id" uuid NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"file_name" text NOT NULL,
	"file_size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"is_plinth_firmware" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"hardware_id" uuid NOT NULL,
	"firmware_id" uuid,
	"is_plinth_firmware" boolean NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"correlation_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "hardware_connection_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"hardware_id" uuid NOT NULL,
	"online" boolean NOT NULL,
	"reason" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exhibit_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exhibit_id" uuid NOT NULL,
	"online" boolean NOT NULL,
	"token_id" uuid,
	"remote_address" text,
	"reason" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exhibit_control_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"control_id" uuid NOT NULL,
	"manifest_id" text NOT NULL,
	"display" text NOT NULL,
	"order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exhibit_controls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exhibit_id" uuid NOT NULL,
	"manifest_id" text NOT NULL,
	"type" text NOT NULL,
	"display" text NOT NULL,
	"enabled_op_mode" text DEFAULT 'none' NOT NULL,
	"order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exhibit_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exhibit_id" uuid NOT NULL,
	"level" text NOT NULL,
	"message" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exhibit_manifests" (
	"exhibit_id" uuid PRIMARY KEY NOT NULL,
	"manifest" jsonb NOT NULL,
	"structure_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exhibit_report_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exhibit_id" uuid NOT NULL,
	"name" text NOT NULL,
	"data" jsonb,
	"at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exhibit_setting_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exhibit_id" uuid NOT NULL,
	"manifest_id" text NOT NULL,
	"parent_manifest_id" text,
	"group_display" text NOT NULL,
	"order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exhibit_setting_list_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"list_id" uuid NOT NULL,
	"list_name" text NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"values" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"applied_version" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exhibit_setting_lists" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exhibit_id" uuid NOT NULL,
	"manifest_id" text NOT NULL,
	"group_manifest_id" text,
	"list_display" text NOT NULL,
	"enabled_op_mode" text DEFAULT 'none' NOT NULL,
	"order" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exhibit_settings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exhibit_id" uuid NOT NULL,
	"manifest_id" text NOT NULL,
	"list_manifest_id" text DEFAULT '' NOT NULL,
	"group_manifest_id" text,
	"type" text NOT NULL,
	"display" text NOT NULL,
	"definition" jsonb NOT NULL,
	"default_value" jsonb,
	"value" jsonb,
	"version" integer DEFAULT 1 NOT NULL,
	"applied_version" integer DEFAULT 0 NOT NULL,
	"enabled_op_mode" text DEFAULT 'none' NOT NULL,
	"order" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exhibit_statuses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exhibit_id" uuid NOT NULL,
	"manifest_id" text NOT NULL,
	"type" text NOT NULL,
	"display" text NOT NULL,
	"default_value" jsonb,
	"value" jsonb,
	"order" integer DEFAULT 0 NOT NULL,
	"value_updated_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "firmware" ADD CONSTRAINT "firmware_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_history" ADD CONSTRAINT "firmware_history_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "firmware_history" ADD CONSTRAINT "firmware_history_firmware_id_firmware_id_fk" FOREIGN KEY ("firmware_id") REFERENCES "public"."firmware"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hardware_connection_history" ADD CONSTRAINT "hardware_connection_history_hardware_id_hardware_id_fk" FOREIGN KEY ("hardware_id") REFERENCES "public"."hardware"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibit_connections" ADD CONSTRAINT "exhibit_connections_exhibit_id_exhibits_id_fk" FOREIGN KEY ("exhibit_id") REFERENCES "public"."exhibits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibit_connections" ADD CONSTRAINT "exhibit_connections_token_id_exhibit_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."exhibit_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibit_control_items" ADD CONSTRAINT "exhibit_control_items_control_id_exhibit_controls_id_fk" FOREIGN KEY ("control_id") REFERENCES "public"."exhibit_controls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibit_controls" ADD CONSTRAINT "exhibit_controls_exhibit_id_exhibits_id_fk" FOREIGN KEY ("exhibit_id") REFERENCES "public"."exhibits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibit_logs" ADD CONSTRAINT "exhibit_logs_exhibit_id_exhibits_id_fk" FOREIGN KEY ("exhibit_id") REFERENCES "public"."exhibits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibit_manifests" ADD CONSTRAINT "exhibit_manifests_exhibit_id_exhibits_id_fk" FOREIGN KEY ("exhibit_id") REFERENCES "public"."exhibits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibit_report_events" ADD CONSTRAINT "exhibit_report_events_exhibit_id_exhibits_id_fk" FOREIGN KEY ("exhibit_id") REFERENCES "public"."exhibits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibit_setting_groups" ADD CONSTRAINT "exhibit_setting_groups_exhibit_id_exhibits_id_fk" FOREIGN KEY ("exhibit_id") REFERENCES "public"."exhibits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibit_setting_list_items" ADD CONSTRAINT "exhibit_setting_list_items_list_id_exhibit_setting_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."exhibit_setting_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibit_setting_lists" ADD CONSTRAINT "exhibit_setting_lists_exhibit_id_exhibits_id_fk" FOREIGN KEY ("exhibit_id") REFERENCES "public"."exhibits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibit_settings" ADD CONSTRAINT "exhibit_settings_exhibit_id_exhibits_id_fk" FOREIGN KEY ("exhibit_id") REFERENCES "public"."exhibits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibit_statuses" ADD CONSTRAINT "exhibit_statuses_exhibit_id_exhibits_id_fk" FOREIGN KEY ("exhibit_id") REFERENCES "public"."exhibits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "firmware_hardware_idx" ON "firmware" USING btree ("hardware_id");--> statement-breakpoint
CREATE INDEX "firmware_history_hardware_idx" ON "firmware_history" USING btree ("hardware_id");--> statement-breakpoint
CREATE INDEX "firmware_history_correlation_idx" ON "firmware_history" USING btree ("correlation_id");--> statement-breakpoint
CREATE INDEX "hardware_connection_history_hw_idx" ON "hardware_connection_history" USING btree ("hardware_id","at");--> statement-breakpoint
CREATE INDEX "exhibit_connections_exhibit_idx" ON "exhibit_connections" USING btree ("exhibit_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "exhibit_control_items_key" ON "exhibit_control_items" USING btree ("control_id","manifest_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exhibit_controls_key" ON "exhibit_controls" USING btree ("exhibit_id","manifest_id");--> statement-breakpoint
CREATE INDEX "exhibit_logs_exhibit_idx" ON "exhibit_logs" USING btree ("exhibit_id","at");--> statement-breakpoint
CREATE INDEX "exhibit_report_events_exhibit_idx" ON "exhibit_report_events" USING btree ("exhibit_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "exhibit_setting_groups_key" ON "exhibit_setting_groups" USING btree ("exhibit_id","manifest_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exhibit_setting_list_items_key" ON "exhibit_setting_list_items" USING btree ("list_id","list_name");--> statement-breakpoint
CREATE UNIQUE INDEX "exhibit_setting_lists_key" ON "exhibit_setting_lists" USING btree ("exhibit_id","manifest_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exhibit_settings_key" ON "exhibit_settings" USING btree ("exhibit_id","list_manifest_id","manifest_id");--> statement-breakpoint
CREATE UNIQUE INDEX "exhibit_statuses_key" ON "exhibit_statuses" USING btree ("exhibit_id","manifest_id");