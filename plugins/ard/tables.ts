import { sql, type SQL } from 'drizzle-orm'
import { customType, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

const tsvector = customType<{ data: string }>({
  dataType: () => 'tsvector',
})

/**
 * The ARD index: one entry per domain with a measured, non-ephemeral scan, kept in step with the scans table.
 * `search` is a generated tsvector (weighted: name A, tags and category B, description and queries C) behind a
 * GIN index, so discover and ARD search rank with PostgreSQL full-text search on PostgreSQL and PGlite alike.
 */
export const ardEntries = pgTable(
  'ard_entries',
  {
    domain: text('domain').primaryKey(),
    /** Domain-anchored URN: urn:air:<service host>:scorecard:<domain>. */
    identifier: text('identifier').notNull(),
    displayName: text('display_name').notNull(),
    description: text('description').notNull().default(''),
    /** Entry media type (ARD `type`): the site's own AI catalog / MCP server card, or a plain website. */
    type: text('type').notNull(),
    url: text('url').notNull(),
    category: text('category'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    representativeQueries: text('representative_queries').array().notNull().default(sql`'{}'::text[]`),
    mcpEndpoints: jsonb('mcp_endpoints').$type<{ url: string; source: string }[]>().notNull().default([]),
    publisherId: text('publisher_id').notNull(),
    score: integer('score'),
    grade: text('grade'),
    scanId: integer('scan_id'),
    checkedAt: timestamp('checked_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * What the product says about itself (plugins/discover): its name and the scan's SiteProfile (title,
     * descriptions, Open Graph, structured data of the organization, products and offers, headings, llms.txt
     * summary), as indexed text. Not part of the ARD record.
     */
    discoverText: text('discover_text').notNull().default(''),
    search: tsvector('search').generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(${ardEntries.displayName}, '')), 'A') || setweight(to_tsvector('english', coalesce(${ardEntries.category}, '') || ' ' || ar_join_words(${ardEntries.tags})), 'B') || setweight(to_tsvector('english', coalesce(${ardEntries.description}, '') || ' ' || ar_join_words(${ardEntries.representativeQueries})), 'C')`,
    ),
    /**
     * Discover's vector, English stemming: name A, category and tags B, the product's own words C, the
     * scanner's description and representative queries D. ARD search keeps `search`, so its answers are unchanged.
     */
    discoverSearch: tsvector('discover_search').generatedAlwaysAs(
      (): SQL =>
        sql`setweight(to_tsvector('english', coalesce(${ardEntries.displayName}, '')), 'A') || setweight(to_tsvector('english', coalesce(${ardEntries.category}, '') || ' ' || ar_join_words(${ardEntries.tags})), 'B') || setweight(to_tsvector('english', coalesce(${ardEntries.discoverText}, '')), 'C') || setweight(to_tsvector('english', coalesce(${ardEntries.description}, '') || ' ' || ar_join_words(${ardEntries.representativeQueries})), 'D')`,
    ),
  },
  (table) => [
    index('ard_entries_search_idx').using('gin', table.search),
    index('ard_entries_discover_search_idx').using('gin', table.discoverSearch),
    // Near misses (typos): pg_trgm word similarity against the product's own words.
    index('ard_entries_discover_trgm_idx').using('gin', table.discoverText.op('gin_trgm_ops')),
    index('ard_entries_category_idx').on(table.category),
    index('ard_entries_updated_idx').on(table.updatedAt),
  ],
)
