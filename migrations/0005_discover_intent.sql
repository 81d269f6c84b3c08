-- Trigram similarity for discover's near misses (typos); PGlite loads the extension (core/db/index.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
ALTER TABLE "ard_entries" ADD COLUMN "discover_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "ard_entries" ADD COLUMN "discover_search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce("ard_entries"."display_name", '')), 'A') || setweight(to_tsvector('english', coalesce("ard_entries"."category", '') || ' ' || ar_join_words("ard_entries"."tags")), 'B') || setweight(to_tsvector('english', coalesce("ard_entries"."discover_text", '')), 'C') || setweight(to_tsvector('english', coalesce("ard_entries"."description", '') || ' ' || ar_join_words("ard_entries"."representative_queries")), 'D')) STORED;--> statement-breakpoint
-- Entries indexed before the site profile was recorded: their name is what they say about themselves.
UPDATE "ard_entries" SET "discover_text" = "display_name";--> statement-breakpoint
CREATE INDEX "ard_entries_discover_search_idx" ON "ard_entries" USING gin ("discover_search");--> statement-breakpoint
CREATE INDEX "ard_entries_discover_trgm_idx" ON "ard_entries" USING gin ("discover_text" gin_trgm_ops);