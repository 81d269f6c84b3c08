import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { load } from 'cheerio'
import type { AppHandle } from '../app/app.ts'
import { PAYLOADS, startXssSite, type XssSite } from './fixtures/sites/xss/site.ts'
import { request } from './helpers.ts'
import { untilEnded } from './support/journey.ts'
import { startWorld, type World } from './support/world.ts'

/**
 * The web pages (plugins/web) through app.handle: every page answers HTML under a strict CSP, errors are HTML
 * pages, our own robots/llms/sitemap/Markdown exist, and a hostile site scanned for real renders inert.
 */
let handle: AppHandle
let site: XssSite
let world: World
const DOMAIN = 'xss.test'

const form = (path: string, fields: Record<string, string>) =>
  request(path, {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })

const get = (path: string, headers: Record<string, string> = {}) => handle.app.handle(request(path, { headers }))

beforeAll(async () => {
  site = startXssSite(DOMAIN)
  // Without a browser rendered checks end at once (error), so every scan here is complete and published.
  world = await startWorld([], { browser: null, extraResolve: [site.resolveRule], start: true })
  handle = world.handle
  // The no-JavaScript path: the form posts, the scan runs, the browser is sent to the report.
  const response = await handle.app.handle(form('/scan', { url: DOMAIN }))
  expect(response.status).toBe(303)
  expect(response.headers.get('location')).toBe(`/site/${DOMAIN}`)
}, 60_000)
afterAll(async () => {
  await world.close()
  await site.stop()
})

function expectStrictCsp(response: Response) {
  const csp = response.headers.get('content-security-policy') ?? ''
  for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"])
    expect(csp).toContain(directive)
  const scripts = /script-src ([^;]+)/.exec(csp)?.[1] ?? ''
  expect(scripts).not.toContain('unsafe-inline')
  expect(scripts).toMatch(/'nonce-[A-Za-z0-9+/=]{16,}'/)
}

async function page(path: string, status = 200) {
  const response = await get(path)
  expect({ path, status: response.status }).toEqual({ path, status })
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
  expectStrictCsp(response)
  const text = await response.text()
  expect(text.startsWith('<!doctype html>')).toBe(true)
  return { response, text, $: load(text) }
}

