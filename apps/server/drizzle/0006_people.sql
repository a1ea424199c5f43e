CREATE TABLE "exhibit_item_permissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exhibit_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"manifest_id" text NOT NULL,
	"level" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"to_email" text NOT NULL,
	"user_id" uuid,
	"exhibit_id" uuid,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text,
	"dedupe_key" text,
	"condition" text,
	"state" text DEFAULT 'pending' NOT NULL,
	"not_before" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"exhibit_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"notify" boolean DEFAULT true NOT NULL,
	"notify_hardware_change" boolean DEFAULT false NOT NULL,
	"notify_hardware_notification" boolean DEFAULT false NOT NULL,
	"notify_scene_changes" boolean DEFAULT false NOT NULL,
	"notify_on_delete" boolean DEFAULT true NOT NULL,
	"notify_connected" boolean DEFAULT false NOT NULL,
	"notify_op_mode" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exhibit_item_permissions" ADD CONSTRAINT "exhibit_item_permissions_exhibit_id_exhibits_id_fk" FOREIGN KEY ("exhibit_id") REFERENCES "public"."exhibits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exhibit_item_permissions" ADD CONSTRAINT "exhibit_item_permissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_subscriptions" ADD CONSTRAINT "notification_subscriptions_exhibit_id_exhibits_id_fk" FOREIGN KEY ("exhibit_id") REFERENCES "public"."exhibits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_subscriptions" ADD CONSTRAINT "notification_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "exhibit_item_permissions_key" ON "exhibit_item_permissions" USING btree ("exhibit_id","user_id","kind","manifest_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_outbox_dedupe" ON "mail_outbox" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "mail_outbox_due" ON "mail_outbox" USING btree ("not_before") WHERE state in ('pending', 'sending');--> statement-breakpoint
CREATE UNIQUE INDEX "notification_subscriptions_key" ON "notification_subscriptions" USING btree ("exhibit_id","user_id");