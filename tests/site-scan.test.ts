import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { REGISTERED_CHECKS } from '../checks/index.ts'
import { shareStatus } from '../core/engine/page-verdict.ts'
import {
  MULTIPAGE_PAGES,
  type MultipagePage,
  type MultipageSite,
  startMultipageSite,
} from './fixtures/sites/multipage/site.ts'
import { request } from './helpers.ts'
import { runCliSource } from './support/cli.ts'
import { clientIp, startWorld, type World } from './support/world.ts'

/**
 * Whole-site verdicts, end to end: a 43-page site (tests/fixtures/sites/multipage) scanned through the API with
 * `pages`, each page-level check's page counts compared with what the sampled pages really offer.
 */
let site: MultipageSite
let world: World

beforeAll(async () => {
  site = startMultipageSite()
  world = await startWorld([], {
    browser: null,
    extraResolve: [site.resolveRule],
    mcp: [{ name: 'well-made', hosts: ['pages-mcp.test'] }],
    features: ['scan', 'journey', 'leaderboard', 'feedback', 'discover', 'mcp', 'web'],
  })
})
afterAll(async () => {
  await world.close()
  await site.stop()
})

const post = (json: unknown, headers: Record<string, string> = {}) =>
  world.handle.app.handle(
    request('/api/scan', { method: 'POST', json, headers: { 'x-forwarded-for': clientIp(), ...headers } }),
  )

interface WireCheck {
  id: string
  status: string
  score: number
  maxScore: number
  pages?: { checked: number; passed: number; failing: { url: string; status: string; details: string }[] }
}
const checksOf = (result: { layers: { checks: WireCheck[] }[] }) => result.layers.flatMap((layer) => layer.checks)
const byPath = new Map(MULTIPAGE_PAGES.map((page) => [page.path, page]))

/** What each page-level check should make of one page of the fixture (null: the check does not apply there). */
const TRUTH: Record<string, (page: MultipagePage) => boolean | null> = {
  'structured-data-jsonld': (page) => page.jsonLd,
  'markdown-alternates': (page) => page.markdown,
  'markdown-negotiation': (page) => page.markdown,
  'opengraph-metadata': () => true,
  'semantic-html': () => true,
  'content-without-js': () => true,
  'link-headers': () => false,
  'accessible-forms': () => null,
}

let result: Record<string, any>

