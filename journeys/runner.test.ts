import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../core/config.ts'
import { createEngine } from '../app/engine.ts'
import { createBrowserProvider } from '../core/engine/browser-puppeteer.ts'
import { recordingSite } from '../tests/support/collector.ts'
import { type FixtureSite, startFixtureSite } from '../tests/fixtures/sites/server.ts'
import deterministic from './agents/deterministic.ts'
import findPricing from './intents/find-pricing.ts'
import readDocsMarkdown from './intents/read-docs-markdown.ts'
import { runJourney, stepFingerprint } from './runner.ts'

let excellent: FixtureSite
beforeAll(async () => {
  excellent = await startFixtureSite('excellent')
})
afterAll(() => excellent.stop())

const changing = recordingSite()
const CHANGING_HOST = 'changing.test'

function deps(env: Record<string, string> = {}) {
  const rules = [excellent.resolveRule, `${CHANGING_HOST}:443:127.0.0.1:${new URL(changing.origin).port}`].join(',')
  return createEngine(loadConfig({ SCANNER_ALLOW_PRIVATE: 'true', SCANNER_RESOLVE: rules, ...env }), {
    browser: null,
  })
}

const run = (domain: string, env: Record<string, string> = {}) =>
  runJourney({ agent: deterministic, intent: findPricing, prompt: findPricing.meta.prompt, domain, deps: deps(env) })

const html = (body: string) => () =>
  new Response(`<!doctype html><html><head><title>Acme</title></head><body>${body}</body></html>`, {
    headers: { 'content-type': 'text/html' },
  })

describe('reproducibility', () => {
  test('five deterministic runs on an unchanged site give identical trajectories, verdicts and digests', async () => {
    const runs = []
    for (let index = 0; index < 5; index++) runs.push(await run(excellent.host))
    const [first, ...rest] = runs
    expect(first!.verdict.outcome).toBe('success')
    expect(first!.steps.length).toBeGreaterThan(2)
    for (const other of rest) {
      expect(other.steps.map(stepFingerprint)).toEqual(first!.steps.map(stepFingerprint))
      expect(other.verdict).toEqual(first!.verdict)
      expect(other.content_digest).toBe(first!.content_digest)
      expect(other.trajectory_digest).toBe(first!.trajectory_digest)
    }
  })

  test('a changed site changes the content digest, so "the site changed" is told apart from "the agent varied"', async () => {
    changing.routes['/'] = html('<a href="/pricing">Pricing</a>')
    changing.routes['/pricing'] = html('<h1>Pricing</h1><p>Pro plan: $20 per month</p>')
    const before = await run(CHANGING_HOST)
    changing.routes['/pricing'] = html('<h1>Pricing</h1><p>Pro plan: $25 per month</p>')
    const after = await run(CHANGING_HOST)
    expect(before.verdict.outcome).toBe('success')
    expect(after.verdict.outcome).toBe('success')
    // The same walk, over different content.
    expect(after.trajectory_digest).toBe(before.trajectory_digest)
    expect(after.content_digest).not.toBe(before.content_digest)
  })
})

describe('the tools an agent goes through', () => {
  test('robots.txt rules for our agent are honoured: a disallowed page is a blocked step, never fetched', async () => {
    changing.routes['/robots.txt'] = () =>
      new Response('User-agent: AgentReadiness\nDisallow: /pricing\n', { headers: { 'content-type': 'text/plain' } })
    changing.routes['/'] = html('<a href="/pricing">Pricing</a>')
    changing.routes['/pricing'] = html('<h1>Pricing</h1><p>$20 per month</p>')
    const outcome = await run(CHANGING_HOST)
    expect(changing.requests.map((request) => request.path)).not.toContain('/pricing')
    const refused = outcome.steps.find((step) => step.url_path === '/pricing')
    expect(refused).toMatchObject({ status: 'blocked', completed: false, tool: 'fetch_page' })
    expect(outcome.evidence.disallowed).toEqual([`https://${CHANGING_HOST}/pricing`])
    expect(outcome.verdict.outcome).toBe('blocked')
    expect(outcome.insight.observations.map((observation) => observation.kind)).toContain('robots_disallowed')
  })

  test('every fetch goes through the SSRF guard: without SCANNER_ALLOW_PRIVATE a loopback site is refused, not fetched', async () => {
    changing.routes['/'] = html('<a href="/pricing">Pricing</a>')
    const outcome = await run(CHANGING_HOST, { SCANNER_ALLOW_PRIVATE: 'false' })
    expect(changing.requests).toEqual([])
    expect(outcome.steps.filter((step) => step.type === 'tool').every((step) => step.status === 'error')).toBe(true)
    expect(outcome.verdict.outcome).toBe('failure')
  })

  test('steps carry the identity and navigation fields, with parents pointing at the page that linked', async () => {
    changing.routes['/'] = html('<nav><a href="/plans">See our plans</a></nav>')
    changing.routes['/plans'] = html('<h1>Plans and pricing</h1><p>Team: $9 per user per month</p>')
    const outcome = await run(CHANGING_HOST)
    const home = outcome.steps.find((step) => step.url_path === '/')!
    const plans = outcome.steps.find((step) => step.url_path === '/plans')!
    expect(plans).toMatchObject({
      type: 'tool',
      action: 'fetch',
      tool: 'fetch_page',
      status: 'ok',
      parent_id: home.id,
      source: 'link',
      anchor_relation: 'See our plans',
      url_host: CHANGING_HOST,
      fetch_method: 'http',
      completed: true,
      http_status: 200,
    })
    expect(outcome.verdict).toEqual({
      outcome: 'success',
      reason: `Prices are stated at https://${CHANGING_HOST}/plans.`,
      evidence_step_ids: [plans.id],
    })
    expect(outcome.run_signals).toMatchObject({ on_site_ratio: 1 })
  })
})

