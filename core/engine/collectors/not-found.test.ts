import { describe, expect, test } from 'bun:test'
import { collectorContext, localTarget, recordingSite } from '../../../tests/support/collector.ts'
import type { CollectorContext } from '../check.ts'
import type { ApiSignals } from './api-signals.ts'
import { notFoundCollector } from './not-found.ts'

const UUID_PATH = /^\/(?:api\/)?[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** A home page, problem+json 404s under /api/, and a soft 404 (a redirect home) everywhere else. */
const site = recordingSite({
  routes: { '/': () => new Response('<h1>Home</h1>', { headers: { 'content-type': 'text/html' } }) },
  otherwise: (request) =>
    new URL(request.url).pathname.startsWith('/api/')
      ? Response.json(
          { title: 'Not Found', status: 404 },
          { status: 404, headers: { 'content-type': 'application/problem+json' } },
        )
      : Response.redirect(`${site.origin}/`, 302),
})
const apiRequests = () => site.requests.filter((request) => request.path.startsWith('/api/'))

function context(apiSignals: { hasApi: boolean } | 'fails'): CollectorContext {
  const given = apiSignals === 'fails' ? undefined : (apiSignals as unknown as ApiSignals)
  return collectorContext({ target: localTarget(site.origin), artifacts: { apiSignals: given } })
}

describe('notFoundCollector', () => {
  test('asks for a fresh random path and records the redirect chain', async () => {
    const first = await notFoundCollector.collect(context({ hasApi: false }))
    const second = await notFoundCollector.collect(context({ hasApi: false }))
    expect(new URL(first.page.requestedUrl).pathname).toMatch(UUID_PATH)
    expect(first.page.requestedUrl).not.toBe(second.page.requestedUrl)
    expect(first.page.status).toBe(200)
    expect(first.page.redirects).toEqual([{ url: first.page.requestedUrl, status: 302 }])
    expect(first.api).toBeNull()
    expect(apiRequests()).toEqual([])
  })

  test('with API signals, also asks /api/<uuid> as a JSON client', async () => {
    const artifact = await notFoundCollector.collect(context({ hasApi: true }))
    expect(artifact.api?.status).toBe(404)
    expect(artifact.api?.contentType).toBe('application/problem+json')
    expect(new URL(artifact.api!.requestedUrl).pathname).toMatch(UUID_PATH)
    expect(apiRequests()[0]?.headers.get('accept')).toStartWith('application/json')
  })

  test('unavailable API signals are recorded, not fatal', async () => {
    const artifact = await notFoundCollector.collect(context('fails'))
    expect(artifact.page.status).toBe(200)
    expect(artifact.api).toBeNull()
    expect(artifact.apiError).toContain('API signals unavailable')
  })
})