describe('POST /api/scan with pages', () => {
  beforeAll(async () => {
    const response = await post({ url: site.host, pages: 25, force: true })
    expect(response.status).toBe(200)
    result = await response.json()
  }, 60_000)

  test('the sample: at most 25 pages over at least three sections, the homepage first, robots.txt obeyed', () => {
    const pages: { url: string; source: string; httpStatus: number }[] = result.pages
    expect(pages.length).toBe(25)
    expect(pages[0]).toMatchObject({ url: `${site.publicOrigin}/`, source: 'home', httpStatus: 200 })
    const paths = pages.map((page) => new URL(page.url).pathname)
    expect(new Set(paths).size).toBe(paths.length)
    expect(new Set(paths.map((path) => path.split('/')[1])).size).toBeGreaterThanOrEqual(4)
    for (const path of paths) expect(byPath.get(path)?.disallowed).toBe(false)
    expect(new Set(pages.map((page) => page.source))).toEqual(new Set(['home', 'sitemap', 'llms', 'link']))
    // 42 pages besides the homepage, 5 of them under /private/ and /drafts/.
    expect(result.pageSample).toMatchObject({ requested: 25, candidates: 42, robotsSkipped: 5 })
    expect(result.pageSample.renderedPages).toEqual(pages.slice(0, 3).map((page) => page.url))
  })

  test('no page robots.txt disallows is ever requested', () => {
    expect(site.requests.filter((path) => path.startsWith('/private/') || path.startsWith('/drafts/'))).toEqual([])
  })

  test("each page-level check counts the sampled pages' truth, and its status and points follow the share", () => {
    const sampled = (result.pages as { url: string }[]).map((page) => byPath.get(new URL(page.url).pathname)!)
    const checks = new Map(checksOf(result as never).map((check) => [check.id, check]))
    for (const [id, truth] of Object.entries(TRUTH)) {
      const check = checks.get(id)!
      const verdicts = sampled.map(truth).filter((verdict) => verdict !== null)
      const passed = verdicts.filter(Boolean).length
      expect({ id, checked: check.pages?.checked, passed: check.pages?.passed }).toEqual({
        id,
        checked: verdicts.length,
        passed,
      })
      expect(check.pages!.failing.length).toBe(Math.min(10, verdicts.length - passed))
      if (verdicts.length === 0) continue
      expect({ id, status: check.status }).toEqual({ id, status: shareStatus(passed, verdicts.length) })
      const points = Math.round((check.maxScore * passed) / verdicts.length)
      expect(check.score).toBe(check.status === 'pass' ? points : Math.min(points, check.maxScore - 1))
    }
    const jsonld = checks.get('structured-data-jsonld')!
    expect(
      jsonld.pages!.failing.every((page) => page.status === 'fail' && !byPath.get(new URL(page.url).pathname)!.jsonLd),
    ).toBe(true)
  })

  test("a failing page's own details and fix name that page, not the homepage", () => {
    const failing = checksOf(result as never).find((check) => check.id === 'link-headers')!.pages!.failing as {
      url: string
      details: string
      recommendation?: string
    }[]
    const others = failing.filter((page) => new URL(page.url).pathname !== '/')
    expect(others.length).toBeGreaterThan(0)
    for (const page of others) {
      const path = new URL(page.url).pathname
      expect(page.details).toBe(`The page ${path} response has no Link header`)
      expect(page.recommendation).toStartWith(`Add a Link header to the page ${path} response`)
    }
  })

  test('site-level checks run once, with no page reading; every page-level one reads the pages', () => {
    const scopes = new Map(REGISTERED_CHECKS.map(({ definition }) => [definition.meta.id, definition.meta.scope]))
    const checks = checksOf(result as never)
    expect(
      checks
        .filter((check) => scopes.get(check.id) === 'page' && check.status !== 'pending')
        .map((check) => check.id)
        .sort(),
    ).toEqual(
      checks
        .filter((check) => check.pages !== undefined)
        .map((check) => check.id)
        .sort(),
    )
    expect(
      checks.filter((check) => scopes.get(check.id) === 'site' && check.pages === undefined).length,
    ).toBeGreaterThan(20)
  })

  test('the report page and its Markdown alternate show "of 25 pages", the failing pages and the sample', async () => {
    const read = async (path: string) =>
      (await world.handle.app.handle(request(path, { headers: { 'x-forwarded-for': clientIp() } }))).text()
    const jsonld = checksOf(result as never).find((check) => check.id === 'structured-data-jsonld')!
    const share = `${jsonld.pages!.passed} of 25 pages`
    const html = await read(`/site/${site.host}`)
    expect(html).toContain('id="pages-title"')
    expect(html).toContain(share)
    expect(html).toContain('href="https://multipage.test/guides/guide-01"')
    const markdown = await read(`/site/${site.host}.md`)
    expect(markdown).toContain('## Pages (25)')
    expect(markdown).toContain(`(\`structured-data-jsonld\`): ${share}`)
    expect(markdown).toContain('- /guides/guide-01 (fail)')
  })

  test('the score route returns the sample; a cached result answers only the same pages', async () => {
    const score = await (
      await world.handle.app.handle(request(`/api/score/${site.host}`, { headers: { 'x-forwarded-for': clientIp() } }))
    ).json()
    expect(score.pages).toEqual(result.pages)
    const again = await (await post({ url: site.host, pages: 25 })).json()
    expect(again.servedFromCache).toBe(true)
    const single = await (await post({ url: site.host })).json()
    expect(single.servedFromCache).toBeUndefined()
    expect(single.pages).toBeUndefined()
    expect(single.pageSample).toBeUndefined()
    for (const check of checksOf(single)) expect(check.pages).toBeUndefined()
  }, 60_000)
})

