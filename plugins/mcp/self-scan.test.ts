import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { Elysia } from 'elysia'
import { freeLoopbackPort } from '../../tests/support/ports.ts'
import { clientIp, startWorld, type World } from '../../tests/support/world.ts'
import { mcpPlugin } from './index.ts'

/**
 * Our scanner judges our own MCP server, reached by a public name (`https://self.test`) like any other target: the
 * server must pass the MCP checks it holds everyone else to.
 */

const listen = (root: World['handle']['pieces'], port: number) =>
  new Elysia().use(mcpPlugin(root)).listen({ port, hostname: '127.0.0.1' })

let world: World
let app: ReturnType<typeof listen>

beforeAll(async () => {
  // The public name must resolve to the app's port before the app (and its config) exists: take a free port first.
  const port = freeLoopbackPort()
  world = await startWorld([], {
    browser: null,
    env: { PUBLIC_BASE_URL: 'https://self.test' },
    extraResolve: [`self.test:443:127.0.0.1:${port}`],
  })
  app = listen(world.handle.pieces, port)
})
afterAll(async () => {
  await app.stop(true)
  await world.close()
})

test('scan_domain on our own MCP endpoint passes every MCP check that applies', async () => {
  const client = new Client({ name: 'agent-readiness-test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${app.server!.port}/api/mcp`), {
      requestInit: { headers: { 'x-forwarded-for': clientIp() } },
    }),
  )
  await client.listTools()
  const result = (await client.callTool({
    name: 'scan_domain',
    arguments: { url: 'https://self.test/api/mcp', detail: 'full' },
  })) as CallToolResult
  expect(result.isError).toBeFalsy()
  const { report } = result.structuredContent as {
    report: { urlKind: string; layers: { checks: { id: string; status: string; details?: string }[] }[] }
  }
  expect(report.urlKind).toBe('mcp')
  const statuses = Object.fromEntries(
    report.layers.flatMap((layer) => layer.checks).map((check) => [check.id, check.status]),
  )
  for (const id of [
    'mcp-server-card',
    'mcp-initialize',
    'mcp-server-discover',
    'mcp-protocol-version',
    'mcp-server-info',
    'mcp-tools-list',
    'mcp-streamable-http',
    'mcp-session-handling',
    'mcp-ping',
    'mcp-tool-naming',
    'mcp-tool-descriptions',
    'mcp-tool-input-schema',
    'mcp-tool-annotations',
    'mcp-tool-output-schema',
    'mcp-error-handling',
    'mcp-pagination',
  ]) {
    expect({ id, status: statuses[id] }).toEqual({ id, status: 'pass' })
  }
  await client.close()
})
