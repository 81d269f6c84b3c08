import { Elysia } from 'elysia'
import type { z } from 'zod'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import { SCAN_CONFIG, type ScanConfig } from './config.ts'
import { ScanRepository } from './repository.ts'
import { ScanService } from './service.ts'
import { V2ScanService } from './v2.ts'
import { ScanWorker } from './worker.ts'
import { deprecationHeaders } from '../../core/deprecations.ts'
import { CONTRACT_VERSION } from '../../core/version.ts'
import { DEPRECATION_HEADERS, eventStreamResponses, STREAM_HEADERS, wire } from '../../core/openapi.ts'
import { normalizeInput } from '../../core/engine/target.ts'
import { AppError, errorResponse } from '../../core/errors.ts'
import { SCAN_ERRORS } from './errors.ts'
import { sseResponse } from '../../core/sse.ts'
import {
  auditScanResult,
  auditScoreResult,
  commonQuery,
  mcpAuthRequiredResponse,
  notScannedResponse,
  runChecksBody,
  runChecksResponse,
  scanBody,
  scanResult,
  scoreQuery,
  streamQuery,
  v2ScanBody,
  v2ScanResponse,
  v2ScanRow,
  v2ScanRowSchema,
} from './model.ts'
import { shapeOptions } from './shapes.ts'
import { describeIpLimit } from '../../core/limits.ts'
import { assertScanPages, SCAN_LIMITS } from './limits.ts'
import { cacheLifetime, publicCache } from '../../core/caching.ts'

/** A complete stored score changes only with the next scan of its domain. */
const SCORE_CACHE_SECONDS = 3600

const isForced = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true'

type ScanNeeds = Pick<
  KernelPieces,
  'context' | 'registry' | 'outbound' | 'browser' | 'store' | 'log' | 'database' | 'readCache' | 'jobs'
> & { config: ScanConfig }
type ScanProvides = { scans: ScanRepository; scanService: ScanService; v2ScanService: V2ScanService }

