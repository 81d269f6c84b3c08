// Issue 27's acceptance list, checked on fixture sites written apart from tests/fixtures/sites: robots.txt shapes
// that refuse the main AI assistants, the service's own llms.txt template pasted unedited, dead llms.txt links, an
// llms.txt without a price, empty client-rendered shells of several frameworks, an edge answering an assistant
// with a bare 403/429/503, and the reference MCP server whose only gaps are warnings.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createEngine } from '../app/engine.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { scanUrl } from './support/scan.ts'
import { buildReportModel, requiredCheckFails } from '../core/report/index.ts'
import { availableAgents } from '../journeys/agents/index.ts'
import { intentPrompt } from '../journeys/types.ts'
import { intentById } from '../journeys/intents/index.ts'
import { runJourney } from '../journeys/runner.ts'
import { startServerEverything } from './fixtures/mcp/everything.ts'
import { resolveRules as mcpResolveRules } from './fixtures/mcp/server.ts'
import { request, testConfig } from './helpers.ts'
import { startWorld } from './support/world.ts'

const HTML = { 'content-type': 'text/html; charset=utf-8' }
const page = (title: string, body: string, head = '') =>
  `<!doctype html><html lang="en"><head><title>${title}</title>${head}</head><body>${body}</body></html>`
const jsonLd =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Lumen Tools"}</script>'
const HOME = page(
  'Lumen Tools',
  `<main><h1>Lumen Tools</h1><p>${'Lumen Tools makes torque drivers and calibrated gauges for repair shops. '.repeat(20)}</p><a href="/docs/">Docs</a></main>`,
  `<meta name="description" content="Torque drivers for repair shops.">${jsonLd}`,
)

const ASSISTANTS = ['ChatGPT-User', 'Claude-User', 'Perplexity-User']
const ROBOTS = {
  'one-group': `${ASSISTANTS.map((agent) => `User-agent: ${agent}`).join('\n')}\nDisallow: /\n`,
  'separate-groups': ASSISTANTS.map((agent) => `User-agent: ${agent}\nDisallow: /\n`).join('\n'),
  'with-search-bots': `${[...ASSISTANTS, 'OAI-SearchBot', 'PerplexityBot', 'Claude-SearchBot'].map((agent) => `User-agent: ${agent}`).join('\n')}\nDisallow: /\n\nUser-agent: *\nAllow: /\n`,
  'star-allow-first': `User-agent: *\nAllow: /\n\n${ASSISTANTS.map((agent) => `User-agent: ${agent}`).join('\n')}\nDisallow: /\n`,
} as const
const TRAINING_ONLY = `${['GPTBot', 'ClaudeBot', 'CCBot', 'Google-Extended', 'Applebot-Extended', 'Bytespider'].map((agent) => `User-agent: ${agent}`).join('\n')}\nDisallow: /\n\nUser-agent: *\nAllow: /\n`

const SHELLS = {
  react: page('App', '<div id="root"></div><script src="/static/js/main.js"></script>', jsonLd),
  next: page(
    'App',
    '<div id="__next"></div><script id="__NEXT_DATA__" type="application/json">{"props":{}}</script><script src="/_next/static/app.js"></script>',
    jsonLd,
  ),
  vue: page('App', '<div id="app"></div><script type="module" src="/assets/index.js"></script>', jsonLd),
  plain: page('App', '<script src="/bundle.js"></script>', jsonLd),
} as const

interface Site {
  robots?: string
  llms?: (origin: string) => string
  home?: string
  /** Status the edge answers ChatGPT-User with, and on which paths (all when absent). */
  edge?: { status: number; paths?: string[] }
  sitemap?: boolean
}

const TEMPLATE = (origin: string) =>
  `# ${new URL(origin).hostname}\n\n> One sentence on what ${new URL(origin).hostname} offers and who it is for.\n\n## Docs\n\n- [Getting started](${origin}/docs/): where to begin\n- [Pricing](${origin}/pricing): plans and limits\n\n## Optional\n\n- [About](${origin}/about): the company`
