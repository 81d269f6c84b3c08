-- A stored result's identity becomes its target (plugins/scan/target.ts): `site:<origin>` for a website,
-- `mcp:<MCP URL>` for an MCP or MCP App server. Existing rows are keyed from the columns they already have; the
-- stored url is normalised, so its origin is everything before the first path character.
ALTER TABLE "scans" ADD COLUMN "target" text;--> statement-breakpoint
UPDATE "scans" SET "target" = CASE
  WHEN "url_kind" IN ('mcp', 'mcp-app') THEN 'mcp:' || coalesce("mcp_url", "url")
  ELSE 'site:' || substring("url" from '^[a-z][a-z0-9+.-]*://[^/?#]+')
END;--> statement-breakpoint
ALTER TABLE "scans" ALTER COLUMN "target" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "score_history" ADD COLUMN "target" text;--> statement-breakpoint
UPDATE "score_history" SET "target" = "scans"."target" FROM "scans" WHERE "scans"."id" = "score_history"."scan_id";--> statement-breakpoint
ALTER TABLE "score_history" ALTER COLUMN "target" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "scans_target_scanned_idx" ON "scans" USING btree ("target","scanned_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "score_history_target_idx" ON "score_history" USING btree ("target","scanned_at" DESC NULLS LAST);
