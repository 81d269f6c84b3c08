CREATE TABLE "api_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"tier" text NOT NULL,
	"hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash_idx" ON "api_keys" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "api_keys_tier_idx" ON "api_keys" USING btree ("tier");