import type { z } from 'zod'
import { CONTRACT_VERSION } from '../../core/contract.ts'
import type { AppDeps } from '../../core/deps.ts'
import type { Services } from '../../core/root.ts'
import { buildCatalog } from '../../core/engine/catalog.ts'
import { normalizeInput } from '../../core/engine/target.ts'
import { discover } from '../discover/service.ts'
import { VERIFICATION_TTL_MS } from '../feedback/model.ts'
import { leaderboardPage } from '../leaderboard/service.ts'
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../leaderboard/model.ts'
import { MAX_AGE_DEFAULT, type runChecksResultEntry } from '../scan/model.ts'
import { shapeOptions } from '../scan/shapes.ts'
import {
  describeLimit,
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
  SCAN_LIMITS,
  scanDomainInput,
  scanDomainOutput,
  submitCheckFeedbackInput,
  submitCheckFeedbackOutput,
  submitFeedbackInput,
  submitFeedbackOutput,
} from './model.ts'
import { buildJourneyTools } from './journey-tools.ts'
import { defineTool, type ToolDefinition } from './server.ts'

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
export function buildTools(deps: AppDeps, services: Services): ToolDefinition[] {
  const { scans, feedback, verification } = services
  const checkIds = deps.registry.checks.map((check) => check.meta.id) as [string, ...string[]]
  const scoreUrl = (domain: string) => `${deps.config.publicBaseUrl}/api/score/${encodeURIComponent(domain)}?format=audit`

  return [
    defineTool({
      name: 'scan_domain',
      title: 'Scan a website or MCP server',
      description:
        `Scans a domain, an MCP server URL or an MCP App URL for agent readiness and stores the result: score 0-100, grade, per-layer check results and topFixes. A complete stored result younger than maxAgeSeconds (default ${MAX_AGE_DEFAULT} s) is returned instead of scanning (servedFromCache). analysisStatus "partial" means deeper checks still run in the background: poll get_score until "complete". Spends the limits of POST /api/scan (${SCAN_LIMITS}); a scan key in the Authorization header is exempt.`,
      input: scanDomainInput,
      output: scanDomainOutput,
      // Adds a stored scan (earlier ones stay in the history); every live run is a new scan of an outside site.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      failure: 'SCAN_FAILED',
      async run(args, call) {
        await call.enforceLimit('scanBurst')
        const prepared = await scans.prepare(args)
        if (prepared.fresh) {
          const { row, ageSeconds } = prepared.fresh
          return { ...(await scans.render(row, AUDIT, 'scan', { ageSeconds })), scoreUrl: scoreUrl(row.domain) } as z.input<typeof scanDomainOutput>
        }
        const row = await scans.execute(prepared, call.caller)
        return { ...(await scans.render(row, AUDIT, 'scan')), scoreUrl: scoreUrl(row.domain) } as z.input<typeof scanDomainOutput>
      },
    }),
    defineTool({
      name: 'get_score',
      title: 'Read a stored score',
      description:
        `Returns the newest stored scan of a domain (score, grade, layers, topFixes) without scanning. Fails with DOMAIN_NOT_SCANNED (nextAction points at scan_domain / POST /api/scan) when the domain has no score, and with MCP_AUTH_REQUIRED when its MCP server needs authentication. Spends the limit of GET /api/score (${describeLimit('score')} per IP; a scan key is exempt).`,
      input: getScoreInput,
      output: getScoreOutput,
      annotations: OWN_DATA_READ,
      async run(args, call) {
        await call.enforceLimit('score')
        const row = await scans.readScore(normalizeInput(args.domain).domain, { audit: true })
        return (await scans.render(row, AUDIT, 'score')) as z.input<typeof getScoreOutput>
      },
    }),
    defineTool({
      name: 'list_checks',
      title: 'List the checks',
      description:
        'The catalog of every check the scanner runs: id, name, description, scoring layer, maxScore, tier, maturity, which target kinds it applies to, spec link and generic fix advice. Filter by kind or layer. Use the ids with run_checks.',
      input: listChecksInput,
      output: listChecksOutput,
      annotations: OWN_DATA_READ,
      async run(args) {
        const catalog = buildCatalog(deps.registry, { essentials: Boolean(args.essentials) })
        const checks = catalog.checks.filter(
          (check) =>
            (!args.kind || check.appliesTo.includes(args.kind)) && (!args.layer || check.layer === args.layer),
        )
        return { ...catalog, checks } as z.input<typeof listChecksOutput>
      },
    }),
    defineTool({
      name: 'run_checks',
      title: 'Re-run selected checks live',
      description:
        `Runs only the given checks against a target, live and never from cache, to verify a fix; deep checks resolve inline, so no result is pending. Every requested id yields at least one entry; ids that cannot apply to the detected kind yield "na". No aggregate score, and the stored scan is never changed (storedScanUpdated is always false here). Spends the limits of POST /api/scan/checks (${describeLimit('scanBurst')}, and one unit of the daily budget of ${describeLimit('scanDaily')} once the target answered, per IP; a scan key is exempt).`,
      input: runChecksInput(checkIds),
      output: runChecksOutput,
      // Writes nothing of ours: the checks fetch the outside target and the results only go back to the caller.
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      failure: 'SCAN_FAILED',
      async run(args, call) {
        await call.enforceLimit('scanBurst')
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
      title: 'Leaderboard',
      description:
        `Domains ranked by agent-readiness score (their latest complete scan), optionally within one market category and/or scan kind, paged (pageSize 1-${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE}). Ephemeral results are never ranked.`,
      input: getLeaderboardInput,
      output: getLeaderboardOutput,
      annotations: OWN_DATA_READ,
      run: (args) => leaderboardPage(deps.database.db, args),
    }),
    defineTool({
      name: 'discover_products',
      title: 'Discover products for an intent',
      description:
        'Finds scanned products (domains) that match a free-text intent such as "book a train ticket" or "accept card payments", ranked by relevance and agent-readiness score (matchScore x (0.6 + 0.4 x score/100)), with their grade, category and tags. Plain words match any of them; "phrases", -exclusions and or are honoured.',
      input: discoverProductsInput,
      output: discoverProductsOutput,
      annotations: OWN_DATA_READ,
      run: (args) => discover(deps, args),
    }),
    defineTool({
      name: 'get_verification_challenge',
      title: 'Get an agent-verification challenge',
      description: `Returns a reverse challenge (exact transformations over random data: trivial for a program, tedious by hand) and a signed token valid for ${VERIFICATION_TTL_MS / 60_000} minutes. Solve it, then send the token and the answer as verificationToken and verificationAnswer to submit_check_feedback or submit_feedback. Each token is accepted once.`,
      input: getVerificationChallengeInput,
      output: getVerificationChallengeOutput,
      // Issuing stores nothing: the token itself carries the expiry and a MAC of the answer.
      annotations: OWN_DATA_READ,
      run: () => verification.issue(),
    }),
    defineTool({
      name: 'submit_check_feedback',
      title: 'Report a wrong check result',
      description:
        `Reports that one check result of a domain's latest scan is wrong (false_pass, false_fail, wrong_details, outdated, other); the result is snapshotted with the report. Needs agent verification (get_verification_challenge). Fails with NOT_FOUND when the domain has no scan or its latest scan has no result for the check, AGENT_VERIFICATION_FAILED on a wrong, expired or reused token. ${describeLimit('feedback')} per IP, shared with submit_feedback and POST /api/feedback/check.`,
      input: submitCheckFeedbackInput,
      output: submitCheckFeedbackOutput,
      annotations: FEEDBACK_WRITE,
      async run(args, call) {
        await call.enforceLimit('feedback')
        return feedback.submitCheckFeedback({ ...args, reporterType: 'agent' })
      },
    }),
    defineTool({
      name: 'submit_feedback',
      title: 'Report how a task on a domain went',
      description:
        `Stores an agent's report of a task it attempted on a domain: the user intent, what it tried, the outcome, friction points, whether it recommends the product, and per-stage scores 1-5 (discovery, identity, access, payments, experience). Needs agent verification (get_verification_challenge). ${describeLimit('feedback')} per IP, shared with submit_check_feedback and POST /api/feedback/check.`,
      input: submitFeedbackInput,
      output: submitFeedbackOutput,
      annotations: FEEDBACK_WRITE,
      async run(args, call) {
        await call.enforceLimit('feedback')
        return feedback.submitAgentFeedback(args)
      },
    }),
    defineTool({
      name: 'get_feedback',
      title: "Read agents' feedback on a domain",
      description:
        "Agents' reports on a domain, newest first (paged with limit and offset), with statistics over all of them: total, success_rate, recommend_rate, and counts per outcome and recommendation.",
      input: getFeedbackInput,
      output: getFeedbackOutput,
      annotations: OWN_DATA_READ,
      async run(args) {
        const { domain } = normalizeInput(args.domain)
        const page = { limit: args.limit, offset: args.offset }
        const [list, stats] = await Promise.all([feedback.listAgentFeedback(domain, page), feedback.agentFeedbackStats(domain)])
        return { domain, ...list, ...page, stats }
      },
    }),
    ...buildJourneyTools(services),
  ]
}
