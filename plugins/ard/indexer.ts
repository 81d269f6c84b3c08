import { sql } from 'drizzle-orm'
import { mcpEndpointsEvidence } from '../../core/engine/evidence.ts'
import { profileText } from '../../core/engine/collectors/site-profile.ts'
import { CATEGORIES, type CategorySlug, isCategorySlug } from '../../core/engine/lib/categories.ts'
import type { CheckRegistry } from '../../core/engine/registry.ts'
import type { ScanReport } from '../../core/engine/scan.ts'
import type { CheckResult } from '../../core/engine/scoring.ts'
import type { ScanRow, ScanStoredListener } from '../scan/public.ts'
import { ARD_MEDIA, type ArdConfig, ardIdentifier } from './identity.ts'
import { ardEntries } from './tables.ts'

/** The ARD index, kept in step with the scans table: what a stored scan says about its domain, as an entry. */

type IndexableScan = ScanRow & { result: ScanReport; score: number; grade: string }
type EntryValues = typeof ardEntries.$inferInsert
type McpEndpoint = { url: string; source: string }

/** Only measured, published results enter: ephemeral results are disposable, auth markers carry no score. */
function isIndexable(row: ScanRow): row is IndexableScan {
  return !row.ephemeral && !row.authRequired && row.result !== null && row.score !== null && row.grade !== null
}

/**
 * The scan repository's listener that upserts the index entry of a stored scan (a no-op for scans that never
 * enter the index). It runs inside the transaction that writes the scan, so the index never disagrees with the
 * scans table; the composition root registers it (core/deps.ts).
 */
export function ardIndexer(config: ArdConfig, registry: Pick<CheckRegistry, 'checks'>): ScanStoredListener {
  const entryPointChecks = registry.checks.filter((check) => check.meta.agentEntryPoint).map((check) => check.meta.id)
  return async (tx, row) => {
    if (!isIndexable(row)) return
    const values = entryValues(row, config, entryPointChecks)
    const { domain: _domain, ...changes } = values
    await tx
      .insert(ardEntries)
      .values(values)
      .onConflictDoUpdate({
        target: ardEntries.domain,
        set: changes,
        // An older scan finished late (the worker resolving it after a newer scan was stored) must not replace
        // the newer entry: the entry follows the newest measured scan, ties broken by scan id.
        setWhere: sql`(coalesce(${ardEntries.checkedAt}, '-infinity'::timestamptz), coalesce(${ardEntries.scanId}, 0)) <= (excluded.checked_at, excluded.scan_id)`,
      })
  }
}

const KIND_NOUNS: Record<ScanReport['urlKind'], string> = {
  domain: 'website',
  mcp: 'MCP server',
  'mcp-app': 'MCP App server',
}
const KIND_TAGS: Record<ScanReport['urlKind'], string> = { domain: 'website', mcp: 'mcp-server', 'mcp-app': 'mcp-app' }

/** One typical need per market category, phrased as an agent's user would: the seed of representativeQueries. */
const CATEGORY_QUERIES: Record<CategorySlug, string> = {
  'ecommerce-retail': 'buy products online with delivery',
  'developer-tools': 'developer tools, SDKs and APIs for building software',
  'ai-ml': 'AI models and machine learning services',
  'payments-fintech': 'accept payments and manage money',
  'saas-productivity': 'project management and team productivity software',
  'media-publishing': 'read the latest news and articles',
  'travel-hospitality': 'book flights, hotels and travel',
  education: 'take online courses and learn new skills',
  'health-wellness': 'health, fitness and wellness services',
  'marketing-analytics': 'marketing campaigns and analytics',
  'security-identity': 'secure logins, identity and account protection',
  'cloud-infrastructure': 'host, deploy and scale applications in the cloud',
  'jobs-hr': 'find jobs and hire talent',
  'real-estate': 'find homes to buy or rent',
  'gaming-entertainment': 'games, movies and music streaming',
}

function categoryName(slug: string | null): string | null {
  return CATEGORIES.find((category) => category.slug === slug)?.name ?? null
}

