import { html } from '@elysiajs/html'
import { Elysia } from 'elysia'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import { buildCatalog } from '../../core/engine/catalog.ts'
import { normalizeInput } from '../../core/engine/target.ts'
import { AppError } from '../../core/errors.ts'
import type { Leaderboard } from '../leaderboard/public.ts'
import type { JourneyRepository, JourneyService } from '../journey/public.ts'
import type { Toolbox } from '../mcp/public.ts'
import { assetAt } from './assets.ts'
import { reportMarkdown } from './markdown.ts'
import { checksPageQuery, journeyForm, leaderboardPageQuery, recheckForm, recheckToken, scanForm } from './model.ts'
import { ApiPage } from './pages/api.tsx'
import { ChecksPage } from './pages/checks.tsx'
import { ErrorPage } from './pages/error.tsx'
import { HomePage } from './pages/home.tsx'
import { journeyPath, JourneyRunPage, JourneysPage } from './pages/journeys.tsx'
import { LeaderboardPage } from './pages/leaderboard.tsx'
import { AuthRequiredPage, FROM_CACHE, NotScannedPage, ReportPage } from './pages/report.tsx'
import {
  mcpKey,
  mcpReportPath,
  reportPathFor,
  type ScanRepository,
  type ScanRow,
  type ScanService,
  siteKey,
  siteReportPath,
  type TargetKey,
} from '../scan/public.ts'
import { ScanError } from '../../core/engine/scan-error.ts'
import type { Caller } from '../../core/limits.ts'
import { JOURNEY_LIMITS } from '../journey/public.ts'
import { LEADERBOARD_LIMITS } from '../leaderboard/public.ts'
import { SCAN_ERRORS, SCAN_LIMITS } from '../scan/public.ts'
import type { ReportView } from './service.ts'
import { HTML_TYPE, newNonce, pageHeaders } from './respond.ts'
import { WebService } from './service.ts'
import { aiTxt, llmsTxt, robotsTxt, sitemapXml } from './site-files.ts'
import { SKILL_PATH, skillMarkdown, SKILLS_INDEX_PATH, skillsIndex } from './skills.ts'
import {
  API_CATALOG_PATH,
  API_CATALOG_TYPE,
  apiCatalog,
  HOME_MARKDOWN_PATH,
  homeLinkHeader,
  homeMarkdown,
  llmsFullTxt,
  PUBLIC_CORS,
} from './discovery.ts'

/** Pages are for people and crawlers; programs have the documented API, so none of this is in /openapi.json. */
const hidden = { hide: true }

const MARKDOWN_TYPE = 'text/markdown; charset=utf-8'

/** The report's Markdown alternate is chosen by a `.md` suffix or by asking for text/markdown over HTML. */
function wantsMarkdown(accept: string | null): boolean {
  const types = (accept ?? '').toLowerCase()
  const markdown = types.indexOf('text/markdown')
  if (markdown === -1) return false
  const page = types.indexOf('text/html')
  return page === -1 || markdown < page
}

interface ReportRequest {
  view: ReportView
  query: Record<string, string | undefined>
  request: Request
  html: (page: JSX.Element) => unknown
  nonce: string
  set: { headers: Record<string, string | number> }
  asMarkdown: boolean
}

/** Server-rendered HTML pages (plugins/web): the scan form, reports, leaderboard, catalog, and our own robots/llms/sitemap. */
type WebNeeds = Pick<KernelPieces, 'context' | 'config' | 'database' | 'store' | 'registry' | 'errors'> & {
  scans: ScanRepository
  scanService: ScanService
  journeyRuns: JourneyRepository
  journeyService: JourneyService
  leaderboard: Leaderboard
  mcpToolbox: Toolbox
}

