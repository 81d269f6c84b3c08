ALTER TABLE "journey_runs" ADD COLUMN "identity" text DEFAULT 'self' NOT NULL;--> statement-breakpoint
ALTER TABLE "journey_runs" ADD COLUMN "compare_run_id" text;--> statement-breakpoint
ALTER TABLE "journey_runs" ADD COLUMN "compare_role" text;--> statement-breakpoint
ALTER TABLE "journey_runs" ADD COLUMN "comparison" jsonb;