export function scanPlugin(deps: ScanNeeds & ScanProvides) {
  const { context, scanService: service, v2ScanService: v2 } = deps
  const render = service.render.bind(service)

  return new Elysia({ name: 'scan' })
    .use(context)
    .post(
      '/api/scan',
      async ({ body, query, caller, set }) => {
        const options = shapeOptions(query, body.siteType)
        assertScanPages(body.pages, caller)
        const prepared = await service.prepare({ ...body, force: isForced(body.force) })
        Object.assign(set.headers, deprecationHeaders('POST /api/scan'))
        if (prepared.fresh) {
          const { row, ageSeconds } = prepared.fresh
          set.headers.age = String(ageSeconds)
          set.headers['cache-control'] = 'no-store'
          return render(row, options, 'scan', { ageSeconds })
        }
        const row = await service.execute(prepared, caller)
        set.headers['cache-control'] = 'no-store'
        if (row.analysisStatus === 'partial') {
          set.status = 202
          set.headers.location = `${deps.config.publicBaseUrl}/api/score/${encodeURIComponent(row.domain)}`
        }
        return render(row, options, 'scan')
      },
      {
        limit: SCAN_LIMITS.scanBurst,
        parse: 'json',
        body: scanBody,
        query: commonQuery,
        response: {
          200: scanResult.or(auditScanResult),
          202: scanResult.or(auditScanResult),
          400: errorResponse,
          422: mcpAuthRequiredResponse,
          429: errorResponse,
          500: errorResponse,
        },
        detail: {
          tags: ['Scan'],
          summary: 'Scan a domain, an MCP server or an MCP App server',
          description: `Returns a complete stored result younger than \`maxAgeSeconds\` without scanning (\`servedFromCache\`, \`resultAgeSeconds\`, \`Age\` header; no budget spent). Otherwise scans live: 200 when complete, 202 with \`Location\` (the score URL to poll) while rendered checks run in the background. \`force\` always scans. \`ephemeral\` stores a disposable result (400 \`EPHEMERAL_CLOBBER\` when the domain has a real stored scan); public tunnel hosts and local or private targets (\`localhost\`, loopback and private addresses, any port) are always ephemeral. Results are kept per target: a website by its origin (scheme, host, port), an MCP or MCP App server by its MCP URL; the audit shape's \`url\` is that target's report page (\`/site/{host[:port]}\` or \`/mcp/{URL-encoded MCP URL}\`). 422 \`MCP_AUTH_REQUIRED\` when the MCP server needs authentication (no score; an earlier measured scan is kept). Limits: ${SCAN_LIMITS.scanBurst.limit}/min burst, ${SCAN_LIMITS.scanDaily.limit} scans per rolling 24 h, ${SCAN_LIMITS.scanForced.limit} forced per 24 h, per IP; scan keys are exempt.`,
          security: [{ bearerKey: [] }, {}],
          ...wire({
            answers: {
              200: ['Cache-Control', 'Age', ...DEPRECATION_HEADERS],
              202: ['Cache-Control', 'Location', ...DEPRECATION_HEADERS],
            },
          }),
        },
      },
    )
    .get(
      '/api/scan/stream',
      async ({ query, request, caller }) => {
        if (!query.domain?.trim()) {
          throw new AppError('VALIDATION_FAILED', {
            message: 'Query parameter `domain` is required',
            details: { in: 'query', issues: [{ path: 'domain', message: 'required' }] },
          })
        }
        const options = shapeOptions(query)
        const forced = isForced(query.force)
        assertScanPages(query.pages, caller, 'query')
        const prepared = await service.prepare({
          ...(query.pages !== undefined ? { pages: query.pages } : {}),
          url: query.domain,
          mcpUrl: query.mcp || undefined,
          maxAgeSeconds: query.maxAgeSeconds,
          force: forced,
          ephemeral: query.ephemeral === '1' || query.ephemeral === 'true',
        })
        if (!prepared.fresh) await service.checkBudget(caller, forced)
        const headers: Record<string, string> = { ...deprecationHeaders('GET /api/scan/stream') }
        if (prepared.fresh) headers.age = String(prepared.fresh.ageSeconds)

        return sseResponse(request, headers, (channel) => service.stream(prepared, caller, options, channel))
      },
      {
        limit: SCAN_LIMITS.scanBurst,
        query: streamQuery,
        detail: {
          tags: ['Scan'],
          summary: 'Scan with live progress (Server-Sent Events)',
          description:
            'Frames are `data:` lines holding JSON with a `type`: kind_detecting, kind_detected (once, before any check_start), discovery_phase, scan_init (possibly twice; the later is authoritative), check_start / check_complete per check, layer_complete, scan_complete ({ result }), relevance_assessed and summary_ready (after scan_complete, when the background analysis finishes while the stream is open), error (terminal; MCP_AUTH_REQUIRED ends the stream this way). A freshness hit is kind_detected then scan_complete with servedFromCache and an `Age` header. Comment heartbeats every 15 s. Read until the stream closes.',
          responses: eventStreamResponses(),
          ...wire({
            requiredQuery: ['domain'],
            answers: {
              200: [...STREAM_HEADERS, 'Age', ...DEPRECATION_HEADERS],
              400: {
                description:
                  '`domain` missing or blank (`VALIDATION_FAILED`), not a valid domain (`INVALID_DOMAIN`), or `EPHEMERAL_CLOBBER`',
              },
            },
          }),
        },
      },
    )
    .post(
      '/api/scan/checks',
      async ({ body, caller, can }) => {
        const checkIds = [...new Set(body.checkIds)]
        if (checkIds.length > deps.registry.size) {
          throw new AppError('VALIDATION_FAILED', {
            message: `At most ${deps.registry.size} check ids`,
            details: { in: 'body', issues: [{ path: 'checkIds', message: 'too many ids' }] },
          })
        }
        const unknown = checkIds.filter((id) => !deps.registry.has(id))
        if (unknown.length > 0) {
          throw new AppError('UNKNOWN_CHECK_IDS', {
            message: `Unknown check ids: ${unknown.join(', ')}`,
            details: { unknownIds: unknown },
          })
        }
        const { report, storedScanUpdated, storedScanNote } = await service.runChecks({ ...body, checkIds }, caller, {
          patch: can('patch-stored-scan'),
        })
        const results = report.layers.flatMap((layer) => layer.checks)
        return {
          contractVersion: CONTRACT_VERSION,
          domain: report.domain,
          url: report.url,
          urlKind: report.urlKind,
          storedScanUpdated,
          ...(storedScanNote ? { storedScanNote } : {}),
          results: results.map((result) => ({
            id: result.id,
            name: result.name,
            status: result.status as 'pass' | 'fail' | 'warning' | 'na' | 'error',
            score: result.score,
            maxScore: result.maxScore,
            details: result.details,
            ...(result.recommendation ? { recommendation: result.recommendation } : {}),
            ...(result.naReason ? { naReason: result.naReason } : {}),
            ...(result.mcpKind ? { mcpKind: result.mcpKind as 'product' | 'docs' | 'other' | 'app' } : {}),
            ...(result.mcpUrl ? { mcpUrl: result.mcpUrl } : {}),
            ...(result.pages ? { pages: result.pages } : {}),
          })),
        }
      },
      {
        limit: SCAN_LIMITS.scanBurst,
        parse: 'json',
        body: runChecksBody,
        response: {
          200: runChecksResponse,
          400: errorResponse,
          422: mcpAuthRequiredResponse,
          429: errorResponse,
          500: errorResponse,
        },
        detail: {
          tags: ['Scan'],
          summary: 'Re-run selected checks live (verify a fix)',
          description:
            'Always live, never from cache, synchronous (rendered checks included; never `pending`). Every requested id yields at least one entry; ids that cannot apply to the detected kind yield `na`. 400 `UNKNOWN_CHECK_IDS` lists offending ids in `details.unknownIds`. Spends one unit of the daily budget after the target is probed and classified. A scan key patches the results into the stored scan and re-scores it (`storedScanUpdated: true`) when that scan measured the same target: the detected kind, the normalized URL and the MCP endpoint (pinned `mcpUrl`) all match. Otherwise the stored scan is left as it was, `storedScanUpdated` is false and `storedScanNote` says why. Keyless runs are stateless. No aggregate score is returned.',
          security: [{ bearerKey: [] }, {}],
        },
      },
    )
    .get(
      '/api/score/:domain',
      async ({ params, query, request }) => {
        const { domain } = normalizeInput(params.domain, { allowLocal: deps.config.scanner.allowPrivate })
        const options = shapeOptions(query)
        const epoch = deps.readCache.epoch()
        const row = await service.readScore(domain, { audit: options.audit, mcpUrl: query.mcp })
        // Partial results are polled, stuck and ephemeral ones must not be cached anywhere.
        const cacheable = !row.ephemeral && row.analysisStatus === 'complete'
        const headers = {
          ...deprecationHeaders('GET /api/score/:domain'),
          'content-type': 'application/json; charset=utf-8',
          'cache-control': cacheable ? publicCache(SCORE_CACHE_SECONDS) : 'no-store',
        }
        const body = JSON.stringify(await render(row, options, 'score'))
        // Competitor rows move with other domains' scans, so only reads about this domain alone are cached.
        if (cacheable && !options.competitors) deps.readCache.put(request, domain, epoch, { body, headers })
        // A prebuilt Response: the body is already serialised, so it skips response validation.
        return new Response(body, { headers })
      },
      {
        limit: SCAN_LIMITS.score,
        cachedRead: true,
        query: scoreQuery,
        response: {
          200: scanResult.or(auditScoreResult),
          400: errorResponse,
          404: notScannedResponse,
          422: mcpAuthRequiredResponse,
          429: errorResponse,
          500: errorResponse,
        },
        detail: {
          tags: ['Scan'],
          summary: 'Read the stored score of a domain',
          description: `Read-only; never starts a scan. Returns the newest measured scan (a URL-encoded full URL is normalised to its hostname); with \`mcp\`, the newest of that MCP server of the domain, which is stored apart from the domain's website. A partial result older than 30 minutes reads as \`stuck\` with \`next_action\` (\`nextAction\` under \`format=audit\`): a POST /api/scan body naming the same target (\`url\`; \`mcpUrl\` for an MCP or MCP App result; \`ephemeral\` for an ephemeral one), so following it rescans what was stored. 404 \`DOMAIN_NOT_SCANNED\` with \`next_action\`. 422 when the only stored result is an auth-required MCP marker. Cached ${cacheLifetime(SCORE_CACHE_SECONDS)}; partial, stuck and ephemeral results and 404s are \`no-store\`. ${describeIpLimit(SCAN_LIMITS.score)}.`,
          ...wire({ answers: { 200: ['Cache-Control', ...DEPRECATION_HEADERS] } }),
        },
      },
    )
    .post(
      '/api/v2/scan',
      async ({ body, caller, set }) => {
        const { row, created } = await v2.start(body, caller)
        if (created) set.status = 201
        return { scanId: row.id, status: row.status, pollUrl: `/api/v2/scan/${row.id}` }
      },
      {
        limit: SCAN_LIMITS.scanBurst,
        parse: 'json',
        body: v2ScanBody,
        response: {
          200: v2ScanResponse,
          201: v2ScanResponse,
          400: errorResponse,
          422: errorResponse,
          429: errorResponse,
          503: errorResponse,
        },
        detail: {
          tags: ['Scan (v2, gated)'],
          summary: 'Create an asynchronous scan row (gated rollout)',
          description:
            'Validates, probes and classifies the target, then returns the in-progress row for the domain (200) or inserts a `pending` row (201). 503 when V2_SCAN_ENABLED is off; 422 when the target is unreachable or cannot be classified. Same limits and daily budget as the v1 scan routes. The later pipeline stages are not connected: rows stay `pending`. Callers should not rely on this entry.',
        },
      },
    )
    .get(
      '/api/v2/scan/:id',
      async ({ params }) => {
        const row = await v2.poll(params.id)
        return {
          scanId: row.id,
          status: row.status,
          domain: row.domain,
          url: row.url,
          urlKind: row.urlKind,
          createdAt: row.createdAt.toISOString(),
          updatedAt: row.updatedAt.toISOString(),
        } satisfies z.input<typeof v2ScanRow>
      },
      {
        detail: {
          tags: ['Scan (v2, gated)'],
          summary: 'Poll a v2 scan row (the target of `pollUrl`)',
          responses: {
            200: {
              description: 'The row: `{ scanId, status, domain, url, urlKind, createdAt, updatedAt }`',
              content: { 'application/json': { schema: v2ScanRowSchema } },
            },
          },
          ...wire({
            answers: {
              404: { description: 'No v2 scan with that id (`NOT_FOUND`)' },
              503: { description: 'V2_SCAN_ENABLED is off (`V2_SCAN_DISABLED`)' },
            },
          }),
        },
      },
    )
}

/** Scans and stored results: the scans table, the services the routes, MCP tools and pages drive, and the worker. */
export const scanFeature = defineFeature<ScanNeeds, ScanProvides>()({
  name: 'scan',
  needs: ['context', 'config', 'registry', 'outbound', 'browser', 'store', 'log', 'database', 'readCache', 'jobs'],
  provides: ['scans', 'scanService', 'v2ScanService'],
  limits: SCAN_LIMITS,
  configKeys: SCAN_CONFIG,
  provide: (deps) => {
    const scans = new ScanRepository(deps.database.db)
    return { scans, scanService: new ScanService({ ...deps, scans }), v2ScanService: new V2ScanService(deps) }
  },
  routes: scanPlugin,
  background: (deps) => {
    const worker = new ScanWorker(deps)
    return [{ start: () => worker.start(deps.config.workerConcurrency), stop: () => worker.stop() }]
  },
  errors: { codes: SCAN_ERRORS },
})
