CREATE TABLE "journey_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"intent_id" text NOT NULL,
	"custom_intent" text,
	"domain" text NOT NULL,
	"agent_id" text NOT NULL,
	"harness" text NOT NULL,
	"model" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"verdict" jsonb,
	"insight" jsonb,
	"run_signals" jsonb,
	"agent_response" text,
	"usage" jsonb,
	"content_digest" text,
	"trajectory_digest" text,
	"step_count" integer DEFAULT 0 NOT NULL,
	"key_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"error" jsonb,
	"contract_version" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journey_steps" (
	"run_id" text NOT NULL,
	"seq" integer NOT NULL,
	"step" jsonb NOT NULL,
	CONSTRAINT "journey_steps_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
ALTER TABLE "journey_runs" ADD CONSTRAINT "journey_runs_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_steps" ADD CONSTRAINT "journey_steps_run_id_journey_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."journey_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "journey_runs_target_idx" ON "journey_runs" USING btree ("domain","intent_id","harness","model","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "journey_runs_domain_idx" ON "journey_runs" USING btree ("domain","created_at" DESC NULLS LAST);