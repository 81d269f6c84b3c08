CREATE TABLE "ard_entries" (
	"domain" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"display_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"url" text NOT NULL,
	"category" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"representative_queries" text[] DEFAULT '{}'::text[] NOT NULL,
	"mcp_endpoints" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"publisher_id" text NOT NULL,
	"score" integer,
	"grade" text,
	"scan_id" integer,
	"checked_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce("ard_entries"."display_name", '')), 'A') || setweight(to_tsvector('english', coalesce("ard_entries"."category", '') || ' ' || ar_join_words("ard_entries"."tags")), 'B') || setweight(to_tsvector('english', coalesce("ard_entries"."description", '') || ' ' || ar_join_words("ard_entries"."representative_queries")), 'C')) STORED
);
--> statement-breakpoint
CREATE TABLE "agent_feedback" (
	"id" serial PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"agent_id" text NOT NULL,
	"user_intent" text NOT NULL,
	"task_description" text NOT NULL,
	"outcome" text NOT NULL,
	"content" text NOT NULL,
	"friction_points" text[] NOT NULL,
	"recommendation" text NOT NULL,
	"layer_scores" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "check_feedback" (
	"id" serial PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"check_id" text NOT NULL,
	"reason" text NOT NULL,
	"message" text NOT NULL,
	"reporter_type" text NOT NULL,
	"reporter_email" text,
	"agent_id" text,
	"scan_id" integer,
	"snapshot" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"to" text NOT NULL,
	"reply_to" text,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "ard_entries_search_idx" ON "ard_entries" USING gin ("search");--> statement-breakpoint
CREATE INDEX "ard_entries_category_idx" ON "ard_entries" USING btree ("category");--> statement-breakpoint
CREATE INDEX "ard_entries_updated_idx" ON "ard_entries" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "agent_feedback_domain_idx" ON "agent_feedback" USING btree ("domain","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "check_feedback_domain_idx" ON "check_feedback" USING btree ("domain","check_id");--> statement-breakpoint
CREATE INDEX "outbox_status_idx" ON "outbox" USING btree ("status","created_at");