describe('GET /api/scan/stream with pages', () => {
  test('the stream scans the sample: scan_complete carries the pages and the page counts', async () => {
    const response = await world.handle.app.handle(
      request(`/api/scan/stream?domain=${site.host}&pages=5&force=1`, { headers: { 'x-forwarded-for': clientIp() } }),
    )
    expect(response.status).toBe(200)
    const frames = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)))
    const complete = frames.find((frame) => frame.type === 'scan_complete')
    expect(complete.result.pages).toHaveLength(5)
    const done = frames.find((frame) => frame.type === 'check_complete' && frame.checkId === 'structured-data-jsonld')
    const check = checksOf(complete.result).find((entry) => entry.id === 'structured-data-jsonld')!
    expect(check.pages!.checked).toBe(5)
    expect({ status: done.status, score: done.score }).toEqual({ status: check.status, score: check.score })
  }, 60_000)
})

describe('selective re-checks of a stored multi-page scan', () => {
  const recheck = async (checkIds: string[], key: string) =>
    (
      await world.handle.app.handle(
        request('/api/scan/checks', {
          method: 'POST',
          json: { url: site.host, checkIds },
          headers: { 'x-forwarded-for': clientIp(), authorization: `Bearer ${key}` },
        }),
      )
    ).json()
  const stored = async () =>
    (
      await world.handle.app.handle(request(`/api/score/${site.host}`, { headers: { 'x-forwarded-for': clientIp() } }))
    ).json()
  let key: string
  beforeAll(async () => {
    key = (await world.handle.pieces.keys.create('scan', 'site-scan re-check')).key
  })

  test('a page-level check is re-run over the stored sample, refetched, and its row keeps its page reading', async () => {
    const scanned = await (await post({ url: site.host, pages: 8, force: true })).json()
    const before = checksOf(scanned).find((check) => check.id === 'structured-data-jsonld')!
    const samplePaths = (scanned.pages as { url: string }[]).slice(1).map((page) => new URL(page.url).pathname)
    const requestsBefore = site.requests.length
    const body = await recheck(['structured-data-jsonld', 'robots-txt'], key)
    expect(body.storedScanUpdated).toBe(true)
    const rechecked = body.results.find((entry: WireCheck) => entry.id === 'structured-data-jsonld')
    expect(rechecked.pages).toEqual(before.pages)
    expect({ status: rechecked.status, score: rechecked.score, details: rechecked.details }).toEqual({
      status: before.status,
      score: before.score,
      details: (before as unknown as { details: string }).details,
    })
    expect(body.results.find((entry: WireCheck) => entry.id === 'robots-txt').pages).toBeUndefined()
    // Every sampled page was fetched again, and nothing robots.txt disallows.
    const refetched = site.requests.slice(requestsBefore)
    for (const path of samplePaths) expect(refetched).toContain(path)
    expect(refetched.filter((path) => path.startsWith('/private/') || path.startsWith('/drafts/'))).toEqual([])
    const row = checksOf(await stored()).find((check) => check.id === 'structured-data-jsonld')!
    expect(row.pages).toEqual(before.pages)
    expect(row.status).toBe(before.status)
  }, 60_000)

  test('a site-level re-check fetches no sampled page', async () => {
    const scanned = await (await post({ url: site.host, pages: 8, force: true })).json()
    const samplePaths = (scanned.pages as { url: string }[]).slice(1).map((page) => new URL(page.url).pathname)
    const requestsBefore = site.requests.length
    const body = await recheck(['robots-txt'], key)
    expect(body.storedScanUpdated).toBe(true)
    expect(site.requests.slice(requestsBefore).filter((path) => samplePaths.includes(path))).toEqual([])
  }, 60_000)

  test('on a one-page stored scan the re-check judges the homepage alone, as before', async () => {
    const scanned = await (await post({ url: site.host, force: true })).json()
    const before = checksOf(scanned).find((check) => check.id === 'structured-data-jsonld')! as WireCheck & {
      details: string
    }
    const requestsBefore = site.requests.length
    const body = await recheck(['structured-data-jsonld'], key)
    const [rechecked] = body.results
    expect(Object.keys(rechecked).sort()).not.toContain('pages')
    expect({ status: rechecked.status, score: rechecked.score, details: rechecked.details }).toEqual({
      status: before.status,
      score: before.score,
      details: before.details,
    })
    expect(site.requests.slice(requestsBefore).filter((path) => path !== '/' && byPath.has(path))).toEqual([])
    expect(checksOf(await stored()).find((check) => check.id === 'structured-data-jsonld')!.pages).toBeUndefined()
  }, 60_000)
})

