import type { z } from 'zod'
import { CONTRACT_VERSION } from '../../core/version.ts'
import type { Kernel } from '../../core/kernel.ts'
import { buildCatalog } from '../../core/engine/catalog.ts'
import { normalizeInput } from '../../core/engine/target.ts'
import type { Discover } from '../discover/public.ts'
import {
  type AgentVerification,
  FEEDBACK_LIMITS,
  type FeedbackService,
  VERIFICATION_TTL_MS,
} from '../feedback/public.ts'
import type { JourneyService } from '../journey/public.ts'
import type { Leaderboard } from '../leaderboard/public.ts'
import {
  type auditScanResult,
  type auditScoreResult,
  type runChecksResultEntry,
  type ScanService,
  assertScanPages,
  SCAN_ERRORS,
  SCAN_LIMITS,
  shapeOptions,
} from '../scan/public.ts'
import {
  discoverProductsInput,
  discoverProductsOutput,
  getFeedbackInput,
  getFeedbackOutput,
  getLeaderboardInput,
  getLeaderboardOutput,
  getScoreInput,
  getScoreOutput,
  getVerificationChallengeInput,
  getVerificationChallengeOutput,
  listChecksInput,
  listChecksOutput,
  runChecksInput,
  runChecksOutput,
  scanDomainInput,
  scanDomainOutput,
  submitCheckFeedbackInput,
  submitCheckFeedbackOutput,
  submitFeedbackInput,
  submitFeedbackOutput,
} from './model.ts'
import { buildJourneyTools } from './journey-tools.ts'
import { defineTool, type ToolDefinition } from './server.ts'
import { summarize } from './summary.ts'

type AuditScan = z.output<typeof auditScanResult>
type AuditScore = z.output<typeof auditScoreResult>

/** Every result of these tools is the audit shape: the versioned one that carries contractVersion. */
const AUDIT = shapeOptions({ format: 'audit' })

/** Reads of our own database: no side effects, nothing outside this service. */
const OWN_DATA_READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
/** A new feedback row per accepted call; nothing existing is changed. Not idempotent: a token is accepted once. */
const FEEDBACK_WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false }

/**
 * The tools of our MCP server. Each one fronts the service behind the matching HTTP route, with the same limits
 * and budgets, so an agent gets exactly what the REST API would give it.
 */
/** The pieces the tools drive, each provided by the kernel or the feature that owns it (app/feature-list.ts). */
export type ToolPieces = Pick<Kernel, 'config' | 'registry'> & {
  scanService: ScanService
  feedbackService: FeedbackService
  verification: AgentVerification
  journeyService: JourneyService
  discover: Discover
  leaderboard: Leaderboard
}

