import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { Elysia } from 'elysia'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import type { AppHandle } from '../app/app.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { GRADE_COLORS } from '../core/engine/scoring.ts'
import { badgePlugin } from '../plugins/badge/index.ts'
import { escapeXml, renderBadge, textWidth } from '../plugins/badge/service.ts'
import type { ScanRepository } from '../plugins/scan/repository.ts'
import { request, testApp } from './helpers.ts'
import { scanReport } from './support/scan-report.ts'

let handle: AppHandle
let app: { handle(request: Request): Promise<Response> }
let repository: ScanRepository
beforeAll(async () => {
  handle = await testApp({ TRUST_PROXY: 'true' }, { features: ['scan', 'badge'] })
  app = new Elysia().use(badgePlugin(handle.pieces))
  repository = handle.pieces.scans
})
afterAll(() => handle.close())

/** Badges read one domain each: fresh domains keep these tests apart from anything else in a shared database. */
const fresh = (label: string) => `${label}.b${randomUUID().slice(0, 8)}.test`

function report(domain: string, score: number, overrides: Partial<ScanReport> = {}): ScanReport {
  return scanReport({ domain, score, scannedAt: new Date().toISOString(), ...overrides })
}

const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@' })

interface SvgText {
  '#text': string | number
  '@x': string
  '@textLength': string
  '@aria-hidden'?: string
}

/** Parses the badge (it must be well-formed XML) into what a viewer sees. */
function readBadge(svg: string) {
  expect(XMLValidator.validate(svg)).toBe(true)
  const root = parser.parse(svg).svg
  const rects = root.g[0].rect as { '@fill': string; '@width': string; '@x'?: string }[]
  const texts = (root.g[1].text as SvgText[]).filter((text) => text['@aria-hidden'] !== 'true')
  return {
    root,
    title: String(root.title),
    ariaLabel: root['@aria-label'] as string,
    width: Number(root['@width']),
    valueColor: rects[1]!['@fill'],
    labelWidth: Number(rects[0]!['@width']),
    valueWidth: Number(rects[1]!['@width']),
    texts: texts.map((text) => ({
      content: String(text['#text']),
      x: Number(text['@x']),
      length: Number(text['@textLength']),
    })),
  }
}

/** A badge that must be served (200): the response for its headers, and what it shows. */
async function servedBadge(path: string) {
  const response = await app.handle(request(`/api/badge/${path}`))
  expect(response.status).toBe(200)
  return { headers: response.headers, badge: readBadge(await response.text()) }
}

