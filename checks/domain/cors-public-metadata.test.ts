import { describe, expect, test } from 'bun:test'
import type { CorsArtifact, CorsProbe } from '../../core/engine/collectors/cors.ts'
import { checkMetaSchema } from '../../core/engine/check.ts'
import { context } from '../../tests/support/artifacts.ts'
import check from './cors-public-metadata.ts'

const probe = (resource: string, fields: Partial<CorsProbe> = {}): CorsProbe => ({
  url: `https://acme.test/${resource}`,
  resource,
  status: 200,
  allowOrigin: '*',
  allowHeaders: null,
  exposeHeaders: null,
  allowMethods: null,
  ...fields,
})
const cors = (...probes: CorsProbe[]): CorsArtifact => ({ probes })
const mcp = { target: { ...context.target, kind: 'mcp' as const, mcpUrl: 'https://acme.test/mcp' } }
const preflight = (fields: Partial<CorsProbe> = {}) =>
  probe('mcp-preflight', {
    url: 'https://acme.test/mcp',
    status: 204,
    allowMethods: 'GET, POST, DELETE',
    allowHeaders: 'Content-Type, Mcp-Protocol-Version, Mcp-Session-Id, Authorization',
    ...fields,
  })
/** HTTP+SSE names the session in the message endpoint's URL, so its preflight asks for no Mcp-Session-Id. */
const ssePreflight = (fields: Partial<CorsProbe> = {}) =>
  preflight({
    url: 'https://acme.test/messages?sessionId=1',
    requestHeaders: ['content-type', 'mcp-protocol-version'],
    allowHeaders: 'Content-Type, Mcp-Protocol-Version',
    ...fields,
  })
const initialize = (fields: Partial<CorsProbe> = {}) =>
  probe('mcp-initialize', { url: 'https://acme.test/mcp', sessionId: true, exposeHeaders: 'Mcp-Session-Id', ...fields })

describe('cors-public-metadata', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'accessibility',
      tier: 'recommended',
      maturity: 'verified',
      bonus: false,
      draft: false,
      maxScore: 3,
    })
    expect(check.meta.appliesTo).toEqual(['domain', 'mcp', 'mcp-app'])
  })

  test.each([
    [
      'every document allows *',
      'pass',
      cors(probe('llms.txt'), probe('openapi'), probe('ai-catalog', { allowOrigin: 'https://agent.example' })),
    ],
    ['some documents', 'warning', cors(probe('llms.txt'), probe('openapi', { allowOrigin: null }))],
    [
      'no document',
      'fail',
      cors(probe('llms.txt', { allowOrigin: null }), probe('api-catalog', { allowOrigin: 'https://acme.test' })),
    ],
  ] as const)('domain: %s -> %s', (_name, expected, artifact) => {
    const outcome = check.run({ cors: artifact }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test.each([
    ['preflight and initialize allowed', 'pass', cors(preflight(), initialize())],
    [
      'wildcard headers',
      'pass',
      cors(preflight({ allowHeaders: '*', allowMethods: '*' }), initialize({ exposeHeaders: '*' })),
    ],
    ['no session, no expose needed', 'pass', cors(preflight(), initialize({ sessionId: false, exposeHeaders: null }))],
    ['session id not exposed', 'warning', cors(preflight(), initialize({ exposeHeaders: null }))],
    ['MCP headers not allowed', 'warning', cors(preflight({ allowHeaders: 'Content-Type' }), initialize())],
    [
      'preflight refused',
      'fail',
      cors(preflight({ status: 405, allowOrigin: null, allowHeaders: null }), initialize({ allowOrigin: null })),
    ],
    [
      'the Origin refused with 403',
      'warning',
      cors(preflight(), initialize({ status: 403, allowOrigin: null, sessionId: false })),
    ],
    [
      'the AI catalog of the MCP origin allowed too',
      'pass',
      cors(probe('ai-catalog', { url: 'https://acme.test/.well-known/ai-catalog.json' }), preflight(), initialize()),
    ],
    [
      'HTTP+SSE: the message endpoint allows what its preflight asked for',
      'pass',
      cors(ssePreflight(), probe('mcp-stream')),
    ],
    [
      'HTTP+SSE: the message endpoint lacks a header asked for',
      'warning',
      cors(ssePreflight({ allowHeaders: 'Content-Type' }), probe('mcp-stream')),
    ],
  ] as const)('mcp: %s -> %s', (_name, expected, artifact) => {
    const outcome = check.run({ cors: artifact }, mcp)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('a partial result earns the share that works', () => {
    expect(
      check.run(
        { cors: cors(probe('llms.txt'), probe('openapi'), probe('ai-catalog', { allowOrigin: null })) },
        context,
      ).fraction,
    ).toBeCloseTo(2 / 3)
  })

  test('nothing to test -> na', () => {
    const outcome = check.run({ cors: cors() }, context)
    expect(outcome.status).toBe('na')
    expect(outcome.naReason).toBeString()
  })

  test('every probe failing is an error', () => {
    expect(
      check.run({ cors: cors(probe('llms.txt', { status: null, allowOrigin: null, error: 'timeout' })) }, context)
        .status,
    ).toBe('error')
  })

  test('details name the missing headers', () => {
    const outcome = check.run({ cors: cors(preflight({ allowHeaders: 'content-type' }), initialize()) }, mcp)
    expect(outcome.details).toContain('mcp-protocol-version, mcp-session-id')
  })

  test('an HTTP+SSE server is asked, and told to allow, only the headers its clients send', () => {
    const outcome = check.run({ cors: cors(ssePreflight({ allowHeaders: 'Content-Type' }), probe('mcp-stream')) }, mcp)
    expect(outcome.details).toContain('lacks mcp-protocol-version')
    expect(outcome.details).not.toContain('mcp-session-id')
    expect(outcome.recommendation).toContain(
      'Access-Control-Allow-Headers: Content-Type, Mcp-Protocol-Version, Authorization',
    )
  })

  test('an MCP server refusing the agent Origin is told why and what to change', () => {
    const outcome = check.run(
      { cors: cors(preflight(), initialize({ status: 403, allowOrigin: null, sessionId: false })) },
      mcp,
    )
    expect(outcome.details).toContain('answered 403')
    expect(outcome.recommendation).toContain('Origin validation')
  })
})
