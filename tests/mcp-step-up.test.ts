import { afterAll, beforeAll, expect, test } from 'bun:test'
import { STEP_UP_TOKEN } from './fixtures/mcp/step-up.ts'
import { request } from './helpers.ts'
import { clientIp, startWorld, type World } from './support/world.ts'

/**
 * Step-up authorization (issue 20): a server that answers initialize and then refuses everything else without a
 * token (401, or 403 with a Bearer insufficient_scope challenge) is reported as requiring authentication, as one that
 * refuses initialize is: 422 MCP_AUTH_REQUIRED, the earlier measured scan of the host kept, nothing graded (nor in a
 * domain scan's fan-out).
 */
let world: World

beforeAll(async () => {
  world = await startWorld([], {
    browser: null,
    mcp: [
      { name: 'step-up', hosts: ['step-up.test'] },
      { name: 'step-up-scope', hosts: ['step-up-scope.test'] },
    ],
  })
})
afterAll(() => world.close())

const post = (path: string, json: unknown) =>
  world.handle.app.handle(request(path, { method: 'POST', json, headers: { 'x-forwarded-for': clientIp() } }))
const get = (path: string) => world.handle.app.handle(request(path, { headers: { 'x-forwarded-for': clientIp() } }))

test.each([
  ['step-up.test', 401],
  ['step-up-scope.test', 403],
])(
  '%s answers initialize, then %d: POST /api/scan is 422 MCP_AUTH_REQUIRED and the measured scan stays',
  async (host) => {
    const measured = await post('/api/scan', { url: host, force: true })
    expect(measured.status).toBe(200)
    // The domain scan found the endpoint, but does not fan out to it: its MCP checks would grade what it refused to show.
    const domainScan = (await measured.json()) as { layers: { checks: { id: string; mcpUrl?: string }[] }[] }
    expect(domainScan.layers.flatMap((layer) => layer.checks).filter((check) => check.mcpUrl !== undefined)).toEqual([])
    const before = await (await get(`/api/score/${host}`)).json()

    const response = await post('/api/scan', { url: `https://${host}/mcp` })
    expect(response.status).toBe(422)
    expect(await response.json()).toMatchObject({
      code: 'MCP_AUTH_REQUIRED',
      mcpAuthRequired: true,
      mcpUrl: `https://${host}/mcp`,
      urlKind: 'mcp',
    })

    const after = await get(`/api/score/${host}`)
    expect(after.status).toBe(200)
    const stored = await after.json()
    expect(stored.scannedAt).toBe(before.scannedAt)
    expect(stored.urlKind).toBe('domain')
  },
)

test('the HTTP API takes no credentials for a target: a token offered in the body changes nothing (422)', async () => {
  const token = `Bearer ${STEP_UP_TOKEN}`
  const response = await post('/api/scan', {
    url: 'https://step-up.test/mcp',
    headers: { authorization: token },
    mcpHeaders: { Authorization: token },
  })
  expect(response.status).toBe(422)
  expect((await response.json()).code).toBe('MCP_AUTH_REQUIRED')
})