describe('GET /api/badge/{domain}', () => {
  test('an SVG with the score and grade in the grade colour, an accessible title, cached 1 hour', async () => {
    const domain = fresh('acme')
    await repository.insert(report(domain, 87), { ephemeral: false })
    const { headers, badge } = await servedBadge(domain)
    expect(headers.get('content-type')).toBe('image/svg+xml; charset=utf-8')
    expect(headers.get('cache-control')).toBe('public, max-age=3600')
    expect(badge.root['@role']).toBe('img')
    expect(badge.title).toBe(`${domain}: agent-readiness score 87 of 100, grade A`)
    expect(badge.ariaLabel).toBe(badge.title)
    expect(badge.texts.map((text) => text.content)).toEqual(['agent-ready', '87 A'])
    expect(badge.valueColor).toBe(GRADE_COLORS.A)
  })

  test('the newest scan decides, whatever its grade', async () => {
    const domain = fresh('acme')
    await repository.insert(report(domain, 95, { scannedAt: '2025-01-01T00:00:00.000Z' }), { ephemeral: false })
    await repository.insert(report(domain, 12, { scannedAt: '2025-02-01T00:00:00.000Z' }), { ephemeral: false })
    const { badge } = await servedBadge(domain)
    expect(badge.texts[1]!.content).toBe('12 F')
    expect(badge.valueColor).toBe(GRADE_COLORS.F)
  })

  test('a URL-encoded full URL is normalised to its hostname; so is upper case', async () => {
    const domain = fresh('docs')
    await repository.insert(report(domain, 50), { ephemeral: false })
    for (const path of [encodeURIComponent(`https://${domain}/some/path?q=1`), domain.toUpperCase()]) {
      expect((await servedBadge(path)).badge.texts[1]!.content).toBe('50 C')
    }
  })

  test('a partial scan shows its score, not cached', async () => {
    const domain = fresh('partial')
    await repository.insert(report(domain, 64, { analysisStatus: 'partial', pendingChecks: ['rendered-content'] }), {
      ephemeral: false,
    })
    const { headers, badge } = await servedBadge(domain)
    expect(headers.get('cache-control')).toBe('no-store')
    expect(badge.texts[1]!.content).toBe('64 C')
  })

  test('an ephemeral result is served with no-store', async () => {
    const domain = fresh('tunnel')
    await repository.insert(report(domain, 99), { ephemeral: true })
    const { headers, badge } = await servedBadge(domain)
    expect(headers.get('cache-control')).toBe('no-store')
    expect(badge.texts[1]!.content).toBe('99 A+')
  })

  test('404 NOT_FOUND when there is no score, including an auth-required marker only', async () => {
    const locked = fresh('locked')
    await repository.insertAuthMarker({
      domain: locked,
      url: `https://${locked}/mcp`,
      mcpUrl: `https://${locked}/mcp`,
      urlKind: 'mcp',
      ephemeral: false,
    })
    for (const domain of [fresh('never'), locked]) {
      const response = await app.handle(request(`/api/badge/${domain}`))
      expect(response.status).toBe(404)
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(await response.json()).toMatchObject({ error: expect.any(String), code: 'NOT_FOUND' })
    }
  })

  test.each(['localhost', 'not_a_domain.test', 'ftp%3A%2F%2Facme.test', 'a..b', `${'a'.repeat(64)}.test`])(
    '400 INVALID_DOMAIN for %s',
    async (path) => {
      const response = await app.handle(request(`/api/badge/${path}`))
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ error: expect.any(String), code: 'INVALID_DOMAIN' })
    },
  )

  test('the badge limit: 121st request in a minute is a 429 with Retry-After', async () => {
    const headers = { 'x-forwarded-for': '192.0.2.120' }
    const domain = fresh('busy')
    for (let i = 0; i < 120; i++)
      expect((await app.handle(request(`/api/badge/${domain}`, { headers }))).status).toBe(404)
    const denied = await app.handle(request(`/api/badge/${domain}`, { headers }))
    expect(denied.status).toBe(429)
    expect(Number(denied.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await denied.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' })
  })
})

describe('renderBadge', () => {
  test.each(Object.keys(GRADE_COLORS) as (keyof typeof GRADE_COLORS)[])(
    'grade %s: its colour, texts sized to fit their halves',
    (grade) => {
      const score = { 'A+': 100, A: 90, B: 75, C: 50, D: 30, F: 0 }[grade]
      const badge = readBadge(renderBadge({ domain: 'acme.test', score, grade }))
      expect(badge.valueColor).toBe(GRADE_COLORS[grade])
      expect(badge.width).toBe(badge.labelWidth + badge.valueWidth)
      const [label, value] = badge.texts as [(typeof badge.texts)[number], (typeof badge.texts)[number]]
      expect(value.content).toBe(`${score} ${grade}`)
      // Each text is centred in its half and bounded by textLength, with padding left on both sides.
      expect(label.x).toBe(badge.labelWidth / 2)
      expect(label.length).toBeLessThan(badge.labelWidth)
      expect(value.x).toBe(badge.labelWidth + badge.valueWidth / 2)
      expect(value.length).toBeLessThan(badge.valueWidth)
    },
  )

  test('text width grows with the text and never underestimates unknown characters', () => {
    expect(textWidth('100 A+')).toBeGreaterThan(textWidth('9 F'))
    expect(textWidth('mmm')).toBeGreaterThan(textWidth('iii'))
    expect(textWidth('漢字')).toBe(22)
  })

  test('interpolated text is XML-escaped', () => {
    expect(escapeXml(`<a href="x">&'`)).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&apos;')
    const svg = renderBadge({ domain: '<script>&"', score: 50, grade: 'C' })
    expect(XMLValidator.validate(svg)).toBe(true)
    expect(svg).not.toContain('<script>')
    expect(readBadge(svg).title).toBe('<script>&": agent-readiness score 50 of 100, grade C')
  })
})
