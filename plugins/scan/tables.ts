import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core'
import type { ScanReport } from '../../core/engine/scan.ts'

/**
 * Every scan, with its full result and the columns the reads filter and sort on. An auth-required MCP scan is
 * stored as a marker row (authRequired, no result), so it never replaces an earlier measured scan.
 */
export const scans = pgTable(
  'scans',
  {
    id: serial('id').primaryKey(),
    domain: text('domain').notNull(),
    /** The report this result belongs to (plugins/scan/target.ts): `site:<origin>` or `mcp:<MCP URL>`. */
    target: text('target').notNull(),
    url: text('url').notNull(),
    finalUrl: text('final_url'),
    urlKind: text('url_kind', { enum: ['domain', 'mcp', 'mcp-app'] }).notNull(),
    mcpUrl: text('mcp_url'),
    score: integer('score'),
    grade: text('grade'),
    category: text('category'),
    analysisStatus: text('analysis_status', { enum: ['complete', 'partial'] }).notNull(),
    ephemeral: boolean('ephemeral').notNull().default(false),
    authRequired: boolean('auth_required').notNull().default(false),
    scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
    result: jsonb('result').$type<ScanReport>(),
    agenticSummary: text('agentic_summary'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('scans_domain_scanned_idx').on(table.domain, table.scannedAt.desc()),
    index('scans_target_scanned_idx').on(table.target, table.scannedAt.desc()),
    index('scans_category_score_idx').on(table.category, table.score.desc()).where(sql`${table.ephemeral} = false`),
    index('scans_partial_idx').on(table.analysisStatus).where(sql`${table.analysisStatus} = 'partial'`),
    index('scans_ephemeral_idx').on(table.scannedAt).where(sql`${table.ephemeral} = true`),
  ],
)

/** One row per measured, non-ephemeral scan: the score history of a target (and of its domain). */
export const scoreHistory = pgTable(
  'score_history',
  {
    id: serial('id').primaryKey(),
    scanId: integer('scan_id')
      .notNull()
      .references(() => scans.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
    target: text('target').notNull(),
    score: integer('score').notNull(),
    grade: text('grade').notNull(),
    scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('score_history_domain_idx').on(table.domain, table.scannedAt.desc()),
    index('score_history_target_idx').on(table.target, table.scannedAt.desc()),
  ],
)

/** Rows of the gated v2 entry point; v1 reads never see them. */
export const v2Scans = pgTable(
  'v2_scans',
  {
    id: serial('id').primaryKey(),
    domain: text('domain').notNull(),
    url: text('url').notNull(),
    urlKind: text('url_kind', { enum: ['domain', 'mcp', 'mcp-app'] }).notNull(),
    mcpUrl: text('mcp_url'),
    ephemeral: boolean('ephemeral').notNull().default(false),
    status: text('status', { enum: ['pending', 'running', 'complete', 'failed'] })
      .notNull()
      .default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('v2_scans_domain_status_idx').on(table.domain, table.status)],
)
