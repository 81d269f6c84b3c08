import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { load } from 'cheerio'
import { siteHandler } from './fixtures/sites/server.ts'
import { request } from './helpers.ts'
import { ago } from '../plugins/web/components.tsx'
import { mcpReportPath, reportPathFor, siteReportPath, targetKey, targetLabel } from '../plugins/scan/target.ts'
import { clientIp, startWorld, type World } from './support/world.ts'

/**
 * One report per target, through the pages (issue 28): a stored result belongs to its kind and normalised target
 * (a website's origin with its port, an MCP server's URL). Two local servers that differ only by port get two
 * reports; an MCP URL and its bare host keep a report each, linked both ways, and "Scan again" rescans exactly the
 * target of the report; local targets are never published; a result served from the cache says so and its age; a
 * protected MCP server gets a page that says how to scan it with a token. Fixtures are scanned for real.
 */
// A host no other suite (nor an earlier run on the same database) scans, or a stored result would answer from the cache.
const MCP_HOST = `targets-${randomUUID().slice(0, 8)}.mcp.test`
const MCP_URL = `https://${MCP_HOST}/mcp`
const LOCKED_URL = 'https://auth-required.mcp.test/mcp'

let world: World
let local: [ReturnType<typeof Bun.serve>, ReturnType<typeof Bun.serve>]

/** Each test posts from an address of its own, so per-IP scan budgets never leak between tests. */
const asClient = (ip: string, init: Parameters<typeof request>[1] = {}) => ({
  ...init,
  headers: { 'x-forwarded-for': ip, ...init.headers },
})
const form = (fields: Record<string, string>, ip = clientIp()) =>
  world.handle.app.handle(
    request(
      '/scan',
      asClient(ip, {
        method: 'POST',
        body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    ),
  )
const get = (path: string) => world.handle.app.handle(request(path, asClient(clientIp())))

async function page(path: string, status = 200) {
  const response = await get(path)
  expect({ path, status: response.status }).toEqual({ path, status })
  const text = await response.text()
  return { response, text, $: load(text) }
}

/** Scans through the home form (no JavaScript) and returns where the browser is sent. */
async function scanned(fields: Record<string, string>, ip?: string): Promise<string> {
  const response = await form(fields, ip)
  expect(response.status).toBe(303)
  return response.headers.get('location')!
}

beforeAll(async () => {
  // Two dev servers on one host: the same site on two ports (the second one is another build of it).
  local = [
    Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: siteHandler('blog', '127.0.0.1') }),
    Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: siteHandler('poor', '127.0.0.1') }),
  ]
  world = await startWorld(['excellent', 'robots-blocked'], {
    browser: null,
    mcp: [
      { name: 'well-made', hosts: [MCP_HOST] },
      { name: 'auth-required', hosts: ['auth-required.mcp.test'] },
    ],
  })
}, 60_000)
afterAll(async () => {
  await world?.close()
  await Promise.all(local.map((server) => server.stop(true)))
})