export function webPlugin(deps: WebNeeds) {
  const { context, scanService, journeyService } = deps
  const { config } = deps
  const baseUrl = config.publicBaseUrl
  const web = new WebService(deps)
  const catalog = buildCatalog(deps.registry, { essentials: false })

  // Documents that depend on the deployment alone are written once, not per request.
  const skill = skillMarkdown(baseUrl)
  const skills = JSON.stringify(skillsIndex(baseUrl, skill))
  const homeLink = homeLinkHeader(baseUrl)
  const home = homeMarkdown(baseUrl)
  const robots = robotsTxt(baseUrl)
  const ai = aiTxt()
  const llmsFull = llmsFullTxt(baseUrl, catalog)
  const apiCatalogJson = JSON.stringify(apiCatalog(baseUrl))

  const local = { allowLocal: config.scanner.allowPrivate }
  const intentTitle = (id: string) => journeyService.intents().find((intent) => intent.id === id)?.title ?? id

  const textResponse = (body: string, type: string, headers: Record<string, string> = {}) =>
    new Response(body, { headers: { 'content-type': type, 'cache-control': 'public, max-age=300', ...headers } })

  const seeOther = (location: string) =>
    new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } })
  const notScanned = (target: string) => {
    throw new AppError(SCAN_ERRORS.DOMAIN_NOT_SCANNED, { message: `${target} has not been scanned yet` })
  }

  /** A report page (or its Markdown alternate) with what the query brings: a kept re-check, the cache notice. */
  const reportResponse = async ({ view, query, request, html, nonce, set, asMarkdown }: ReportRequest) => {
    if (asMarkdown || wantsMarkdown(request.headers.get('accept'))) {
      return textResponse(reportMarkdown(view, baseUrl), 'text/markdown; charset=utf-8', {
        link: `<${baseUrl}${view.path}>; rel="canonical"`,
        vary: 'Accept',
        'cache-control': 'no-cache',
      })
    }
    set.headers.vary = 'Accept'
    const token = recheckToken.safeParse(query.recheck)
    const [kept, runs] = await Promise.all([
      token.success ? web.recheck(token.data) : null,
      journeyService.repository.forDomain(view.row.domain, 5),
    ])
    // A re-check of another report (a token pasted across reports) is not this report's.
    const recheck = kept?.target === view.row.target ? kept : null
    set.headers.link = `<${view.path}.md>; rel="alternate"; type="text/markdown"`
    set.headers['cache-control'] = recheck || FROM_CACHE in query ? 'no-store' : 'no-cache'
    return html(
      ReportPage({
        view: recheck ? web.withRecheck(view, recheck) : view,
        baseUrl,
        nonce,
        recheck,
        fromCache: FROM_CACHE in query,
        now: new Date(),
        runs: runs.map((run) => ({
          id: run.id,
          title: intentTitle(run.intentId),
          status: run.status,
          outcome: run.verdict?.outcome,
        })),
      }),
    )
  }

  /** Re-runs one check against the very target of a report (kind, port, MCP URL) and returns to that report. */
  const recheck = async (target: TargetKey, checkId: string, caller: Caller, patch: boolean) => {
    if (!deps.registry.has(checkId)) {
      throw new AppError('UNKNOWN_CHECK_IDS', {
        message: `Unknown check id: ${checkId}`,
        details: { unknownIds: [checkId] },
      })
    }
    const row = await deps.scans.latestOf(target)
    if (!row)
      throw new AppError(SCAN_ERRORS.DOMAIN_NOT_SCANNED, {
        message: `${target.replace(/^[a-z]+:/, '')} has not been scanned yet`,
      })
    const { report, storedScanUpdated } = await scanService.runChecks(
      { url: row.url, checkIds: [checkId], mcpUrl: row.mcpUrl ?? undefined },
      caller,
      { patch },
    )
    const results = report.layers.flatMap((layer) => layer.checks).filter((check) => check.id === checkId)
    // Evidence is for programs reading stored scans; the page never shows it.
    const token = await web.keepRecheck({
      checkId,
      target,
      storedScanUpdated,
      results: results.map(({ evidence: _, ...result }) => result),
    })
    return seeOther(`${reportPathFor(row)}?recheck=${token}#check-${encodeURIComponent(checkId)}`)
  }

  return (
    new Elysia({ name: 'web' })
      .use(context)
      .use(html({ autoDetect: false, contentType: HTML_TYPE }))
      .derive(({ set }) => {
        const nonce = newNonce()
        Object.assign(set.headers, pageHeaders(nonce))
        return { nonce }
      })
      // Errors of these routes (ours, and the shared validation, limits and parsing) reach people as pages.
      .mapResponse(async ({ responseValue, request }) => {
        if (!(responseValue instanceof Response) || responseValue.status < 400) return
        if (!responseValue.headers.get('content-type')?.includes('json')) return
        const body = (await responseValue
          .clone()
          .json()
          .catch(() => ({}))) as { error?: unknown; message?: unknown; code?: unknown }
        const code = typeof body.code === 'string' ? body.code : undefined
        const title =
          (code === undefined ? undefined : deps.errors.codes.get(code)?.title) ??
          (typeof body.error === 'string' ? body.error : 'Error')
        const message = typeof body.message === 'string' ? body.message : title
        const nonce = newNonce()
        const headers = new Headers(responseValue.headers)
        headers.set('content-type', HTML_TYPE)
        for (const [name, value] of Object.entries(pageHeaders(nonce))) headers.set(name, value)
        const retryAfter = Number(responseValue.headers.get('retry-after'))
        const error = {
          status: responseValue.status,
          title,
          message,
          code,
          ...(retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
        }
        const page = await ErrorPage({ error, baseUrl, path: new URL(request.url).pathname, nonce })
        return new Response(page, { status: responseValue.status, headers })
      })
      .get(
        '/assets/:file',
        ({ params }) => {
          const found = assetAt(`/assets/${params.file}`)
          if (!found) throw new AppError('NOT_FOUND', { message: `No asset ${params.file}` })
          return new Response(found.asset.body, {
            headers: { 'content-type': found.asset.type, 'cache-control': found.cacheControl },
          })
        },
        { detail: hidden },
      )
      // Browsers ask for /favicon.ico whatever the page links; the pages link the SVG.
      .get(
        '/favicon.ico',
        () => {
          const { asset } = assetAt('/assets/favicon.ico')!
          return new Response(asset.body, {
            headers: { 'content-type': asset.type, 'cache-control': 'public, max-age=86400' },
          })
        },
        { detail: hidden },
      )
      // The homepage names the API catalog, the API description and docs, its Markdown twin and the sitemap (RFC 8288),
      // and answers Markdown to a request that prefers it; both variants say they vary on Accept.
      .get(
        '/',
        ({ request, html, nonce, set }) => {
          if (wantsMarkdown(request.headers.get('accept')))
            return textResponse(home, MARKDOWN_TYPE, { link: homeLink, vary: 'Accept', ...PUBLIC_CORS })
          set.headers.link = homeLink
          set.headers.vary = 'Accept'
          return html(HomePage({ baseUrl, nonce }))
        },
        { detail: hidden },
      )
      .get(
        HOME_MARKDOWN_PATH,
        () => textResponse(home, MARKDOWN_TYPE, { link: `<${baseUrl}/>; rel="canonical"`, ...PUBLIC_CORS }),
        { detail: hidden },
      )
      .post(
        '/scan',
        async ({ body, caller }) => {
          const prepared = await scanService.prepare({
            url: body.url,
            mcpUrl: body.mcpUrl || undefined,
            force: body.force === '1',
          })
          let row: ScanRow
          try {
            row = prepared.fresh?.row ?? (await scanService.execute(prepared, caller))
          } catch (error) {
            // A protected MCP server has no score: its page says why and how to scan it with a token.
            if (error instanceof ScanError && error.is('mcp-auth-required'))
              return seeOther(mcpReportPath(error.failure.mcpUrl))
            throw error
          }
          // A stored result served instead of scanning says so on the report it lands on.
          return seeOther(`${reportPathFor(row)}${prepared.fresh ? `?${FROM_CACHE}` : ''}`)
        },
        { limit: SCAN_LIMITS.scanBurst, body: scanForm, detail: hidden },
      )
      .get(
        '/site/:target',
        async ({ params, query, request, html, nonce, set, redirect }) => {
          const asMarkdown = params.target.endsWith('.md')
          const { domain, origin } = normalizeInput(asMarkdown ? params.target.slice(0, -3) : params.target, local)
          const path = siteReportPath(origin)
          if (!asMarkdown && decodeURIComponent(path.slice('/site/'.length)) !== params.target)
            return redirect(`${path}${new URL(request.url).search}`, 301)
          const view = await web.report(siteKey(origin))
          if (!view) {
            // A link made when reports were kept per domain: the host's newest other report (its MCP server's) answers it.
            const [other] = await web.siblings(domain)
            if (other) return redirect(other.path, 302)
            const label = decodeURIComponent(path.slice('/site/'.length))
            if (asMarkdown) return notScanned(label)
            set.status = 404
            return html(NotScannedPage({ target: label, path, scan: { url: label }, baseUrl, nonce }))
          }
          return reportResponse({ view, query, request, html, nonce, set, asMarkdown })
        },
        { detail: hidden },
      )
      .get(
        '/mcp/:target',
        async ({ params, query, request, html, nonce, set, redirect }) => {
          const asMarkdown = params.target.endsWith('.md')
          const { domain, url } = normalizeInput(asMarkdown ? params.target.slice(0, -3) : params.target, local)
          const path = mcpReportPath(url)
          if (!asMarkdown && decodeURIComponent(path.slice('/mcp/'.length)) !== params.target)
            return redirect(`${path}${new URL(request.url).search}`, 301)
          const view = await web.report(mcpKey(url))
          if (view) return reportResponse({ view, query, request, html, nonce, set, asMarkdown })
          if (asMarkdown) return notScanned(url)
          const marker = await deps.scans.authMarker(domain, mcpKey(url))
          set.headers['cache-control'] = 'no-cache'
          if (marker)
            return html(
              AuthRequiredPage({
                mcpUrl: url,
                checkedAt: marker.scannedAt,
                siblings: await web.siblings(domain, mcpKey(url)),
                baseUrl,
                nonce,
              }),
            )
          set.status = 404
          return html(NotScannedPage({ target: url, path, scan: { url, mcpUrl: url }, baseUrl, nonce }))
        },
        { detail: hidden },
      )
      .post(
        '/site/:target/recheck',
        async ({ params, body, caller, can }) => {
          const { origin } = normalizeInput(params.target, local)
          return recheck(siteKey(origin), body.checkId, caller, can('patch-stored-scan'))
        },
        { limit: SCAN_LIMITS.scanBurst, body: recheckForm, detail: hidden },
      )
      .post(
        '/mcp/:target/recheck',
        async ({ params, body, caller, can }) => {
          const { url } = normalizeInput(params.target, local)
          return recheck(mcpKey(url), body.checkId, caller, can('patch-stored-scan'))
        },
        { limit: SCAN_LIMITS.scanBurst, body: recheckForm, detail: hidden },
      )
      .get(
        '/leaderboard',
        async ({ query, html, nonce }) =>
          html(LeaderboardPage({ page: await deps.leaderboard({ ...query, pageSize: 50 }), baseUrl, nonce })),
        { limit: LEADERBOARD_LIMITS.openRead, query: leaderboardPageQuery, detail: hidden },
      )
      .get('/checks', ({ query, html, nonce }) => html(ChecksPage({ catalog, query, baseUrl, nonce })), {
        query: checksPageQuery,
        detail: hidden,
      })
      .get(
        '/journeys',
        async ({ html, nonce }) => {
          const recent = (await deps.journeyRuns.recentCurated(10)).map((run) => ({
            ...run,
            title: intentTitle(run.intentId),
          }))
          return html(
            JourneysPage({
              intents: journeyService.intents(),
              agents: journeyService.agents(),
              recent,
              baseUrl,
              nonce,
            }),
          )
        },
        { limit: LEADERBOARD_LIMITS.openRead, detail: hidden },
      )
      .post(
        '/journeys',
        async ({ body, caller }) => {
          const request = journeyService.understand(
            { intent: { id: body.intent }, domain: body.domain, agent: body.agent, compare: body.compare === '1' },
            false,
          )
          const admission = await journeyService.admit(caller, request)
          // Over the target's daily cap the newest stored run of that target is the answer, as on the API.
          const id = admission.capped ? admission.capped.id : (await journeyService.create(request, caller)).id
          return new Response(null, {
            status: 303,
            headers: { location: journeyPath(id), 'cache-control': 'no-store' },
          })
        },
        { limit: JOURNEY_LIMITS.journeyBurst, body: journeyForm, detail: hidden },
      )
      .get(
        '/journeys/:id',
        async ({ params, html, nonce, set }) => {
          const run = await journeyService.record(await journeyService.byId(params.id))
          set.headers['cache-control'] = 'no-store'
          return html(JourneyRunPage({ run, title: intentTitle(run.intent_id), baseUrl, nonce }))
        },
        { limit: JOURNEY_LIMITS.journeyRead, detail: hidden },
      )
      .get('/api', ({ html, nonce }) => html(ApiPage({ baseUrl, nonce, tools: deps.mcpToolbox.listing })), {
        detail: hidden,
      })
      // Public metadata: readable cross-origin (CORS *) by browser-based agents; none of it depends on who asks.
      .get('/robots.txt', () => textResponse(robots, 'text/plain; charset=utf-8', PUBLIC_CORS), { detail: hidden })
      .get(
        '/llms.txt',
        async () => textResponse(llmsTxt(baseUrl, await web.publishedReports(100)), MARKDOWN_TYPE, PUBLIC_CORS),
        { detail: hidden },
      )
      .get('/ai.txt', () => textResponse(ai, 'text/plain; charset=utf-8', PUBLIC_CORS), { detail: hidden })
      .get(SKILLS_INDEX_PATH, () => textResponse(skills, 'application/json', PUBLIC_CORS), { detail: hidden })
      .get(SKILL_PATH, () => textResponse(skill, MARKDOWN_TYPE, PUBLIC_CORS), { detail: hidden })
      .get('/llms-full.txt', () => textResponse(llmsFull, MARKDOWN_TYPE, PUBLIC_CORS), { detail: hidden })
      .get(
        '/sitemap.xml',
        async () =>
          textResponse(
            sitemapXml(baseUrl, await web.publishedReports()),
            'application/xml; charset=utf-8',
            PUBLIC_CORS,
          ),
        { detail: hidden },
      )
      // RFC 9727: the catalog of our APIs; GET and HEAD both carry the Link to itself with rel="api-catalog".
      .get(
        API_CATALOG_PATH,
        () =>
          textResponse(apiCatalogJson, API_CATALOG_TYPE, {
            link: `<${baseUrl}${API_CATALOG_PATH}>; rel="api-catalog"`,
            ...PUBLIC_CORS,
          }),
        { detail: hidden },
      )
  )
}

/** The pages for people and crawlers, drawn from the pieces the API's features provide. */
export const webFeature = defineFeature<WebNeeds>()({
  name: 'web',
  needs: [
    'context',
    'config',
    'database',
    'store',
    'registry',
    'errors',
    'scans',
    'scanService',
    'journeyRuns',
    'journeyService',
    'leaderboard',
    'mcpToolbox',
  ],
  provides: [],
  routes: webPlugin,
})
