import { describe, expect, test } from 'bun:test'
import {
  mcpContext,
  mcpList,
  mcpServer,
  modernServer,
  noResponse,
  rpcError,
  rpcResult,
} from '../../tests/support/mcp-artifacts.ts'
import check from './mcp-cache-hints.ts'

const CACHING = 'MCP 2026-07-28 server/utilities/caching'
const modern = modernServer()
const discoverWithout = (...keys: string[]) => {
  const result = { ...(modern.discover.response!.result as Record<string, unknown>) }
  for (const key of keys) delete result[key]
  return rpcResult('server/discover', result)
}

describe('mcp-cache-hints', () => {
  test.each([
    [`${CACHING}: discover, lists and resources/read with resultType, ttlMs and cacheScope pass`, 'pass', modern],
    [
      `${CACHING}: server/discover without ttlMs and cacheScope warns`,
      'warning',
      modernServer({ discover: discoverWithout('ttlMs', 'cacheScope') }),
    ],
    [
      `${CACHING}: server/discover without resultType warns`,
      'warning',
      modernServer({ discover: discoverWithout('resultType') }),
    ],
    [
      `${CACHING}: tools/list without cache hints warns`,
      'warning',
      modernServer({ tools: mcpList(modern.tools.items, { envelope: { resultType: 'complete' } }) }),
    ],
    [
      `${CACHING}: resources/read without cache hints warns`,
      'warning',
      modernServer({
        resourceRead: rpcResult('resources/read', {
          resultType: 'complete',
          contents: [{ uri: 'acme://catalogue', text: '[]' }],
        }),
      }),
    ],
    [
      `${CACHING}: resources/templates/list without cache hints warns`,
      'warning',
      modernServer({
        resourceTemplates: rpcResult('resources/templates/list', { resultType: 'complete', resourceTemplates: [] }),
      }),
    ],
    [
      `${CACHING}: a server without resource templates (-32601) is judged on the rest`,
      'pass',
      modernServer({ resourceTemplates: rpcError('resources/templates/list', -32601) }),
    ],
    [
      `${CACHING}: a negative ttlMs warns ("Servers MUST provide a ttlMs value that is >= 0")`,
      'warning',
      modernServer({
        prompts: mcpList(modern.prompts.items, {
          envelope: { resultType: 'complete', ttlMs: -1, cacheScope: 'public' },
        }),
      }),
    ],
    [
      `${CACHING}: a cacheScope other than public or private warns`,
      'warning',
      modernServer({
        resources: mcpList(modern.resources.items, {
          envelope: { resultType: 'complete', ttlMs: 0, cacheScope: 'shared' },
        }),
      }),
    ],
    [
      `${CACHING}: an input_required result carries no hints and is not judged`,
      'pass',
      modernServer({ resourceRead: rpcResult('resources/read', { resultType: 'input_required' }) }),
    ],
    [
      `${CACHING}: a failed resources/read is not judged`,
      'pass',
      modernServer({ resourceRead: rpcError('resources/read', -32602) }),
    ],
    ['MCP 2025-11-25 (earlier era): results have no envelope, not applicable', 'na', mcpServer()],
    [
      `${CACHING}: a server speaking 2025-11-25 and 2026-07-28 is judged on its server/discover result`,
      'warning',
      mcpServer({
        discover: rpcResult('server/discover', { supportedVersions: ['2025-11-25', '2026-07-28'], capabilities: {} }),
      }),
    ],
    [
      `${CACHING}: a dual-era server whose server/discover carries the hints passes (its lists were read over the handshake)`,
      'pass',
      mcpServer({
        discover: rpcResult('server/discover', {
          resultType: 'complete',
          supportedVersions: ['2025-11-25', '2026-07-28'],
          capabilities: {},
          ttlMs: 0,
          cacheScope: 'public',
        }),
      }),
    ],
    ['server/discover timed out', 'error', modernServer({ discover: noResponse('server/discover') })],
  ] as const)('%s -> %s', (_name, expected, mcp) => {
    const outcome = check.run({ mcp }, mcpContext)
    expect(outcome.status).toBe(expected)
    if (expected === 'warning') expect(outcome.recommendation).toContain('ttlMs')
  })

  test('names the method and what it lacks', () => {
    const outcome = check.run({ mcp: modernServer({ discover: discoverWithout('ttlMs', 'cacheScope') }) }, mcpContext)
    expect(outcome.details).toContain('server/discover has no ttlMs, no cacheScope')
  })
})