describe('target identity', () => {
  test.each([
    [
      { urlKind: 'domain', url: 'https://example.com/' },
      'site:https://example.com',
      '/site/example.com',
      'example.com',
    ],
    [
      { urlKind: 'domain', url: 'https://example.com/shop' },
      'site:https://example.com',
      '/site/example.com',
      'example.com',
    ],
    [
      { urlKind: 'domain', url: 'http://127.0.0.1:5160/' },
      'site:http://127.0.0.1:5160',
      '/site/127.0.0.1:5160',
      '127.0.0.1:5160',
    ],
    [
      { urlKind: 'domain', url: 'http://localhost:5161/' },
      'site:http://localhost:5161',
      '/site/localhost:5161',
      'localhost:5161',
    ],
    [
      { urlKind: 'domain', url: 'https://example.com:8443/' },
      'site:https://example.com:8443',
      '/site/example.com:8443',
      'example.com:8443',
    ],
    [
      { urlKind: 'domain', url: 'http://example.com/' },
      'site:http://example.com',
      '/site/http%3A%2F%2Fexample.com',
      'http://example.com',
    ],
    [
      { urlKind: 'mcp', url: 'https://example.com/mcp', mcpUrl: 'https://example.com/mcp' },
      'mcp:https://example.com/mcp',
      '/mcp/https%3A%2F%2Fexample.com%2Fmcp',
      'https://example.com/mcp',
    ],
    [
      { urlKind: 'mcp-app', url: 'https://example.com/', mcpUrl: 'https://example.com/mcp' },
      'mcp:https://example.com/mcp',
      '/mcp/https%3A%2F%2Fexample.com%2Fmcp',
      'https://example.com/mcp',
    ],
  ])('%o is %s at %s', (source, key, path, label) => {
    expect(targetKey(source)).toBe(key)
    expect(reportPathFor(source)).toBe(path)
    expect(targetLabel(source)).toBe(label)
  })

  test.each([
    [0, 'just now'],
    [59, 'just now'],
    [60, '1 minute ago'],
    [9 * 60 + 30, '9 minutes ago'],
    [3600, '1 hour ago'],
    [5 * 3600, '5 hours ago'],
    [86_400 * 3, '3 days ago'],
  ])('an age of %i s reads "%s"', (seconds, words) => {
    const now = new Date('2026-12-06T12:00:00.000Z')
    expect(ago(new Date(now.getTime() - seconds * 1000), now)).toBe(words)
  })
})

