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
-- Local and private targets (localhost, loopback, private, link-local and shared addresses) are ephemeral from now
-- on, as plugins/scan/target.ts decides for new scans: the ones stored before leave the leaderboard and history.
UPDATE "scans" SET "ephemeral" = true WHERE "ephemeral" = false AND (
  "domain" = 'localhost' OR "domain" LIKE '%.localhost'
  OR CASE WHEN "domain" ~ '^[0-9]+(\.[0-9]+){3}$'
    THEN "domain"::inet <<= ANY (ARRAY['0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.168.0.0/16']::inet[])
    ELSE false END
  OR CASE WHEN "domain" LIKE '[%]' THEN NOT (trim(both '[]' from "domain")::inet <<= '2000::/3'::inet) ELSE false END
);--> statement-breakpoint
DELETE FROM "score_history" WHERE "scan_id" IN (SELECT "id" FROM "scans" WHERE "ephemeral" = true);--> statement-breakpoint
CREATE INDEX "scans_target_scanned_idx" ON "scans" USING btree ("target","scanned_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "score_history_target_idx" ON "score_history" USING btree ("target","scanned_at" DESC NULLS LAST);
