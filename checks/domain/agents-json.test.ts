import { describe, expect, test } from 'bun:test'
import type { Outcome } from '../../core/engine/check.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'
import { context, jsonSnapshot, notFound } from '../../tests/support/artifacts.ts'
import check from './agents-json.ts'

const URL = 'https://acme.test/.well-known/agents.json'
const MANIFEST = {
  agentsJson: '0.1.0',
  info: { title: 'Acme', version: '1.0.0', description: 'Anvil ordering flows' },
  sources: [{ id: 'acme', path: 'https://acme.test/openapi.json' }],
  flows: [{ id: 'order', title: 'Order an anvil', actions: [], links: [] }],
}
const manifest = (value: unknown) => jsonSnapshot(value, { url: URL })

describe('agents-json', () => {
  test.each([
    ['complete manifest', manifest(MANIFEST), 'pass'],
    ['no info', manifest({ ...MANIFEST, info: undefined }), 'warning'],
    ['a source without a path', manifest({ ...MANIFEST, sources: [{ id: 'acme' }] }), 'warning'],
    ['404', notFound(URL), 'fail'],
    ['a JSON array', manifest([MANIFEST]), 'fail'],
  ] satisfies [string, HttpSnapshot, Outcome['status']][])('%s -> %s', (_name, agentsJson, expected) => {
    const outcome = check.run({ agentsJson }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })
})