/** An app shell: the content exists only once /app.js ran. */
const shell = (content: string) => {
  changing.routes['/app.js'] = () =>
    new Response(`document.getElementById('app').innerHTML = ${JSON.stringify(content)}`, {
      headers: { 'content-type': 'text/javascript' },
    })
  return html('<div id="app"></div><script src="/app.js"></script>')
}

describe('pages whose content needs JavaScript', () => {
  test('without a browser the agent sees an empty shell, and the insight says so', async () => {
    changing.routes['/'] = shell('<h1>Pricing</h1><p>Pro plan: $20 per month</p>')
    const outcome = await run(CHANGING_HOST)
    expect(outcome.verdict.outcome).toBe('failure')
    expect(outcome.insight.observations.find((observation) => observation.kind === 'js_only')?.step_ids).toEqual([
      outcome.steps.find((step) => step.url_path === '/')!.id,
    ])
  })

  const browser = createBrowserProvider(loadConfig({}))
  afterAll(() => browser?.close())
  test.skipIf(browser === null)(
    'with Chromium the agent renders the shell and reads what the script wrote',
    async () => {
      // The pricing page, not the home page: a home page is never the page an answer about prices should cite.
      changing.routes['/'] = html('<a href="/pricing">Pricing</a>')
      changing.routes['/pricing'] = shell('<h1>Pricing</h1><p>Pro plan: $20 per month</p>')
      const outcome = await runJourney({
        agent: deterministic,
        intent: findPricing,
        prompt: findPricing.meta.prompt,
        domain: CHANGING_HOST,
        deps: { ...deps(), browser },
      })
      const rendered = outcome.steps.find((step) => step.tool === 'render_page')!
      expect(rendered).toMatchObject({ action: 'render', fetch_method: 'browser', url_path: '/pricing', status: 'ok' })
      expect(outcome.verdict).toMatchObject({ outcome: 'success', evidence_step_ids: [rendered.id] })
      expect(outcome.agent_response).toBe(
        `Prices at https://${CHANGING_HOST}/pricing: Pro plan: 20 USD per month.\nSource: https://${CHANGING_HOST}/pricing`,
      )
    },
  )
})

describe('a task that wants Markdown', () => {
  const DOCS_MARKDOWN = `# Getting started\n\n${'Install the CLI, then run it against your project. '.repeat(8)}\n\n## Configuration\n\nEvery option is listed in the reference.\n`
  /** Markdown only by content negotiation: no .md URL, no llms.txt, no alternate link. */
  const negotiating = (markdown: string, page: string) => (request: Request) =>
    (request.headers.get('accept') ?? '').includes('text/markdown')
      ? new Response(markdown, { headers: { 'content-type': 'text/markdown; charset=utf-8', vary: 'Accept' } })
      : html(page)()

  test('asks for text/markdown, so a site that only negotiates it serves the docs as Markdown', async () => {
    changing.routes['/'] = negotiating('# Acme\n\n[Documentation](/docs)\n', '<a href="/docs">Documentation</a>')
    changing.routes['/docs'] = negotiating(DOCS_MARKDOWN, '<h1>Getting started</h1><p>Install the CLI.</p>')
    const outcome = await runJourney({
      agent: deterministic,
      intent: readDocsMarkdown,
      prompt: readDocsMarkdown.meta.prompt,
      domain: CHANGING_HOST,
      deps: deps(),
    })
    const docs = outcome.steps.find((step) => step.url_path === '/docs')!
    expect(docs).toMatchObject({ status: 'ok', content_type: 'text/markdown' })
    expect(outcome.verdict).toMatchObject({ outcome: 'success', evidence_step_ids: [docs.id] })
    expect(changing.requests.find((request) => request.path === '/docs')?.headers.get('accept')).toStartWith(
      'text/markdown',
    )
  })

  test('other tasks ask for HTML, as a browser does', async () => {
    changing.routes['/'] = html('<a href="/pricing">Pricing</a>')
    changing.routes['/pricing'] = html('<h1>Pricing</h1><p>Pro plan: $20 per month</p>')
    await run(CHANGING_HOST)
    const accepts = changing.requests
      .filter((request) => request.path === '/' || request.path === '/pricing')
      .map((request) => request.headers.get('accept') ?? '')
    expect(accepts.length).toBeGreaterThan(0)
    for (const accept of accepts) expect(accept).not.toContain('text/markdown')
  })
})