const SITES: Record<string, Site> = {
  'no-robots': {},
  'allow-all': { robots: 'User-agent: *\nAllow: /\n' },
  'training-only': { robots: TRAINING_ONLY },
  ...Object.fromEntries(Object.entries(ROBOTS).map(([name, robots]) => [`robots-${name}`, { robots }])),
  'llms-template': { llms: TEMPLATE },
  'llms-dead-links': {
    llms: (origin) =>
      `# Lumen Tools\n\n> Torque drivers and calibrated gauges for repair shops.\n\n## Docs\n\n- [Setup guide](${origin}/guides/setup): setup\n- [Gauge API](${origin}/api/gauges): the API\n- [Docs](${origin}/docs/): docs\n`,
  },
  'llms-no-price': {
    llms: (origin) =>
      `# Lumen Tools\n\n> Torque drivers and calibrated gauges for repair shops.\n\n## Docs\n\n- [Docs](${origin}/docs/): how to use our tools\n- [Pricing](${origin}/docs/): see our pricing\n`,
  },
  ...Object.fromEntries(Object.entries(SHELLS).map(([name, home]) => [`shell-${name}`, { home }])),
  ...Object.fromEntries(
    Object.entries(SHELLS).map(([name, home]) => [
      `rich-shell-${name}`,
      {
        home,
        sitemap: true,
        robots: 'User-agent: *\nAllow: /\n',
        llms: (origin: string) =>
          `# Lumen Tools\n\n> Torque drivers and calibrated gauges for repair shops.\n\n- [Home](${origin}/): the app\n`,
      },
    ]),
  ),
  'edge-403': { edge: { status: 403 } },
  'edge-429': { edge: { status: 429 } },
  'edge-503': { edge: { status: 503 } },
  'edge-403-pricing-only': { edge: { status: 403, paths: ['/pricing'] } },
}

