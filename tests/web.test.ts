import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { load } from 'cheerio'
import type { AppHandle } from '../core/app.ts'
import { PAYLOADS, startXssSite, type XssSite } from './fixtures/sites/xss/site.ts'
import { request } from './helpers.ts'
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
  request(path, { method: 'POST', body: new URLSearchParams(fields).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } })

const get = (path: string, headers: Record<string, string> = {}) => handle.app.handle(request(path, { headers }))

beforeAll(async () => {
  site = startXssSite(DOMAIN)
  // Without a browser rendered checks end at once (error), so every scan here is complete and published.
  world = await startWorld([], { browser: null, extraResolve: [site.resolveRule] })
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
  for (const directive of ["default-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) expect(csp).toContain(directive)
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
  test.each(['/', '/journeys', '/leaderboard', '/leaderboard?kind=domain&category=', '/checks', '/checks?q=robots', '/api', `/site/${DOMAIN}`])('%s is 200 HTML under the CSP', async (path) => {
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
        expect(script.attr('src') === '/assets/app.js' || script.attr('type') === 'application/ld+json').toBe(true)
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

  test('the report has the gauge, grade, layer bars, fixes, every check with a re-check form, history, badge snippets and share metadata', async () => {
    const { response, $ } = await page(`/site/${DOMAIN}`)
    const score = await (await get(`/api/score/${DOMAIN}`)).json()
    expect($('svg.gauge').attr('aria-label')).toBe(`Score ${score.score} out of 100, grade ${score.grade}`)
    expect($('.grade-letter').text()).toBe(score.grade)
    expect($('.layers meter').length).toBe(4)
    expect($('ol.fixes li').length).toBe(score.topFixes.length)
    const checks = score.layers.flatMap((layer: { checks: unknown[] }) => layer.checks)
    expect($('article.check').length).toBe(checks.length)
    expect($('article.check form[action="/site/xss.test/recheck"] input[name="checkId"]').length).toBe(checks.length)
    expect($('#check-llms-txt').length).toBe(1)
    expect($('#badge-markdown').text()).toContain(`(http://localhost:3000/api/badge/${DOMAIN})`)
    expect($('#badge-html').val()).toContain(`<img src="http://localhost:3000/api/badge/${DOMAIN}"`)
    expect($('meta[property="og:title"]').attr('content')).toBe(`${DOMAIN} scores ${score.score}/100 (${score.grade}) for AI-agent readiness`)
    expect($('meta[property="og:url"]').attr('content')).toBe(`http://localhost:3000/site/${DOMAIN}`)
    expect($('meta[name="twitter:card"]').attr('content')).toBe('summary_large_image')
    expect($('meta[property="og:image"]').attr('content')).toBe('http://localhost:3000/assets/og.png')
    expect(response.headers.get('link')).toBe(`</site/${DOMAIN}.md>; rel="alternate"; type="text/markdown"`)
    const ld = JSON.parse($('script[type="application/ld+json"]').text())
    expect(ld['@type']).toBe('WebPage')
    expect(ld.review.reviewRating.ratingValue).toBe(score.score)
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
  })

  test('the leaderboard lists the published domain and keeps its filters', async () => {
    const { $ } = await page('/leaderboard?kind=domain')
    expect($('table a[href="/site/xss.test"]').length).toBe(1)
    expect($('#filter-kind option[selected]').attr('value')).toBe('domain')
    expect((await page('/leaderboard?kind=mcp')).$('table a[href="/site/xss.test"]').length).toBe(0)
  })

  test('the API page links Swagger UI, the OpenAPI document and the MCP endpoint', async () => {
    const { $ } = await page('/api')
    for (const href of ['/swagger', '/openapi.json', '/api/mcp']) expect($(`a[href="${href}"]`).length).toBe(1)
  })
})

describe('errors are HTML pages with the right status', () => {
  test('a domain never scanned: 404 with a scan button', async () => {
    const { $ } = await page('/site/never-scanned.example', 404)
    expect($('form[action="/scan"] input[name="url"]').val()).toBe('never-scanned.example')
    expect($('meta[name="robots"]').attr('content')).toBe('noindex')
  })

  test.each(['/site/not..a..domain', '/site/%3Cscript%3E', '/site/a%00b', '/leaderboard?kind=nope', '/leaderboard?page=0'])('%s: 400', async (path) => {
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
    const paths = ['/site/', '/site/%E0%A4%A', '/site/..%2F..%2Fetc', `/site/${'a'.repeat(3000)}.com`, '/site/xss.test.md.md', '/checks?q=%00', `/checks?q=${'x'.repeat(500)}`, '/assets/..%2Fservice.ts', '/leaderboard?category=%3Cb%3E']
    for (const path of paths) {
      const response = await get(path)
      expect({ path, server: response.status >= 500 }).toEqual({ path, server: false })
    }
    for (const body of ['url=%00', 'url=' + 'a'.repeat(5000), '=&&=', 'checkId=%ED%A0%80']) {
      const response = await handle.app.handle(
        request(`/site/${DOMAIN}/recheck`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
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
  test('a check re-runs, and the report it redirects to shows the outcome', async () => {
    const response = await handle.app.handle(form(`/site/${DOMAIN}/recheck`, { checkId: 'llms-txt' }))
    expect(response.status).toBe(303)
    const location = response.headers.get('location')!
    expect(location).toMatch(/^\/site\/xss\.test\?recheck=[0-9a-f-]{36}#check-llms-txt$/)
    const { $ } = await page(location.split('#')[0]!)
    expect($('#recheck-title').text()).toContain('llms-txt')
    expect($('section.notice li').length).toBeGreaterThan(0)
  })
})

describe('journeys', () => {
  test('the journeys page starts a curated run with a plain form, and the run page shows it', async () => {
    const { $ } = await page('/journeys')
    const intent = $('#journey-intent option').first().attr('value')!
    const response = await handle.app.handle(form('/journeys', { domain: DOMAIN, intent }))
    expect(response.status).toBe(303)
    const location = response.headers.get('location')!
    expect(location).toMatch(/^\/journeys\/[^/]+$/)
    const run = (await page(location)).$
    expect(run('h1 a[href="/site/xss.test"]').length).toBe(1)
    expect(run('#journey-status').text()).toContain('Status:')
    // The report lists the domain's journeys.
    expect((await page(`/site/${DOMAIN}`)).$(`#journeys-title ~ ul a[href="${location}"]`).length).toBe(1)
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
    const locs = load(await response.text(), { xml: true })('url > loc').map((_, element) => load(element).text()).get()
    expect(locs).toContain('http://localhost:3000/')
    expect(locs).toContain(`http://localhost:3000/site/${DOMAIN}`)
  })

  test('the report has a Markdown alternate by suffix and by Accept', async () => {
    for (const response of [await get(`/site/${DOMAIN}.md`), await get(`/site/${DOMAIN}`, { accept: 'text/markdown, text/html;q=0.5' })]) {
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
      const text = await response.text()
      expect(text).toStartWith(`# Agent-readiness report: ${DOMAIN}`)
      expect(text).toContain('## Top fixes')
    }
    expect((await get('/site/never-scanned.example.md')).status).toBe(404)
  })

  test('the homepage names the API catalog, API description, docs, Markdown twin and sitemap, and negotiates Markdown', async () => {
    const page = await get('/')
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('vary')).toBe('Accept')
    const link = page.headers.get('link') ?? ''
    for (const entry of [
      '</.well-known/api-catalog>; rel="api-catalog"',
      '</openapi.json>; rel="service-desc"; type="application/openapi+json"',
      '</api>; rel="service-doc"',
      '</index.md>; rel="alternate"; type="text/markdown"',
      '</sitemap.xml>; rel="sitemap"',
    ]) expect(link).toContain(`<http://localhost:3000${entry.slice(1)}`)
    const $ = load(await page.text())
    expect($('link[rel="alternate"][type="text/markdown"]').attr('href')).toBe('/index.md')
    expect($('form[toolname="scan_site"][tooldescription]').length).toBe(1)
    for (const response of [await get('/', { accept: 'text/markdown, text/html;q=0.5' }), await get('/index.md')]) {
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8')
      expect(await response.text()).toStartWith('# How ready is your site for AI agents?')
    }
    expect((await get('/', { accept: 'text/markdown, text/html;q=0.5' })).headers.get('vary')).toBe('Accept')
  })

  test('the RFC 9727 API catalog lists the REST API and the MCP server; HEAD carries rel="api-catalog"', async () => {
    const response = await get('/.well-known/api-catalog')
    expect(response.headers.get('content-type')).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"')
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
    const index = (await (await get('/.well-known/agent-skills/index.json')).json()) as { skills: { name: string; url: string; digest: string }[] }
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
    expect($('script:not([type="application/ld+json"])').filter((_, element) => $(element).text().includes('alert')).length).toBe(0)
    for (const raw of ['<img src=x onerror', '<svg onload', '<script>alert']) expect(text).not.toContain(raw)
    // ... yet it is shown: the name and the llms.txt H1 in the details, escaped.
    expect($('.site-name').text()).toBe(PAYLOADS.name)
    expect($('#check-llms-txt').text()).toContain(PAYLOADS.llmsH1)
    // JSON-LD: no `<` survives inside the element, and the data decodes back to the site's own text.
    const ld = $('script[type="application/ld+json"]')
    const raw = text.slice(text.indexOf('<script type="application/ld+json"'), text.indexOf('</script>', text.indexOf('application/ld+json')))
    expect(raw.slice(raw.indexOf('>') + 1)).not.toContain('<')
    expect(JSON.parse(ld.text()).about.name).toBe(PAYLOADS.name)
    const markdown = await (await get(`/site/${DOMAIN}.md`)).text()
    expect(markdown).not.toContain('<img')
    expect(markdown).not.toContain('</script>')
  })
})