/** `entryPointChecks`: ids of the checks whose pass is worth a tag (metadata `agentEntryPoint`), in catalog order. */
function entryValues(row: IndexableScan, config: ArdConfig, entryPointChecks: readonly string[]): EntryValues {
  const report = row.result
  const checks = report.layers.flatMap((layer) => layer.checks)
  const mcpEndpoints = mcpEndpointsOf(report, checks)
  const displayName = report.name.trim() || row.domain
  const category = categoryName(report.category)
  const kind = category ? `${category} ${KIND_NOUNS[report.urlKind]}` : KIND_NOUNS[report.urlKind]
  // The report carries no description of the site: a factual sentence from what the scan established, plus
  // the one-sentence verdict once the background analysis wrote it.
  const description = [
    `${displayName}: ${kind} at ${row.domain}.`,
    `Agent readiness ${row.score}/100, grade ${row.grade}.`,
    row.agenticSummary,
  ]
    .filter(Boolean)
    .join(' ')
  return {
    domain: row.domain,
    identifier: ardIdentifier(config, row.domain),
    displayName,
    description,
    // The artefact an agent would fetch: an MCP server when the scan found one, else the website itself.
    type: mcpEndpoints.length > 0 ? ARD_MEDIA.serverCard : ARD_MEDIA.website,
    url: report.url,
    category: report.category,
    tags: tagsOf(report, checks, row.grade, mcpEndpoints.length > 0, entryPointChecks),
    representativeQueries: representativeQueries(report, displayName, mcpEndpoints.length > 0),
    // What the product says about itself, for discover: its name and the scan's profile of its own pages.
    discoverText: [displayName, profileText(report.profile)].filter(Boolean).join('\n'),
    mcpEndpoints,
    publisherId: row.domain,
    score: row.score,
    grade: row.grade,
    scanId: row.id,
    checkedAt: row.scannedAt,
    updatedAt: new Date(),
  }
}

/**
 * MCP endpoints the scan found answering: the scanned MCP URL, endpoints MCP checks ran against, and the endpoints
 * any check reported as typed evidence (a domain scan records advertised and blind-probed endpoints only there).
 */
function mcpEndpointsOf(report: ScanReport, checks: CheckResult[]): McpEndpoint[] {
  const found = new Map<string, string>()
  const add = (url: string, source: string) => {
    if (!found.has(url) && URL.canParse(url) && /^https?:$/.test(new URL(url).protocol)) found.set(url, source)
  }
  if (report.mcpUrl) add(report.mcpUrl, 'scan')
  if (report.urlKind !== 'domain') add(report.url, 'scan')
  for (const check of checks) if (check.mcpUrl) add(check.mcpUrl, 'scan')
  for (const check of checks) {
    // Stored results are plain JSON: the evidence is parsed again rather than trusted.
    const evidence = mcpEndpointsEvidence.safeParse(check.evidence)
    if (evidence.success) for (const endpoint of evidence.data.mcpEndpoints) add(endpoint.url, endpoint.source)
  }
  return [...found].map(([url, source]) => ({ url, source }))
}

function tagsOf(
  report: ScanReport,
  checks: CheckResult[],
  grade: string,
  hasMcp: boolean,
  entryPointChecks: readonly string[],
): string[] {
  const passing = new Set(checks.filter((check) => check.status === 'pass').map((check) => check.id))
  const tags = [
    report.category,
    KIND_TAGS[report.urlKind],
    hasMcp ? 'mcp' : null,
    // A+ and A share a band: the letter is what people filter on.
    `grade-${grade.replace('+', '').toLowerCase()}`,
    ...entryPointChecks.filter((id) => passing.has(id)),
  ]
  return [...new Set(tags.filter((tag): tag is string => Boolean(tag)))]
}

/** 2-3 queries (ARD asks for 2-5): the category's typical need, the name with what it is, and MCP access. */
function representativeQueries(report: ScanReport, displayName: string, hasMcp: boolean): string[] {
  const category = report.category && isCategorySlug(report.category) ? report.category : null
  const what = (categoryName(category) ?? KIND_NOUNS[report.urlKind]).toLowerCase()
  return [
    category ? CATEGORY_QUERIES[category] : `services offered by ${displayName}`,
    `${displayName} ${what}`,
    ...(hasMcp ? [`connect an AI agent to ${displayName} over MCP`] : []),
  ]
}