describe('pages limits', () => {
  test('out of range, or above the anonymous allowance, is a 400 with the error body', async () => {
    for (const pages of [0, 101, 2.5, 26]) {
      const response = await post({ url: site.host, pages })
      expect(response.status).toBe(400)
      const body = await response.json()
      expect(body.code).toBe('VALIDATION_FAILED')
      expect(typeof body.error).toBe('string')
    }
    const stream = await world.handle.app.handle(
      request(`/api/scan/stream?domain=${site.host}&pages=many`, { headers: { 'x-forwarded-for': clientIp() } }),
    )
    expect(stream.status).toBe(400)
  })

  test('an MCP target ignores pages, and the result says so', async () => {
    const response = await post({ url: 'https://pages-mcp.test/mcp', pages: 10, force: true })
    expect(response.status).toBe(200)
    const body = await response.json()
    expect(body.urlKind).toBe('mcp')
    expect(body.pagesIgnored).toBe('pages applies to domain scans only: the mcp server was scanned as itself')
    expect(body.pages).toBeUndefined()
  }, 60_000)

  test('a scan key may ask for up to 100 pages', async () => {
    const { key } = await world.handle.pieces.keys.create('scan', 'site-scan test')
    const response = await post({ url: site.host, pages: 60, force: true }, { authorization: `Bearer ${key}` })
    expect(response.status).toBe(200)
    const body = await response.json()
    // Every allowed page: the homepage and the 37 others robots.txt leaves.
    expect(body.pages.length).toBe(38)
    expect(body.pageSample.note).toContain('37 allowed pages')
  }, 60_000)
})

describe('CLI --pages', () => {
  const env = () => ({
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'silent',
    SCANNER_ALLOW_PRIVATE: 'true',
    SCANNER_RESOLVE: site.resolveRule,
  })

  test('--pages 25 --format json: the same sample and page counts as the API', async () => {
    const run = await runCliSource(
      ['scan', site.host, '--pages', '25', '--format', 'json', '--static', '--quiet'],
      env(),
    )
    expect(run.code).toBe(0)
    const report = JSON.parse(run.stdout)
    expect(report.pages.map((page: { url: string }) => page.url)).toEqual(
      result.pages.map((page: { url: string }) => page.url),
    )
    const apiChecks = new Map(checksOf(result as never).map((check) => [check.id, check.pages]))
    for (const check of checksOf(report))
      if (check.pages) expect({ id: check.id, ...check.pages }).toEqual({ id: check.id, ...apiChecks.get(check.id)! })
  }, 60_000)

  test('--format markdown shows "of 25 pages", the failing pages and the sample', async () => {
    const run = await runCliSource(
      ['scan', site.host, '--pages', '25', '--format', 'markdown', '--static', '--quiet'],
      env(),
    )
    expect(run.stdout).toContain('### Pages')
    expect(run.stdout).toMatch(/`structured-data-jsonld`: \d+ of 25 pages/)
    expect(run.stdout).toContain('/guides/guide-01 (fail)')
    expect(run.stdout).toContain('| https://multipage.test/guides/guide-01 | llms | 200 |')
  }, 60_000)

  test('--pages out of range is a usage error', async () => {
    const run = await runCliSource(['scan', site.host, '--pages', '101'], env())
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('--pages is a whole number from 1 to 100')
  })
})