export function buildTools(deps: ToolPieces): ToolDefinition[] {
  const { scanService: scans, feedbackService: feedback, verification } = deps
  const checkIds = deps.registry.checks.map((check) => check.meta.id) as [string, ...string[]]
  const scoreUrl = (domain: string) =>
    `${deps.config.publicBaseUrl}/api/score/${encodeURIComponent(domain)}?format=audit`

  return [
    defineTool({
      name: 'scan_domain',
      description:
        "Scans a site, MCP server or MCP App (or reuses a fresh result). Returns get_score's fields and scoreUrl.",
      input: scanDomainInput,
      output: scanDomainOutput,
      // Adds a stored scan (earlier ones stay in the history); every live run is a new scan of an outside site.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      failure: SCAN_ERRORS.SCAN_FAILED,
      async run(args, call) {
        await call.enforceLimit(SCAN_LIMITS.scanBurst)
        const { detail, ...body } = args
        assertScanPages(body.pages, call.caller)
        const prepared = await scans.prepare(body)
        const fresh = prepared.fresh
        const row = fresh ? fresh.row : await scans.execute(prepared, call.caller)
        const report = (await scans.render(
          row,
          AUDIT,
          'scan',
          fresh ? { ageSeconds: fresh.ageSeconds } : undefined,
        )) as AuditScan
        return {
          ...summarize(report),
          ...(report.servedFromCache
            ? { servedFromCache: true as const, resultAgeSeconds: report.resultAgeSeconds }
            : {}),
          scoreUrl: scoreUrl(row.domain),
          ...(report.pagesIgnored ? { pagesIgnored: report.pagesIgnored } : {}),
          ...(detail === 'full' ? { report } : {}),
        }
      },
    }),
    defineTool({
      name: 'get_score',
      description:
        'Reads a domain\'s stored score: score, grade, analysisStatus, topFixes, failing (costing points), bonusNotMet, reportUrl; detail "full" adds the report.',
      input: getScoreInput,
      output: getScoreOutput,
      annotations: OWN_DATA_READ,
      async run(args, call) {
        await call.enforceLimit(SCAN_LIMITS.score)
        const row = await scans.readScore(normalizeInput(args.domain).domain, { audit: true })
        const report = (await scans.render(row, AUDIT, 'score')) as AuditScore
        return { ...summarize(report), ...(args.detail === 'full' ? { report } : {}) }
      },
    }),
    defineTool({
      name: 'list_checks',
      description: 'Returns the check catalog: id, name, layer, points and fix advice of each check.',
      input: listChecksInput,
      output: listChecksOutput,
      annotations: OWN_DATA_READ,
      async run(args) {
        const catalog = buildCatalog(deps.registry, { essentials: Boolean(args.essentials) })
        const checks = catalog.checks.filter(
          (check) => (!args.kind || check.appliesTo.includes(args.kind)) && (!args.layer || check.layer === args.layer),
        )
        return { ...catalog, checks } as z.input<typeof listChecksOutput>
      },
    }),
    defineTool({
      name: 'run_checks',
      description: "Re-runs chosen checks live to verify a fix. Returns each check's status and details.",
      input: runChecksInput(checkIds),
      output: runChecksOutput,
      // Writes nothing of ours: the checks fetch the outside target and the results only go back to the caller.
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      failure: SCAN_ERRORS.SCAN_FAILED,
      async run(args, call) {
        await call.enforceLimit(SCAN_LIMITS.scanBurst)
        const { report } = await scans.runChecks(args, call.caller, { patch: false })
        return {
          contractVersion: CONTRACT_VERSION,
          domain: report.domain,
          url: report.url,
          urlKind: report.urlKind,
          storedScanUpdated: false,
          // Phase `all` leaves no check pending; the output schema drops the fields a selective run does not report.
          results: report.layers.flatMap((layer) => layer.checks) as z.input<typeof runChecksResultEntry>[],
        }
      },
    }),
    defineTool({
      name: 'get_leaderboard',
      description: 'Returns a page of domains ranked by score, with their grades.',
      input: getLeaderboardInput,
      output: getLeaderboardOutput,
      annotations: OWN_DATA_READ,
      run: (args) => deps.leaderboard(args),
    }),
    defineTool({
      name: 'discover_products',
      description: 'Finds scanned products for a task in plain words. Returns domains ranked by fit and score.',
      input: discoverProductsInput,
      output: discoverProductsOutput,
      annotations: OWN_DATA_READ,
      run: (args) => deps.discover(args),
    }),
    defineTool({
      name: 'get_verification_challenge',
      description: `Returns a challenge and a token; send both with your answer to a feedback tool within ${VERIFICATION_TTL_MS / 60_000} minutes.`,
      input: getVerificationChallengeInput,
      output: getVerificationChallengeOutput,
      // Issuing stores nothing: the token itself carries the expiry and a MAC of the answer.
      annotations: OWN_DATA_READ,
      run: () => verification.issue(),
    }),
    defineTool({
      name: 'submit_check_feedback',
      description: "Reports a wrong check result in a domain's latest scan. Returns the report id.",
      input: submitCheckFeedbackInput,
      output: submitCheckFeedbackOutput,
      annotations: FEEDBACK_WRITE,
      async run(args, call) {
        await call.enforceLimit(FEEDBACK_LIMITS.feedback)
        return feedback.submitCheckFeedback({ ...args, reporterType: 'agent' })
      },
    }),
    defineTool({
      name: 'submit_feedback',
      description: 'Reports how a task you attempted on a domain went. Returns the stored report.',
      input: submitFeedbackInput,
      output: submitFeedbackOutput,
      annotations: FEEDBACK_WRITE,
      async run(args, call) {
        await call.enforceLimit(FEEDBACK_LIMITS.feedback)
        return feedback.submitAgentFeedback(args)
      },
    }),
    defineTool({
      name: 'get_feedback',
      description: "Returns agents' task reports on a domain, with success and recommend rates.",
      input: getFeedbackInput,
      output: getFeedbackOutput,
      annotations: OWN_DATA_READ,
      async run(args) {
        const { domain } = normalizeInput(args.domain)
        const page = { limit: args.limit, offset: args.offset }
        const [list, stats] = await Promise.all([
          feedback.listAgentFeedback(domain, page),
          feedback.agentFeedbackStats(domain),
        ])
        return { domain, ...list, ...page, stats }
      },
    }),
    ...buildJourneyTools(deps),
  ]
}
