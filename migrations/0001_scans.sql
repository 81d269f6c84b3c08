CREATE TABLE "scans" (
	"id" serial PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"url" text NOT NULL,
	"final_url" text,
	"url_kind" text NOT NULL,
	"mcp_url" text,
	"score" integer,
	"grade" text,
	"category" text,
	"analysis_status" text NOT NULL,
	"ephemeral" boolean DEFAULT false NOT NULL,
	"auth_required" boolean DEFAULT false NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"duration_ms" integer,
	"result" jsonb,
	"agentic_summary" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "score_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"scan_id" integer NOT NULL,
	"domain" text NOT NULL,
	"score" integer NOT NULL,
	"grade" text NOT NULL,
	"scanned_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "v2_scans" (
	"id" serial PRIMARY KEY NOT NULL,
	"domain" text NOT NULL,
	"url" text NOT NULL,
	"url_kind" text NOT NULL,
	"mcp_url" text,
	"ephemeral" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "score_history" ADD CONSTRAINT "score_history_scan_id_scans_id_fk" FOREIGN KEY ("scan_id") REFERENCES "public"."scans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scans_domain_scanned_idx" ON "scans" USING btree ("domain","scanned_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "scans_category_score_idx" ON "scans" USING btree ("category","score" DESC NULLS LAST) WHERE "scans"."ephemeral" = false;--> statement-breakpoint
CREATE INDEX "scans_partial_idx" ON "scans" USING btree ("analysis_status") WHERE "scans"."analysis_status" = 'partial';--> statement-breakpoint
CREATE INDEX "scans_ephemeral_idx" ON "scans" USING btree ("scanned_at") WHERE "scans"."ephemeral" = true;--> statement-breakpoint
CREATE INDEX "score_history_domain_idx" ON "score_history" USING btree ("domain","scanned_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "v2_scans_domain_status_idx" ON "v2_scans" USING btree ("domain","status");