describe('local targets', () => {
  test('two local servers that differ only by port get two reports, none of them published', async () => {
    const [first, second] = local.map((server) => `127.0.0.1:${server.port}`)
    const coverageBefore = (await (await get('/api/stats')).json()).coverage.domains
    expect(await scanned({ url: first! })).toBe(`/site/${first}`)
    expect(await scanned({ url: second! })).toBe(`/site/${second}`)
    const one = await page(`/site/${first}`)
    const two = await page(`/site/${second}`)
    expect(one.$('h1').text()).toBe(first!)
    expect(two.$('h1').text()).toBe(second!)
    // Two different sites were measured: the reports are their own, not one shown twice.
    expect(one.$('.grade-letter').text() + one.$('.score-text').text()).not.toBe(
      two.$('.grade-letter').text() + two.$('.score-text').text(),
    )
    // Each links the other report on the same host.
    expect(one.$(`.siblings a[href="/site/${second}"]`).length).toBe(1)
    for (const report of [one, two]) {
      expect(report.$('#ephemeral-notice').text()).toContain('Not published')
      expect(report.$('meta[name="robots"]').attr('content')).toBe('noindex')
      // No badge to embed for a result nobody else can reach.
      expect(report.$('#badge').length).toBe(0)
    }
    // Re-checks and "Scan again" keep the port.
    expect(one.$('article.check form[data-recheck]').first().attr('action')).toBe(`/site/${first}/recheck`)
    expect(one.$('#rescan-title').parent().find('input[name="url"]').val()).toBe(`http://${first}/`)
    const leaderboard = await (await get('/api/leaderboard?pageSize=100')).json()
    expect(leaderboard.items.map((item: { domain: string }) => item.domain)).not.toContain('127.0.0.1')
    const stats = await (await get('/api/stats')).json()
    // Coverage counts the published domains only: the two local reports add nothing.
    expect(stats.coverage.domains).toBe(coverageBefore)
    expect(await world.handle.pieces.scans.history('127.0.0.1')).toEqual([])
  })

  test('localhost:PORT has a report page, and a re-check of it runs against that very port', async () => {
    const target = `localhost:${local[1].port}`
    expect(await scanned({ url: target })).toBe(`/site/${target}`)
    const { $ } = await page(`/site/${target}`)
    expect($('h1').text()).toBe(target)
    const recheck = await world.handle.app.handle(
      request(
        `/site/${target}/recheck`,
        asClient(clientIp(), {
          method: 'POST',
          body: 'checkId=robots-txt',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      ),
    )
    expect(recheck.status).toBe(303)
    expect(recheck.headers.get('location')).toStartWith(`/site/${target}?recheck=`)
    const leaderboard = await (await get('/api/leaderboard?pageSize=100')).json()
    expect(leaderboard.items.map((item: { domain: string }) => item.domain)).not.toContain('localhost')
  })
})

describe('a website and an MCP server on one host', () => {
  test('scanning the MCP URL and then the bare host leaves both reports, linked both ways; "Scan again" on the MCP report rescans the MCP server', async () => {
    const mcpPath = mcpReportPath(MCP_URL)
    expect(await scanned({ url: MCP_URL })).toBe(mcpPath)
    expect(await scanned({ url: MCP_HOST })).toBe(siteReportPath(`https://${MCP_HOST}`))
    const mcp = await page(mcpPath)
    const site = await page(`/site/${MCP_HOST}`)
    expect(mcp.$('h1').text()).toBe(MCP_URL)
    expect(site.$('h1').text()).toBe(MCP_HOST)
    expect(mcp.$(`.siblings a[href="/site/${MCP_HOST}"]`).length).toBe(1)
    expect(site.$(`.siblings a[href="${mcpPath}"]`).length).toBe(1)

    // "Scan again" on the MCP report posts its exact target: the MCP endpoint pinned, a forced scan.
    const rescan = mcp.$('#rescan-title').parent().find('form[action="/scan"]')
    const fields = Object.fromEntries(
      rescan
        .find('input')
        .map((_, input) => [[mcp.$(input).attr('name')!, mcp.$(input).val() as string]])
        .get(),
    )
    expect(fields).toEqual({ url: MCP_URL, mcpUrl: MCP_URL, force: '1' })
    const before = (await world.handle.pieces.scans.latestOf(
      targetKey({ urlKind: 'mcp', url: MCP_URL, mcpUrl: MCP_URL }),
    ))!
    expect(await scanned(fields)).toBe(mcpPath)
    const after = (await world.handle.pieces.scans.latestOf(before.target))!
    expect(after.id).toBeGreaterThan(before.id)
    expect(after.urlKind).toBe('mcp')
    // The website's report is still the website's.
    expect((await page(`/site/${MCP_HOST}`)).$('h1').text()).toBe(MCP_HOST)

    // Both are ranked, side by side, each linking its own report.
    const leaderboard = await (await get('/api/leaderboard?pageSize=100')).json()
    const rows = leaderboard.items.filter((item: { domain: string }) => item.domain === MCP_HOST)
    expect(rows.map((row: { report: string }) => row.report).sort()).toEqual([mcpPath, `/site/${MCP_HOST}`].sort())
    expect(rows.find((row: { report: string }) => row.report === mcpPath).score).toBe(after.score)

    // The MCP report's badge is the MCP server's own, whichever of the host's targets was scanned last.
    await scanned({ url: MCP_HOST, force: '1' })
    const website = (await world.handle.pieces.scans.latestOf(
      targetKey({ urlKind: 'domain', url: `https://${MCP_HOST}/` }),
    ))!
    const snippet = (await page(mcpPath)).$('#badge-markdown').text()
    expect(snippet).toContain(`/api/badge/${MCP_HOST}?mcp=${encodeURIComponent(MCP_URL)})`)
    const badgeOf = async (path: string) => (await (await get(path)).text()).match(/<title>[^<]*score (\d+) of 100/)![1]
    expect(await badgeOf(`/api/badge/${MCP_HOST}?mcp=${encodeURIComponent(MCP_URL)}`)).toBe(String(after.score))
    expect(await badgeOf(`/api/badge/${MCP_HOST}`)).toBe(String(website.score))
    expect((await get(`/api/badge/${MCP_HOST}?mcp=${encodeURIComponent('https://elsewhere.test/mcp')}`)).status).toBe(
      400,
    )
    // The report's JSON link reads the same result from the score route.
    const json = (await page(mcpPath)).$('a:contains("JSON")').attr('href')!
    expect(json).toBe(`/api/score/${MCP_HOST}?format=audit&mcp=${encodeURIComponent(MCP_URL)}`)
    const audit = await (await get(json)).json()
    expect({ score: audit.score, url: audit.url }).toEqual({
      score: after.score,
      url: `http://localhost:3000${mcpPath}`,
    })
    expect((await (await get(`/api/score/${MCP_HOST}`)).json()).score).toBe(website.score)
  })

  test('the audit result names the report of its own target', async () => {
    const response = await world.handle.app.handle(
      request('/api/scan?format=audit', asClient(clientIp(), { method: 'POST', json: { url: MCP_URL } })),
    )
    const body = await response.json()
    expect(body.url).toBe(`http://localhost:3000${mcpReportPath(MCP_URL)}`)
  })
})

describe('what the page says about the result', () => {
  test('a stored result served instead of a scan says "from the cache" and its age, and offers a fresh scan of the same target', async () => {
    const excellent = world.sites.excellent!.host
    // A forced scan first, so that the result served next is this run's, whatever the database held before.
    await scanned({ url: excellent, force: '1' })
    const location = await scanned({ url: excellent })
    expect(location).toBe(`/site/${excellent}?cached`)
    const { response, $ } = await page(location)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const freshness = $('#freshness')
    expect(freshness.text()).toContain('From the cache')
    expect(freshness.find('time').text()).toBe('just now')
    expect(freshness.find('form[action="/scan"] input[name="force"]').val()).toBe('1')
    expect(freshness.find('form[action="/scan"] input[name="url"]').val()).toBe(`https://${excellent}/`)
    // Without the flag the age is still said, in words.
    const plain = await page(`/site/${excellent}`)
    expect(plain.$('#freshness').text()).toContain('Scanned just now')
    expect(plain.$('#freshness').text()).not.toContain('From the cache')
  })

  test('extras that are not met read "not met", never as failures, and fix texts carry no escape sequences', async () => {
    const excellent = world.sites.excellent!.host
    await scanned({ url: excellent })
    const blocked = world.sites['robots-blocked']!.host
    await scanned({ url: blocked })
    for (const domain of [excellent, blocked]) {
      const { $ } = await page(`/site/${domain}`)
      const score = await (await get(`/api/score/${domain}`)).json()
      const extras = score.layers
        .flatMap(
          (layer: { checks: { id: string; status: string; bonus: boolean; maturity: string }[] }) => layer.checks,
        )
        .filter(
          (check: { bonus: boolean; maturity: string; status: string }) =>
            (check.bonus || check.maturity === 'emerging') && (check.status === 'fail' || check.status === 'warning'),
        )
      for (const check of extras) {
        const card = $(`article.check[data-check-id="${check.id}"]`).first()
        expect(card.closest('#extras').length).toBe(1)
        expect(card.find('.status').text()).toBe('Not met')
      }
      expect($('#extras .status-fail, #extras .status-warning').length).toBe(0)
      // Fix texts and details are prose: a literal "\n" there is an escape that leaked (code blocks may hold real ones).
      expect($('article.check p').text()).not.toContain('\\n')
      expect($('article.check p').text()).toContain('Fix:')
    }
  })

  test('an MCP server that requires authentication gets a page naming --header-env, not a scan that never ends', async () => {
    const location = await scanned({ url: LOCKED_URL })
    expect(location).toBe(mcpReportPath(LOCKED_URL))
    const { $ } = await page(location)
    expect($('h1').text()).toBe(`${LOCKED_URL} requires authentication`)
    expect($('main').text()).toContain('no public score')
    expect($('#auth-cli').text()).toBe(
      `MCP_AUTH="Authorization: Bearer <your token>" \\\n  agent-readiness scan ${LOCKED_URL} --header-env MCP_AUTH`,
    )
    expect($('#auth-action').text()).toContain('args: --header-env MCP_AUTH')
    expect($('#auth-action').text()).toContain('MCP_AUTH: "Authorization: Bearer ${{ secrets.MCP_TOKEN }}"')
  })

  test('over the forced-scan budget the page says when the next scan is possible and how a scan key lifts the limit', async () => {
    const ip = clientIp()
    const target = world.sites['robots-blocked']!.host
    let refused: Response | undefined
    for (let attempt = 0; attempt < 10 && !refused; attempt++) {
      const response = await form({ url: target, force: '1' }, ip)
      if (response.status === 429) refused = response
      else expect(response.status).toBe(303)
    }
    expect(refused).toBeDefined()
    const $ = load(await refused!.text())
    expect($('#retry-advice').text()).toMatch(/next one is possible in about \d+ minutes/)
    expect($('#retry-advice').text()).toContain('A scan key lifts the scan limits')
  })
})
