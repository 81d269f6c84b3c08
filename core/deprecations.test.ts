import { expect, test } from 'bun:test'
import { DEPRECATIONS, deprecationHeaders, invalidDeprecations } from './deprecations.ts'

const registry = [
  {
    route: 'POST /api/scan',
    deprecatedAt: new Date('2026-01-01T00:00:00Z'),
    sunsetAt: new Date('2026-06-01T00:00:00Z'),
    link: 'https://example.test/migrate',
  },
]

test('a deprecated route gets Deprecation, Sunset and a link; others get nothing', () => {
  const headers = deprecationHeaders('POST /api/scan', registry, new Date('2026-02-01T00:00:00Z'))
  expect(headers.deprecation).toBe('@1767225600')
  expect(headers.sunset).toBe('Mon, 01 Jun 2026 00:00:00 GMT')
  expect(headers.link).toContain('rel="deprecation"')
  expect(deprecationHeaders('GET /api/score/:domain', registry)).toEqual({})
  expect(deprecationHeaders('POST /api/scan', registry, new Date('2025-12-01T00:00:00Z'))).toEqual({})
})

test('the declared registry keeps the 90-day sunset notice', () => {
  expect(invalidDeprecations(DEPRECATIONS)).toEqual([])
  expect(invalidDeprecations([{ ...registry[0]!, sunsetAt: new Date('2026-02-01T00:00:00Z') }])).toHaveLength(1)
})
