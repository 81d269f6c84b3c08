import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { describeSite, llmsSummary, MAX_PROFILE_CHARS, profileText } from '../core/engine/collectors/site-profile.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { request } from './helpers.ts'
import { htmlPage, snapshot } from './support/artifacts.ts'
import { clientIp, startWorld, type World } from './support/world.ts'

/** What a scan records of what a product says about itself (core/engine/collectors/site-profile.ts), and discover reading it. */

const jsonLd = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`

describe('describeSite', () => {
  test('title, description, Open Graph, headings, structured data of products and offers, llms.txt summary', () => {
    const page = htmlPage(`<html><head><title>Acme | Anvils</title>
      <meta name="description" content="Anvils  for\tevery forge.">
      <meta property="og:title" content="Acme | Anvils"><meta property="og:description" content="Drop-forged since 1901.">
      ${jsonLd({
        '@context': 'https://schema.org',
        '@graph': [
          { '@type': 'Organization', name: 'Acme Inc.', slogan: 'Heavy things' },
          {
            '@type': 'Product',
            name: 'Anvil 50',
            description: 'A fifty-pound anvil.',
            category: 'Blacksmith tools',
            brand: { '@type': 'Brand', name: 'Acme Forge' },
            offers: { '@type': 'Offer', name: 'Anvil 50, black', category: 'Clearance' },
          },
        ],
      })}
      </head><body><h1>Anvils</h1><h2>Hammers</h2><h3>Anvils</h3><h4>not a heading we read</h4><p>body text is not profile</p></body></html>`)
    const profile = describeSite(
      page,
      snapshot({ body: '# Acme\n\n> Anvils and hammers for\n> blacksmiths.\n\n## Docs\n- [x](/x)\n' }),
    )
    expect(profile).toEqual({
      title: 'Acme | Anvils',
      description: 'Anvils for every forge.',
      openGraph: ['Drop-forged since 1901.'],
      headings: ['Anvils', 'Hammers'],
      structuredData: [
        'Acme Inc.',
        'Heavy things',
        'Anvil 50',
        'A fifty-pound anvil.',
        'Blacksmith tools',
        'Acme Forge',
        'Anvil 50, black',
        'Clearance',
      ],
      llmsSummary: 'Acme Anvils and hammers for blacksmiths.',
    })
    expect(profileText(profile)).toContain('Clearance')
  })

  test('an error page describes nothing; a missing llms.txt adds nothing', () => {
    expect(describeSite(htmlPage('<title>Just a moment...</title>', { status: 403 }), null)).toBeNull()
    expect(llmsSummary(snapshot({ status: 404, body: '# Not found' }))).toBe('')
    expect(describeSite(htmlPage('<title>A</title>'), null)?.llmsSummary).toBe('')
  })

  test('hostile input is bounded: control characters dropped, the whole profile capped', () => {
    const headings = Array.from({ length: 200 }, (_, index) => `<h2>heading ${index} ${'x'.repeat(500)}</h2>`).join('')
    const profile = describeSite(htmlPage(`<title>a\u0007b</title>${headings}`), null)!
    expect(profile.title).toBe('a b')
    expect(profile.headings.every((heading) => heading.length <= 300)).toBe(true)
    expect(profileText(profile).length).toBeLessThanOrEqual(MAX_PROFILE_CHARS)
  })
})

describe('a real scan feeds discover', () => {
  let world: World
  beforeAll(async () => {
    world = await startWorld(['excellent'], { browser: null })
  }, 60_000)
  afterAll(() => world.close())

  const call = (path: string, init: Parameters<typeof request>[1] = {}) =>
    world.handle.app.handle(request(path, { ...init, headers: { 'x-forwarded-for': clientIp(), ...init.headers } }))

  test('the stored report keeps the profile, and discover finds the site by what it sells', async () => {
    const scanned = await call('/api/scan', { method: 'POST', json: { url: 'excellent.test', force: true } })
    expect([200, 202]).toContain(scanned.status)
    const row = await world.handle.pieces.scans.latest('excellent.test')
    const report = row!.result as ScanReport
    expect(report.profile?.llmsSummary).toContain('programmable desk widgets')
    expect(profileText(report.profile)).toContain('shipped fully assembled')
    // The profile never reaches the wire.
    expect(await scanned.json()).not.toHaveProperty('profile')
    for (const intent of ['desk widgets', 'assembled widget', 'programmable widgets for developers']) {
      const body = await (await call(`/api/discover?intent=${encodeURIComponent(intent)}`)).json()
      expect(body.results.map((result: { domain: string }) => result.domain)).toContain('excellent.test')
    }
  }, 60_000)
})