describe('pages', () => {
  test.each([
    '/',
    '/journeys',
    '/leaderboard',
    '/leaderboard?kind=domain&category=',
    '/checks',
    '/checks?q=robots',
    '/api',
    `/site/${DOMAIN}`,
  ])('%s is 200 HTML under the CSP', async (path) => {
    const { $ } = await page(path)
    expect($('main h1').length).toBe(1)
    expect($('html').attr('lang')).toBe('en')
  })

  test('every script element is the nonced app script or JSON-LD, and no element carries inline style', async () => {
    for (const path of ['/', `/site/${DOMAIN}`, '/checks', '/leaderboard', '/api']) {
      const { response, $ } = await page(path)
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get('content-security-policy')!)![1]
      $('script').each((_, element) => {
        const script = $(element)
        expect(script.attr('nonce')).toBe(nonce)
        expect(
          /^\/assets\/app\.[0-9a-f]{12}\.js$/.test(script.attr('src') ?? '') ||
            script.attr('type') === 'application/ld+json',
        ).toBe(true)
      })
      expect($('[style]').length).toBe(0)
    }
  })

  test('the home page has the scan form and WebSite/Organization JSON-LD', async () => {
    const { $ } = await page('/')
    expect($('form[method="post"][action="/scan"] input[name="url"]').length).toBe(1)
    expect($('label[for="scan-target"]').text()).toContain('MCP server URL')
    const graph = JSON.parse($('script[type="application/ld+json"]').text())['@graph'] as { '@type': string }[]
    expect(graph.map((node) => node['@type']).sort()).toEqual(['Organization', 'WebSite'])
  })

  test('the report has the gauge, grade, verdict, layer bars, fixes, every check with a re-check form, history, badge snippets and share metadata', async () => {
    const { response, $ } = await page(`/site/${DOMAIN}`)
    const score = await (await get(`/api/score/${DOMAIN}`)).json()
    expect($('svg.gauge').attr('aria-label')).toBe(`Score ${score.score} out of 100, grade ${score.grade}`)
    expect($('.grade-letter').text()).toBe(score.grade)
    expect($('#report-verdict').text()).toStartWith(`${score.score}/100 (${score.grade}): `)
    const measured = score.layers.filter((layer: { maxScore: number }) => layer.maxScore > 0)
    expect($('.layers meter').length).toBe(measured.length)
    expect($('.layers .layer-empty').length).toBe(score.layers.length - measured.length)
    const fixes = score.topFixes.filter((fix: { estScoreGain: number }) => fix.estScoreGain > 0)
    expect($('ol.fixes > li').length).toBe(fixes.length)
    const checks = score.layers.flatMap((layer: { checks: { status: string }[] }) => layer.checks)
    expect($('article.check').length).toBe(checks.length)
    const measurable = checks.filter((check: { status: string }) => check.status !== 'na')
    expect($('article.check form[action="/site/xss.test/recheck"] input[name="checkId"]').length).toBe(
      measurable.length,
    )
    expect($('#check-llms-txt').length).toBe(1)
    expect($('#badge-markdown').text()).toContain(`(http://localhost:3000/api/badge/${DOMAIN})`)
    expect($('#badge-html').text()).toContain(`<img src="http://localhost:3000/api/badge/${DOMAIN}"`)
    expect($('meta[property="og:title"]').attr('content')).toBe(
      `${DOMAIN} scores ${score.score}/100 (${score.grade}) for AI-agent readiness`,
    )
    expect($('meta[property="og:url"]').attr('content')).toBe(`http://localhost:3000/site/${DOMAIN}`)
    expect($('meta[name="twitter:card"]').attr('content')).toBe('summary_large_image')
    expect($('meta[property="og:image"]').attr('content')).toBe('http://localhost:3000/assets/og.png')
    expect(response.headers.get('link')).toBe(`</site/${DOMAIN}.md>; rel="alternate"; type="text/markdown"`)
    const ld = JSON.parse($('script[type="application/ld+json"]').text())
    expect(ld['@type']).toBe('WebPage')
    expect(ld.review.reviewRating.ratingValue).toBe(score.score)
  })

  test('the report leads with the fixes: each with its gain and a copy-ready snippet, then failures by impact, then passed and n/a folded', async () => {
    const { $ } = await page(`/site/${DOMAIN}`)
    const score = await (await get(`/api/score/${DOMAIN}`)).json()
    const sections = $('main > section, main > details')
      .map((_, element) => $(element).attr('id') ?? $(element).find('h2').first().text())
      .get()
    const order = (needle: string) => sections.findIndex((name) => name.includes(needle))
    expect(order('report-summary')).toBe(0)
    expect(order('Top fixes')).toBeLessThan(order('Also failing'))
    expect(order('Also failing')).toBeLessThan(order('passed'))
    expect(order('passed')).toBeLessThan(order('not-applicable'))
    // Folded: neither list is open before the reader asks.
    expect($('#passed').attr('open')).toBeUndefined()
    expect($('#not-applicable').attr('open')).toBeUndefined()
    const checks = score.layers.flatMap((layer: { checks: { status: string; naReason?: string }[] }) => layer.checks)
    const passed = checks.filter((check: { status: string }) => check.status === 'pass').length
    const na = checks.filter((check: { status: string }) => check.status === 'na')
    expect($('#passed > summary').text()).toBe(`Passed (${passed})`)
    expect($('#not-applicable > summary').text()).toBe(`Not applicable (${na.length})`)
    // Each n/a reason is printed once, above the checks it covers.
    const reasons = $('#not-applicable .na-group > p')
      .map((_, element) => $(element).text())
      .get()
    expect(reasons.length).toBe(new Set(na.map((check: { naReason?: string }) => check.naReason)).size)
    // Every top fix carries its gain; those with a remedy a code block and its copy button.
    expect(
      $('ol.fixes .gain')
        .map((_, element) => $(element).text())
        .get()
        .every((gain) => /^\+[\d.]+ points$/.test(gain)),
    ).toBe(true)
    const blocks = $('ol.fixes article.check > figure.code')
    expect(blocks.length).toBeGreaterThan(0)
    blocks.each((_, element) => {
      const code = $(element).find('pre code')
      expect(code.text().length).toBeGreaterThan(10)
      expect(
        $(element)
          .find(`button[data-copy-target="${code.attr('id')}"]`)
          .text(),
      ).toBe('Copy')
    })
    // This site has no robots.txt: its fix is the file to publish, with per-server recipes.
    expect($('ol.fixes #check-robots-txt pre code').first().text()).toStartWith('User-agent: *\n')
    expect($('ol.fixes #check-robots-txt .recipes summary').text()).toContain('nginx')
    // Failing required checks are marked as such; a required-tier warning is an improvement and carries no mark.
    const required = $('article.check')
      .filter((_, element) => $(element).find('.tag-required').length > 0)
      .map((_, element) => $(element).attr('data-check-id'))
      .get()
    for (const id of required) expect(checks.find((check: { id: string }) => check.id === id)?.status).toBe('fail')
  })

  test('the audit url of a scan opens its report', async () => {
    const audit = await (await get(`/api/score/${DOMAIN}?format=audit`)).json()
    const path = new URL(audit.url).pathname
    await page(path)
  })

  test('the score history is a server-rendered SVG once there are two scans', async () => {
    const response = await handle.app.handle(
      request('/api/scan', { method: 'POST', json: { url: DOMAIN, force: true } }),
    )
    expect(response.status).toBe(200)
    const { $ } = await page(`/site/${DOMAIN}`)
    expect($('svg.sparkline polyline').attr('points')?.split(' ').length).toBeGreaterThanOrEqual(2)
    expect($('svg.sparkline').attr('aria-label')).toStartWith('Score history over')
  })

  test('the catalog has an anchor per check id and filters with ?q=', async () => {
    const catalog = await (await get('/api/checks')).json()
    const { $ } = await page('/checks')
    for (const check of catalog.checks) expect($(`article#${check.id}`).length).toBe(1)
    const filtered = (await page('/checks?q=llms.txt')).$
    expect(filtered('article.check').length).toBeGreaterThan(0)
    expect(filtered('article.check').length).toBeLessThan(catalog.checks.length)
    // The table of contents links every layer and check shown.
    expect($('nav.toc a[href="#layer-discovery"]').length).toBe(1)
    expect($('nav.toc a[href^="#"]').length).toBe(catalog.checks.length + catalog.layers.length)
  })

  /** The ids of the checks the catalog page shows at `path`, sorted. */
  const shownIds = async (path: string) =>
    (await page(path))
      .$('article.check')
      .map((_, element) => element.attribs.id)
      .get()
      .sort()

  test('the catalog filters by layer, tier and kind, and an empty select means all', async () => {
    const catalog = (await (await get('/api/checks')).json()) as {
      checks: { id: string; layer: string; tier: string; appliesTo: string[] }[]
    }
    const expected = (keep: (check: (typeof catalog.checks)[number]) => boolean) =>
      catalog.checks
        .filter(keep)
        .map((check) => check.id)
        .sort()
    expect(await shownIds('/checks?layer=payments')).toEqual(expected((check) => check.layer === 'payments'))
    expect(await shownIds('/checks?tier=required&kind=mcp')).toEqual(
      expected((check) => check.tier === 'required' && check.appliesTo.includes('mcp')),
    )
    expect(await shownIds('/checks?layer=&tier=&kind=&q=&scoring=')).toEqual(expected(() => true))
    const { $ } = await page('/checks?layer=payments')
    expect($('#check-layer option[selected]').attr('value')).toBe('payments')
    await page('/checks?tier=mandatory', 400)
  })

  test('the catalog filters bonus extras apart from scored checks, and tags each bonus check', async () => {
    const catalog = (await (await get('/api/checks')).json()) as { checks: { id: string; bonus: boolean }[] }
    const bonus = catalog.checks
      .filter((check) => check.bonus)
      .map((check) => check.id)
      .sort()
    expect(bonus.length).toBeGreaterThan(0)
    expect(await shownIds('/checks?scoring=bonus')).toEqual(bonus)
    expect(await shownIds('/checks?scoring=scored')).toEqual(
      catalog.checks
        .filter((check) => !check.bonus)
        .map((check) => check.id)
        .sort(),
    )
    const { $ } = await page('/checks?scoring=bonus')
    expect($('#check-scoring option[selected]').attr('value')).toBe('bonus')
    expect($('article.check .tag-bonus').length).toBe(bonus.length)
    await page('/checks?scoring=extra', 400)
  })

  test('the leaderboard lists the published domain with its category name, kind and scan date, and keeps its filters', async () => {
    const { $ } = await page('/leaderboard?kind=domain')
    expect($('table a[href="/site/xss.test"]').length).toBe(1)
    const row = $('table a[href="/site/xss.test"]').closest('tr')
    expect(row.find('.kind').text()).toBe('Website')
    expect(row.find('.date time').attr('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/)
    expect(row.find('.category').text()).not.toMatch(/^[a-z]+(-[a-z]+)+$/)
    // Category options read as names, not slugs.
    expect($('#filter-category option[value="ecommerce-retail"]').text()).toBe('E-commerce & Retail')
    expect($('#filter-kind option[selected]').attr('value')).toBe('domain')
    expect((await page('/leaderboard?kind=mcp')).$('table a[href="/site/xss.test"]').length).toBe(0)
  })

  test('the API page links Swagger UI, the OpenAPI document and the MCP documentation, and shows its placeholders as text', async () => {
    const { $ } = await page('/api')
    for (const href of ['/openapi.json', '#mcp']) expect($(`a[href="${href}"]`).length).toBe(1)
    expect($('a[href="/swagger"]').length).toBeGreaterThan(0)
    // The endpoint takes JSON-RPC POSTs only: a link a browser would follow to it would end in 405.
    expect($('a[href="/api/mcp"]').length).toBe(0)
    expect($('h2#mcp').length).toBe(1)
    expect($('main p code').first().text()).toBe('/site/<domain>.md')
    expect($('domain').length).toBe(0)
  })

  test('the API page lists every tool the MCP server lists, from its registry', async () => {
    const listed = (await (
      await handle.app.handle(
        request('/api/mcp', {
          method: 'POST',
          json: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
          headers: { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
        }),
      )
    ).json()) as { result: { tools: { name: string }[] } }
    const names = listed.result.tools.map((tool) => tool.name)
    expect(names.length).toBeGreaterThanOrEqual(13)
    const { $ } = await page('/api')
    expect(
      $('#mcp-tools tbody tr td:first-child code')
        .map((_, element) => $(element).text())
        .get(),
    ).toEqual(names)
    expect($('#mcp-tools caption').text()).toBe(`The ${names.length} tools`)
  })
})

describe('errors are HTML pages with the right status', () => {
  test('a domain never scanned: 404 with a scan button', async () => {
    const { $ } = await page('/site/never-scanned.example', 404)
    expect($('form[action="/scan"] input[name="url"]').val()).toBe('never-scanned.example')
    expect($('meta[name="robots"]').attr('content')).toBe('noindex')
  })

  test.each([
    '/site/not..a..domain',
    '/site/%3Cscript%3E',
    '/site/a%00b',
    '/leaderboard?kind=nope',
    '/leaderboard?page=0',
  ])('%s: 400', async (path) => {
    await page(path, 400)
  })

  test('a mixed-case or URL-shaped domain redirects to its canonical report', async () => {
    const response = await get('/site/XSS.test')
    expect(response.status).toBe(301)
    expect(response.headers.get('location')).toBe(`/site/${DOMAIN}`)
  })

  test('form errors: an empty target and an unknown check id are 400 pages', async () => {
    for (const [path, fields] of [
      ['/scan', { url: '' }],
      [`/site/${DOMAIN}/recheck`, { checkId: 'no-such-check' }],
      [`/site/${DOMAIN}/recheck`, { __proto__: 'x' } as Record<string, string>],
    ] as const) {
      const response = await handle.app.handle(form(path, fields))
      expect(response.status).toBe(400)
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
      expectStrictCsp(response)
    }
  })

  test('hostile input never answers 5xx', async () => {
    const paths = [
      '/site/',
      '/site/%E0%A4%A',
      '/site/..%2F..%2Fetc',
      `/site/${'a'.repeat(3000)}.com`,
      '/site/xss.test.md.md',
      '/checks?q=%00',
      `/checks?q=${'x'.repeat(500)}`,
      '/assets/..%2Fservice.ts',
      '/leaderboard?category=%3Cb%3E',
    ]
    for (const path of paths) {
      const response = await get(path)
      expect({ path, server: response.status >= 500 }).toEqual({ path, server: false })
    }
    for (const body of ['url=%00', 'url=' + 'a'.repeat(5000), '=&&=', 'checkId=%ED%A0%80']) {
      const response = await handle.app.handle(
        request(`/site/${DOMAIN}/recheck`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      )
      expect(response.status).toBe(400)
    }
  })

  test('the JSON API still refuses form bodies', async () => {
    const response = await handle.app.handle(form('/api/scan', { url: DOMAIN }))
    expect(response.status).toBe(415)
    expect((await response.json()).code).toBe('UNSUPPORTED_MEDIA_TYPE')
  })
})

describe('re-check', () => {
  test('a check re-runs, and the report it redirects to shows the outcome on the card itself, saying it is not saved', async () => {
    const response = await handle.app.handle(form(`/site/${DOMAIN}/recheck`, { checkId: 'llms-txt' }))
    expect(response.status).toBe(303)
    const location = response.headers.get('location')!
    expect(location).toMatch(/^\/site\/xss\.test\?recheck=[0-9a-f-]{36}#check-llms-txt$/)
    const { response: shown, $ } = await page(location.split('#')[0]!)
    const card = $('#check-llms-txt')
    expect(card.find('.recheck-notice').text()).toContain('Re-checked just now')
    // Where the result shows, it says it is not saved and offers the scan that publishes it: a fresh scan of this very target.
    expect(card.find('.recheck-notice').text()).toContain('Not saved: scan again to publish.')
    expect(card.find('.recheck-notice form[action="/scan"] input[name="url"]').val()).toBe(`https://${DOMAIN}/`)
    expect(card.find('.recheck-notice form[action="/scan"] input[name="force"]').val()).toBe('1')
    expect(card.find('.recheck-notice button').text()).toBe('Scan again to publish')
    expect($('#report-summary .notice').text()).toContain('Not saved:')
    expect(shown.headers.get('cache-control')).toBe('no-store')
    // The offered scan is a fresh one, not the stored result served again.
    expect($('form[action="/scan"] input[name="force"]').val()).toBe('1')
  })

  test('with a scan key the stored report is patched, and the card says so', async () => {
    const key = await handle.pieces.keys.create('scan', 'web re-check test')
    const keyed = form(`/site/${DOMAIN}/recheck`, { checkId: 'llms-txt' })
    keyed.headers.set('authorization', `Bearer ${key.key}`)
    const response = await handle.app.handle(keyed)
    expect(response.status).toBe(303)
    const { $ } = await page(response.headers.get('location')!.split('#')[0]!)
    expect($('#check-llms-txt .recheck-notice').text()).toContain('The stored report is updated.')
    expect($('#report-summary').text()).not.toContain('Not saved')
  })
})

describe('journeys', () => {
  /**
   * The runs these tests start, with a compare run's partner. The report lists them with their status, so they must
   * have ended before later tests read the report twice and compare the bytes.
   */
  const started: string[] = []
  afterAll(async () => {
    for (const id of started) await untilEnded(handle, id)
  })

  test('the journeys page starts a curated run with a plain form, and the run page shows it', async () => {
    const { $ } = await page('/journeys')
    const intent = $('#journey-intent option').first().attr('value')!
    const response = await handle.app.handle(form('/journeys', { domain: DOMAIN, intent }))
    expect(response.status).toBe(303)
    const location = response.headers.get('location')!
    expect(location).toMatch(/^\/journeys\/[^/]+$/)
    started.push(location.split('/').pop()!)
    const run = (await page(location)).$
    expect(run('h1 a[href="/site/xss.test"]').length).toBe(1)
    expect(run('#journey-status').text()).toContain('Status:')
    // The report lists the domain's journeys.
    expect((await page(`/site/${DOMAIN}`)).$(`#journeys-title ~ ul a[href="${location}"]`).length).toBe(1)
  })

  test('the journeys page offers every public agent and a compare run, and the form starts both runs', async () => {
    const { agents } = (await (await get('/api/journey/agents')).json()) as { agents: { id: string }[] }
    expect(agents.length).toBeGreaterThanOrEqual(4)
    const { $ } = await page('/journeys')
    expect(
      $('#journey-agent option')
        .map((_, element) => element.attribs.value)
        .get(),
    ).toEqual(agents.map((agent) => agent.id))
    expect($('input#journey-compare[type="checkbox"][name="compare"]').length).toBe(1)
    expect($('label[for="journey-agent"]').length + $('label[for="journey-compare"]').length).toBe(2)
    const intent = $('#journey-intent option').first().attr('value')!
    const response = await handle.app.handle(
      form('/journeys', { domain: DOMAIN, intent, agent: 'claude-user', compare: '1' }),
    )
    expect(response.status).toBe(303)
    const id = response.headers.get('location')!.split('/').pop()!
    const run = (await (await get(`/api/journey/runs/${id}`)).json()) as {
      agent: { id: string }
      identity: string
      compare: { role: string; run_id: string } | null
    }
    expect(run).toMatchObject({ agent: { id: 'claude-user' }, identity: 'Claude-User', compare: { role: 'agent' } })
    started.push(id, run.compare!.run_id)
    expect(
      (await handle.app.handle(form('/journeys', { domain: DOMAIN, intent, agent: 'no-such-agent' }))).status,
    ).toBe(400)
  })

  test('the journeys page fills its {domain} placeholders and lists the recent runs', async () => {
    const { text, $ } = await page('/journeys')
    expect(text).not.toContain('{domain}')
    expect($('[data-domain-slot]').first().text()).toBe('example.com')
    expect($('#journey-domain[data-domain-source]').length).toBe(1)
    const links = $('ul.runs a')
      .map((_, element) => element.attribs.href)
      .get()
    expect(links.length).toBeGreaterThan(0)
    for (const href of links) expect(href).toMatch(/^\/journeys\/jr_/)
    expect($('ul.runs').text()).toContain(`on ${DOMAIN}`)
  })

  test('an unknown run is a 404 page and an unknown intent a 400 page', async () => {
    await page('/journeys/jr_nope', 404)
    const response = await handle.app.handle(form('/journeys', { domain: DOMAIN, intent: 'no-such-intent' }))
    expect(response.status).toBe(400)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
  })
})

describe('our own site practises what it measures', () => {
  test('robots.txt names the sitemap', async () => {
    const response = await get('/robots.txt')
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(await response.text()).toContain('Sitemap: http://localhost:3000/sitemap.xml')
  })

  test('llms.txt opens with an H1 and a summary, and links the reports in Markdown', async () => {
    const text = await (await get('/llms.txt')).text()
    expect(text.split('\n')[0]).toBe('# agent-readiness')
    expect(text).toContain('\n> ')
    expect(text).toContain(`(http://localhost:3000/site/${DOMAIN}.md)`)
  })

  test('the sitemap lists the pages and every published report', async () => {
    const response = await get('/sitemap.xml')
    expect(response.headers.get('content-type')).toBe('application/xml; charset=utf-8')
    const locs = load(await response.text(), { xml: true })('url > loc')
      .map((_, element) => load(element).text())
      .get()
    expect(locs).toContain('http://localhost:3000/')
    expect(locs).toContain(`http://localhost:3000/site/${DOMAIN}`)
  })

  test('the report has a Markdown alternate by suffix and by Accept', async () => {
    for (const response of [
      await get(`/site/${DOMAIN}.md`),
      await get(`/site/${DOMAIN}`, { accept: 'text/markdown, text/html;q=0.5' }),
    ]) {
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
      const text = await response.text()
      expect(text).toStartWith(`# Agent-readiness report: ${DOMAIN}`)
      // The same fix-first order as the page, with the snippet as a fenced block.
      const order = ['## Top fixes', '## Layers', '## Passed (', '## Not applicable ('].map((heading) =>
        text.indexOf(heading),
      )
      expect(order.every((at, index) => at > 0 && (index === 0 || at > order[index - 1]!))).toBe(true)
      expect(text).toContain('```text\nUser-agent: *\n')
      expect(text).not.toMatch(/\| 0 \/ 0 \|/)
    }
    expect((await get('/site/never-scanned.example.md')).status).toBe(404)
  })

  test('the homepage names the API catalog, API description, docs, Markdown twin and sitemap, and negotiates Markdown', async () => {
    const page = await get('/')
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('vary')).toBe('Accept, Accept-Encoding')
    const link = page.headers.get('link') ?? ''
    for (const entry of [
      '</.well-known/api-catalog>; rel="api-catalog"',
      '</openapi.json>; rel="service-desc"; type="application/openapi+json"',
      '</api>; rel="service-doc"',
      '</index.md>; rel="alternate"; type="text/markdown"',
      '</sitemap.xml>; rel="sitemap"',
    ])
      expect(link).toContain(`<http://localhost:3000${entry.slice(1)}`)
    const $ = load(await page.text())
    expect($('link[rel="alternate"][type="text/markdown"]').attr('href')).toBe('/index.md')
    expect($('form[toolname="scan_site"][tooldescription]').length).toBe(1)
    for (const response of [await get('/', { accept: 'text/markdown, text/html;q=0.5' }), await get('/index.md')]) {
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
      expect(await response.text()).toStartWith('# How ready is your site for AI agents?')
    }
    expect((await get('/', { accept: 'text/markdown, text/html;q=0.5' })).headers.get('vary')).toBe(
      'Accept, Accept-Encoding',
    )
  })

  test('the RFC 9727 API catalog lists the REST API and the MCP server; HEAD carries rel="api-catalog"', async () => {
    const response = await get('/.well-known/api-catalog')
    expect(response.headers.get('content-type')).toBe(
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    )
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    const { linkset } = (await response.json()) as { linkset: { anchor: string; 'service-desc': { href: string }[] }[] }
    expect(linkset.map((entry) => entry.anchor)).toEqual(['http://localhost:3000/api', 'http://localhost:3000/api/mcp'])
    expect(linkset[0]!['service-desc'][0]!.href).toBe('http://localhost:3000/openapi.json')
    const head = await handle.app.handle(request('/.well-known/api-catalog', { method: 'HEAD' }))
    expect(head.headers.get('link')).toContain('rel="api-catalog"')
  })

  test('robots.txt states the AI policy; llms-full.txt carries the catalog; public metadata allows CORS; the og:image exists', async () => {
    const robots = await (await get('/robots.txt')).text()
    expect(robots).toContain('User-agent: *\nContent-Signal: search=yes, ai-input=yes, ai-train=no\nAllow: /')
    expect(robots).toContain('User-agent: ChatGPT-User')
    expect(robots).toContain('User-agent: GPTBot')
    const full = await get('/llms-full.txt')
    const text = await full.text()
    expect(text.split('\n')[0]).toBe('# agent-readiness')
    expect(text).toContain('(`llms-full-txt`)')
    expect(text.length).toBeGreaterThan((await (await get('/llms.txt')).text()).length)
    for (const path of ['/robots.txt', '/llms.txt', '/llms-full.txt', '/sitemap.xml', '/index.md']) {
      expect((await get(path)).headers.get('access-control-allow-origin')).toBe('*')
    }
    expect(await (await get('/ai.txt')).text()).toContain('User-Agent: *\nDisallow: /')
    const index = (await (await get('/.well-known/agent-skills/index.json')).json()) as {
      skills: { name: string; url: string; digest: string }[]
    }
    const skill = await (await get(new URL(index.skills[0]!.url).pathname)).text()
    expect(skill).toStartWith(`---\nname: ${index.skills[0]!.name}\ndescription: `)
    expect(index.skills[0]!.digest).toBe(`sha256:${new Bun.CryptoHasher('sha256').update(skill).digest('hex')}`)
    const image = await get('/assets/og.png')
    expect(image.headers.get('content-type')).toBe('image/png')
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(1000)
  })
})

describe('a hostile site renders inert', () => {
  test('its markup and </script> are text on the report, in JSON-LD and in Markdown', async () => {
    const { text, $ } = await page(`/site/${DOMAIN}`)
    // Nothing the site sent became an element or an attribute.
    expect($('img[onerror], svg[onload], [onerror], [onload]').length).toBe(0)
    expect(
      $('script:not([type="application/ld+json"])').filter((_, element) => $(element).text().includes('alert')).length,
    ).toBe(0)
    for (const raw of ['<img src=x onerror', '<svg onload', '<script>alert']) expect(text).not.toContain(raw)
    // ... yet it is shown: the name and the llms.txt H1 in the details, escaped.
    expect($('.site-name').text()).toBe(PAYLOADS.name)
    expect($('#check-llms-txt').text()).toContain(PAYLOADS.llmsH1)
    // JSON-LD: no `<` survives inside the element, and the data decodes back to the site's own text.
    const ld = $('script[type="application/ld+json"]')
    const raw = text.slice(
      text.indexOf('<script type="application/ld+json"'),
      text.indexOf('</script>', text.indexOf('application/ld+json')),
    )
    expect(raw.slice(raw.indexOf('>') + 1)).not.toContain('<')
    expect(JSON.parse(ld.text()).about.name).toBe(PAYLOADS.name)
    const markdown = await (await get(`/site/${DOMAIN}.md`)).text()
    expect(markdown).not.toContain('<img')
    expect(markdown).not.toContain('</script>')
  })
})

describe('delivery: compression, caching, favicon', () => {
  const decoded = async (response: Response) => {
    const bytes = new Uint8Array(await response.arrayBuffer())
    const coding = response.headers.get('content-encoding')
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib')
    return (
      coding === 'br' ? brotliDecompressSync(bytes) : coding === 'gzip' ? gunzipSync(bytes) : Buffer.from(bytes)
    ).toString()
  }

  test.each([
    ['/', 'br', 'text/html'],
    [`/site/${DOMAIN}`, 'gzip', 'text/html'],
    ['/api/checks', 'br', 'application/json'],
    [`/site/${DOMAIN}.md`, 'gzip', 'text/markdown'],
  ])(
    '%s is sent %s-compressed to a client that accepts it, and decodes to the same document',
    async (path, coding, type) => {
      const plain = await get(path)
      expect(plain.headers.get('content-encoding')).toBeNull()
      const compressed = await get(path, { 'accept-encoding': coding === 'br' ? 'gzip, deflate, br' : 'gzip' })
      expect(compressed.headers.get('content-encoding')).toBe(coding)
      expect(compressed.headers.get('content-type')).toContain(type)
      expect(compressed.headers.get('vary')).toContain('Accept-Encoding')
      const text = await decoded(compressed)
      // Pages carry a per-request nonce; everything else about them is the same bytes.
      const strip = (body: string) => body.replace(/nonce(-|=")[A-Za-z0-9+/=]+/g, 'nonce')
      expect(strip(text)).toBe(strip(await plain.text()))
    },
  )

  test('the stylesheet is compressed; a client refusing compression (q=0) gets identity; event streams and tiny bodies are left alone', async () => {
    const { $ } = await page('/')
    const css = $('link[rel="stylesheet"]').attr('href')!
    expect((await get(css, { 'accept-encoding': 'br' })).headers.get('content-encoding')).toBe('br')
    expect((await get(css, { 'accept-encoding': 'br;q=0, gzip;q=0' })).headers.get('content-encoding')).toBeNull()
    expect((await get('/favicon.ico', { 'accept-encoding': 'br' })).headers.get('content-encoding')).toBeNull()
    const stream = await get(`/api/scan/stream?domain=${DOMAIN}`, { 'accept-encoding': 'br' })
    expect(stream.headers.get('content-type')).toContain('text/event-stream')
    expect(stream.headers.get('content-encoding')).toBeNull()
    await stream.body?.cancel()
  })

  test('pages link fingerprinted assets cached for a year; the plain names keep a short cache', async () => {
    const { $ } = await page('/')
    const css = $('link[rel="stylesheet"]').attr('href')!
    const script = $('script[src]').attr('src')!
    const icon = $('link[rel="icon"]').attr('href')!
    for (const path of [css, script, icon]) {
      expect(path).toMatch(/^\/assets\/[a-z]+\.[0-9a-f]{12}\.(css|js|svg)$/)
      const response = await get(path)
      expect(response.status).toBe(200)
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    }
    const plain = await get('/assets/site.css')
    expect(plain.headers.get('cache-control')).toBe('public, max-age=3600')
    expect(await plain.text()).toBe(await (await get(css)).text())
    expect((await get('/assets/site.000000000000.css')).status).toBe(404)
  })

  test('/favicon.ico is an icon, not a 404', async () => {
    const response = await get('/favicon.ico')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/x-icon')
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect([...bytes.slice(0, 4)]).toEqual([0, 0, 1, 0])
  })
})
