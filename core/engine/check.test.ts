import { describe, expect, test } from 'bun:test'
import { defineCheck, pass } from './check.ts'

const authored = {
  id: 'example-check',
  name: 'Example check',
  description: 'A check that exists only in this test.',
  layer: 'discovery',
  tier: 'recommended',
  maturity: 'verified',
  maxScore: 4,
  needs: ['robots'],
} as const

describe('defineCheck', () => {
  test('applies the metadata defaults: flags false, appliesTo and surface from applicability', () => {
    const web = defineCheck({ meta: { ...authored, applicability: 'all' }, run: () => pass('ok') })
    expect(web.meta).toMatchObject({
      bonus: false,
      draft: false,
      beta: false,
      deep: false,
      essentialsExcluded: false,
      agentEntryPoint: false,
    })
    expect(web.meta).toMatchObject({ appliesTo: ['domain', 'mcp', 'mcp-app'], surface: 'web' })
    const api = defineCheck({ meta: { ...authored, applicability: 'api', protocol: 'rest' }, run: () => pass('ok') })
    expect(api.meta).toMatchObject({ appliesTo: ['domain'], surface: 'api' })
    const declared = defineCheck({ meta: { ...authored, applicability: 'all', surface: 'api' }, run: () => pass('ok') })
    expect(declared.meta.surface).toBe('api')
  })

  test('invalid metadata fails at load, naming the check', () => {
    expect(() =>
      defineCheck({ meta: { ...authored, applicability: 'all', protocol: 'rest' }, run: () => pass('ok') }),
    ).toThrow('Invalid metadata for check "example-check"')
  })
})
