import { describe, expect, test } from 'bun:test'
import type { Outcome } from '../../core/engine/check.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'
import { context, jsonSnapshot, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './ai-plugin-manifest.ts'

const URL = 'https://acme.test/.well-known/ai-plugin.json'
const MANIFEST = {
  schema_version: 'v1',
  name_for_human: 'Acme Anvils',
  name_for_model: 'acme_anvils',
  description_for_human: 'Order anvils.',
  description_for_model: 'Search and order anvils from Acme.',
  auth: { type: 'none' },
  api: { type: 'openapi', url: 'https://acme.test/openapi.yaml' },
  logo_url: 'https://acme.test/logo.png',
  contact_email: 'support@acme.test',
  legal_info_url: 'https://acme.test/legal',
}
const manifest = (value: unknown) => jsonSnapshot(value, { url: URL })

describe('ai-plugin-manifest', () => {
  test.each([
    ['complete manifest', manifest(MANIFEST), 'pass'],
    ['missing fields', manifest({ schema_version: 'v1', name_for_human: 'Acme' }), 'warning'],
    ['api is not openapi', manifest({ ...MANIFEST, api: { type: 'graphql', url: '/graphql' } }), 'warning'],
    ['404', notFound(URL), 'fail'],
    ['HTML soft 404', snapshot({ url: URL, body: '<!doctype html><html></html>' }), 'fail'],
    ['not JSON', snapshot({ url: URL, body: 'plugin: yes' }), 'fail'],
  ] satisfies [string, HttpSnapshot, Outcome['status']][])('%s -> %s', (_name, aiPlugin, expected) => {
    const outcome = check.run({ aiPlugin }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('missing fields are named', () => {
    expect(check.run({ aiPlugin: manifest({ ...MANIFEST, api: undefined }) }, context).details).toContain('no api.url')
  })
})
