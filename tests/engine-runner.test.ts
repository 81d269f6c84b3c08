import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { z } from 'zod'
import { loadConfig } from '../core/config.ts'
import { createOutboundClient } from '../core/outbound/client.ts'
import { ScanSession } from '../core/outbound/session.ts'
import robotsTxt from '../checks/domain/robots-txt.ts'
import { defineCheck, pass } from '../core/engine/check.ts'
import { runChecks } from '../core/engine/runner.ts'

let server: ReturnType<typeof Bun.serve>
const hits = new Map<string, number>()

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(request) {
      const path = new URL(request.url).pathname
      hits.set(path, (hits.get(path) ?? 0) + 1)
      if (path === '/robots.txt')
        return new Response('User-agent: *\nAllow: /\n', { headers: { 'content-type': 'text/plain' } })
      return new Response('<html><body>home</body></html>', { headers: { 'content-type': 'text/html' } })
    },
  })
})
afterAll(() => server.stop(true))

function options(port: number) {
  const config = loadConfig({ SCANNER_ALLOW_PRIVATE: 'true', SCANNER_RESOLVE: `acme.test:443:127.0.0.1:${port}` })
  return {
    target: { kind: 'domain' as const, domain: 'acme.test', origin: 'https://acme.test', url: 'https://acme.test/' },
    config,
    http: new ScanSession(createOutboundClient(config, null), config),
    browser: null,
    phase: 'static' as const,
  }
}

const meta = {
  name: 'Test check',
  description: 'A check that exists only in this test.',
  layer: 'discovery' as const,
  appliesTo: ['domain' as const],
  applicability: 'domain-only' as const,
  tier: 'recommended' as const,
  maturity: 'verified' as const,
  bonus: false,
  draft: false,
  beta: false,
  maxScore: 4,
  deep: false,
}

describe('runChecks', () => {
  test('each artifact is collected once however many checks read it', async () => {
    hits.clear()
    const again = defineCheck({ meta: { ...meta, id: 'again', needs: ['robots'] }, run: () => pass('ok') })
    const run = options(server.port!)
    const results = await runChecks([robotsTxt, again, { ...again, meta: { ...again.meta, id: 'third' } }], run)
    expect(results.map((result) => result.status)).toEqual(['pass', 'pass', 'pass'])
    expect(hits.get('/robots.txt')).toBe(1)
    expect(run.http.requestCount).toBe(1)
  })

  test('a check that throws is an error for that check alone', async () => {
    const broken = defineCheck({
      meta: { ...meta, id: 'broken', needs: ['robots'] },
      run: () => {
        throw new Error('bug in the check')
      },
    })
    const results = await runChecks([broken, robotsTxt], options(server.port!))
    expect(results[0]).toMatchObject({ id: 'broken', status: 'error', score: 0 })
    expect(results[0]!.details).toContain('bug in the check')
    expect(results[1]!.status).toBe('pass')
  })

  test('evidence is validated against the schema the check declares, and kept on the result', async () => {
    const evidence = z.object({ pages: z.number().int() })
    const counted = defineCheck({
      meta: { ...meta, id: 'counted', needs: ['robots'] },
      evidence,
      run: () => pass('ok', { evidence: { pages: 3 } }),
    })
    const miscounted = defineCheck({
      meta: { ...meta, id: 'miscounted', needs: ['robots'] },
      evidence,
      run: () => pass('ok', { evidence: { pages: 'three' } }),
    })
    const undeclared = defineCheck({
      meta: { ...meta, id: 'undeclared', needs: ['robots'] },
      run: () => pass('ok', { evidence: { pages: 3 } }),
    })
    const [good, invalid, unschemed] = await runChecks([counted, miscounted, undeclared], options(server.port!))
    expect(good).toMatchObject({ status: 'pass', evidence: { pages: 3 } })
    expect(invalid).toMatchObject({ status: 'error', details: expect.stringContaining('invalid evidence') })
    expect(unschemed).toMatchObject({
      status: 'error',
      details: expect.stringContaining('declares no evidence schema'),
    })
  })

  test('a failed collector turns its dependent checks into error with the reason', async () => {
    const closed = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') })
    const port = closed.port!
    closed.stop(true)
    const [result] = await runChecks([robotsTxt], options(port))
    expect(result!.status).toBe('error')
    expect(result!.details).toContain('robots.txt')
  })

  test('without a browser a deep check resolves at once to error, naming the missing browser', async () => {
    const rendered = defineCheck({
      meta: { ...meta, id: 'rendered-check', deep: true, needs: ['rendered'] },
      run: () => pass('ok'),
    })
    const [result] = await runChecks([rendered], options(server.port!))
    expect(result!.status).toBe('error')
    expect(result!.details).toContain('No browser is configured')
  })

  test('deep checks are pending in the static phase, and checks for another kind are na', async () => {
    const deep = defineCheck({ meta: { ...meta, id: 'deep', deep: true, needs: ['robots'] }, run: () => pass('ok') })
    const mcpOnly = defineCheck({
      meta: { ...meta, id: 'mcp-only', applicability: 'mcp', needs: ['robots'] },
      run: () => pass('ok'),
    })
    const events: string[] = []
    const browser = { render: () => Promise.reject(new Error('unused')), close: async () => {} }
    const results = await runChecks([deep, mcpOnly], {
      ...options(server.port!),
      browser,
      onEvent: (event) => events.push(`${event.type}:${event.checkId}`),
    })
    expect(results[0]!.status).toBe('pending')
    expect(results[1]).toMatchObject({ status: 'na', naReason: expect.stringContaining('mcp') })
    for (const id of ['deep', 'mcp-only']) {
      const mine = events.filter((event) => event.endsWith(`:${id}`))
      expect(mine).toEqual([`check_start:${id}`, `check_complete:${id}`])
    }
  })
})
