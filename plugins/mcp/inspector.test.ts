import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { CONTRACT_VERSION } from '../../core/version.ts'
import { runProcess } from '../../tests/support/cli.ts'
import { startWorld, type World } from '../../tests/support/world.ts'
import { mcpPlugin } from './index.ts'

/**
 * The MCP Inspector's CLI, a client nobody here wrote, against the listening server. `--no-install` keeps npx on the
 * locally installed devDependency: the test never reaches the network.
 */

const listen = (root: World['handle']['pieces']) =>
  new Elysia().use(mcpPlugin(root)).listen({ port: 0, hostname: '127.0.0.1' })
let world: World
let app: ReturnType<typeof listen>
let url: string

beforeAll(async () => {
  world = await startWorld(['blog'], { browser: null })
  app = listen(world.handle.pieces)
  url = `http://127.0.0.1:${app.server!.port}/api/mcp`
})
afterAll(async () => {
  await app.stop(true)
  await world.close()
})

async function inspector(...args: string[]): Promise<Record<string, any>> {
  const { code, stdout, stderr } = await runProcess(
    ['npx', '--no-install', '@modelcontextprotocol/inspector', '--cli', url, '--transport', 'http', ...args],
    { env: process.env },
  )
  if (code !== 0) throw new Error(`inspector exited with ${code}: ${stderr}`)
  return JSON.parse(stdout)
}

test('the MCP Inspector CLI lists the tools', async () => {
  const { tools } = await inspector('--method', 'tools/list')
  const names = tools.map((tool: { name: string }) => tool.name)
  expect(names).toContain('scan_domain')
  expect(names).toContain('get_verification_challenge')
  expect(names).toHaveLength(13)
  for (const tool of tools) {
    expect(tool.inputSchema.type).toBe('object')
    expect(tool.outputSchema.type).toBe('object')
    expect(typeof tool.annotations.readOnlyHint).toBe('boolean')
  }
})

test('the MCP Inspector CLI calls scan_domain on a fixture site, for the summary and for the full report', async () => {
  const result = await inspector('--method', 'tools/call', '--tool-name', 'scan_domain', '--tool-arg', 'url=blog.test')
  expect(result.isError).toBeUndefined()
  expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent)
  expect(result.structuredContent).toMatchObject({
    domain: 'blog.test',
    grade: expect.any(String),
    contractVersion: CONTRACT_VERSION,
  })
  expect(result.structuredContent.score).toBeGreaterThanOrEqual(0)

  const full = await inspector(
    '--method',
    'tools/call',
    '--tool-name',
    'get_score',
    '--tool-arg',
    'domain=blog.test',
    '--tool-arg',
    'detail=full',
  )
  expect(full.isError).toBeUndefined()
  expect(full.structuredContent.report).toMatchObject({
    domain: 'blog.test',
    scoreMax: 100,
    contractVersion: CONTRACT_VERSION,
  })
})