function serve(site: Site) {
  return Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const url = new URL(request.url)
      const origin = `https://${request.headers.get('host')}`
      if (
        site.edge &&
        /ChatGPT-User/.test(request.headers.get('user-agent') ?? '') &&
        (!site.edge.paths || site.edge.paths.includes(url.pathname))
      ) {
        return new Response('Forbidden', { status: site.edge.status })
      }
      if (url.pathname === '/robots.txt' && site.robots) return new Response(site.robots)
      if (url.pathname === '/llms.txt' && site.llms)
        return new Response(site.llms(origin), { headers: { 'content-type': 'text/markdown' } })
      if (url.pathname === '/sitemap.xml' && site.sitemap) {
        return new Response(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/</loc></url></urlset>`,
          { headers: { 'content-type': 'application/xml' } },
        )
      }
      if (url.pathname === '/') return new Response(site.home ?? HOME, { headers: HTML })
      if (url.pathname === '/docs/')
        return new Response(page('Docs', `<h1>Docs</h1><p>${'Set the torque, then zero the gauge. '.repeat(12)}</p>`), {
          headers: HTML,
        })
      if (url.pathname === '/pricing')
        return new Response(page('Pricing', '<h1>Pricing</h1><p>Starter: $12 per month. Shop: $49 per month.</p>'), {
          headers: HTML,
        })
      return new Response('not found', { status: 404 })
    },
  })
}

const servers: ReturnType<typeof serve>[] = []
const hosts: Record<string, string> = {}
const reports = new Map<string, ScanReport>()
let everything: Awaited<ReturnType<typeof startServerEverything>>
let engine: ReturnType<typeof createEngine>

beforeAll(async () => {
  const rules: string[] = []
  for (const [name, site] of Object.entries(SITES)) {
    const server = serve(site)
    servers.push(server)
    hosts[name] = `${name}.acceptance27.test`
    rules.push(`${hosts[name]}:443:127.0.0.1:${server.port}`)
  }
  everything = await startServerEverything('everything.acceptance27.test')
  engine = createEngine(testConfig({ SCANNER_RESOLVE: [...rules, mcpResolveRules([everything])].join(',') }), {
    browser: null,
  })
  await Promise.all(
    Object.keys(SITES)
      .filter((name) => !name.startsWith('edge-'))
      .map(async (name) => reports.set(name, await scanUrl(hosts[name]!, engine, { phase: 'static' }))),
  )
  reports.set('everything', await scanUrl(everything.url, engine, { phase: 'static' }))
}, 60_000)
afterAll(async () => {
  for (const server of servers) server.stop(true)
  await everything.stop()
})

const report = (name: string) => reports.get(name)!
const status = (name: string, id: string) =>
  report(name)
    .layers.flatMap((layer) => layer.checks)
    .find((check) => check.id === id)?.status
const firstFix = (name: string) => report(name).topFixes[0]?.id
const BELOW_B = ['C', 'D', 'E', 'F']

describe('robots.txt refusing the main AI assistants', () => {
  test.each(Object.keys(ROBOTS))('%s: fails, fix #1, below B, below the same site without robots.txt', (shape) => {
    const name = `robots-${shape}`
    expect(status(name, 'robots-ai-agents-allowed')).toBe('fail')
    expect(firstFix(name)).toBe('robots-ai-agents-allowed')
    expect(BELOW_B).toContain(report(name).grade)
    expect(report(name).score).toBeLessThan(report('no-robots').score)
  })
  test('refusing training crawlers only costs nothing against allow-all', () => {
    expect(status('training-only', 'robots-ai-agents-allowed')).toBe('pass')
    expect(report('training-only').score).toBe(report('allow-all').score)
  })
})

describe('llms.txt judged on what it says', () => {
  test('the service template pasted unedited does not pass', () =>
    expect(status('llms-template', 'llms-txt')).not.toBe('pass'))
  test('dead same-origin links do not pass', () => expect(status('llms-dead-links', 'llms-txt')).not.toBe('pass'))
  test('an llms.txt without a price does not make pricing pass', () => {
    expect(status('llms-no-price', 'llms-txt')).toBe('pass')
    expect(status('llms-no-price', 'pricing-machine-readable')).not.toBe('pass')
  })
})

describe('an empty client-rendered shell', () => {
  test.each(Object.keys(SHELLS).flatMap((framework) => [`shell-${framework}`, `rich-shell-${framework}`]))(
    '%s: content-without-js is fix #1, below B',
    (name) => {
      expect(status(name, 'content-without-js')).toBe('fail')
      expect(firstFix(name)).toBe('content-without-js')
      expect(BELOW_B).toContain(report(name).grade)
    },
  )
})

describe('the reference MCP server with warning-only gaps', () => {
  test('is not told a required check fails', () => {
    const model = buildReportModel(report('everything'))
    // A required-tier warning (input schemas without additionalProperties: false) is what once drew "held back".
    expect(model.checks.some((check) => check.required && check.status === 'warning')).toBe(true)
    expect(model.verdict).toContain('no required check fails')
    expect(model.verdict).not.toContain('held back')
    // Nothing marks a check "required" (web report tag, markdown export) unless it fails.
    expect(model.checks.filter(requiredCheckFails)).toEqual([])
  })

  test('the web report page and its Markdown export say neither "required" nor "held back"', async () => {
    const world = await startWorld([], { browser: null, extraResolve: [mcpResolveRules([everything])], start: true })
    try {
      const form = new URLSearchParams({ url: everything.url }).toString()
      const scanned = await world.handle.app.handle(
        request('/scan', {
          method: 'POST',
          body: form,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      )
      expect(scanned.status).toBe(303)
      const path = scanned.headers.get('location')!
      const html = await (await world.handle.app.handle(request(path))).text()
      const markdown = await (await world.handle.app.handle(request(`${path}.md`))).text()
      expect(html).toContain('no required check fails')
      expect(markdown).toContain('no required check fails')
      for (const text of [html, markdown]) expect(text).not.toContain('held back')
      expect(html.includes('tag-required')).toBe(false)
      expect(markdown).not.toMatch(/\(required\)|\*\*required\*\*/)
    } finally {
      await world.close()
    }
  }, 30_000)
})

describe('an edge refusing ChatGPT-User with a bare status', () => {
  const chatgpt = () => availableAgents(testConfig()).find((agent) => agent.meta.id === 'chatgpt-user')!
  test.each(['edge-403', 'edge-429', 'edge-503', 'edge-403-pricing-only'])(
    '%s: the find-pricing journey ends blocked',
    async (name) => {
      const intent = intentById('find-pricing')!
      const outcome = await runJourney({
        agent: chatgpt(),
        intent,
        prompt: intentPrompt(intent.meta, hosts[name]!),
        domain: hosts[name]!,
        deps: engine,
      })
      expect(outcome.verdict.outcome).toBe('blocked')
    },
  )
})
