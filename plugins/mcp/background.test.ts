import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { Elysia } from 'elysia'
import { createBrowserProvider } from '../../core/engine/browser-puppeteer.ts'
import { testConfig } from '../../tests/helpers.ts'
import { clientIp, startWorld, type World } from '../../tests/support/world.ts'
import { mcpPlugin } from './index.ts'

/** Rendered checks need Chromium; .ci/run installs it, so CI always runs this. */
const browser = createBrowserProvider(testConfig())

const listen = (root: World['handle']['pieces']) =>
  new Elysia().use(mcpPlugin(root)).listen({ port: 0, hostname: '127.0.0.1' })

describe.skipIf(browser === null)('scan_domain while rendered checks run in the background', () => {
  let world: World
  let app: ReturnType<typeof listen>

  beforeAll(async () => {
    world = await startWorld(['spa'], { browser, start: true })
    app = listen(world.handle.pieces)
  })
  afterAll(async () => {
    await app.stop(true)
    await world.close()
  })

  test('answers the partial result with the score URL to poll; get_score then reads it complete', async () => {
    // Keyed: polling get_score faster than its per-IP limit is exactly what a scan key allows.
    const { key } = await world.handle.pieces.keys.create('scan', 'mcp polling test')
    const client = new Client({ name: 'agent-readiness-test', version: '1.0.0' })
    const endpoint = new URL(`http://127.0.0.1:${app.server!.port}/api/mcp`)
    await client.connect(
      new StreamableHTTPClientTransport(endpoint, {
        requestInit: { headers: { 'x-forwarded-for': clientIp(), authorization: `Bearer ${key}` } },
      }),
    )
    await client.listTools()
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult
      expect(result.isError).toBeFalsy()
      return result.structuredContent as { analysisStatus: string; pendingChecks: string[]; scoreUrl?: string }
    }

    const partial = await call('scan_domain', { url: 'spa.test', force: true })
    expect(partial).toMatchObject({
      analysisStatus: 'partial',
      scoreUrl: 'http://localhost:3000/api/score/spa.test?format=audit',
    })
    expect(partial.pendingChecks).toContain('webmcp-tools')

    const deadline = Date.now() + 60_000
    let stored = partial
    while (stored.analysisStatus !== 'complete' && Date.now() < deadline) {
      await Bun.sleep(1500)
      stored = await call('get_score', { domain: 'spa.test' })
    }
    // The summary names pending checks only while there are some.
    expect(stored).toMatchObject({ analysisStatus: 'complete' })
    expect(stored.pendingChecks).toBeUndefined()
    await client.close()
  }, 90_000)
})
