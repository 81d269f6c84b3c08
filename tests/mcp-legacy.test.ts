/**
 * Issue 15, item 1: a server that speaks only the deprecated HTTP+SSE transport gets the verdicts the same server
 * gets over Streamable HTTP, except on the checks that are about the transport itself; and a bridge that writes
 * every answer to every open stream, while another client talks through it, changes nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js'
import { createEngine } from '../app/engine.ts'
import type { ScanReport } from '../core/engine/scan.ts'
import { scanUrl } from './support/scan.ts'
import { type McpFixture, resolveRules, startMcpFixtures } from './fixtures/mcp/server.ts'
import { testConfig } from './helpers.ts'

/**
 * The checks whose criterion is the transport (docs/checks.md §6), each with why the legacy server differs:
 * - mcp-initialize: its criterion warns when the server "uses only the deprecated HTTP+SSE transport";
 * - mcp-streamable-http: it judges Streamable HTTP conformance, and warns when only HTTP+SSE answers;
 * - mcp-session-handling: Mcp-Session-Id is a Streamable HTTP header; an HTTP+SSE session lives in the message
 *   endpoint's URL, so the check does not apply (na).
 */
const TRANSPORT_CHECKS = ['mcp-initialize', 'mcp-streamable-http', 'mcp-session-handling']

type Verdicts = Record<string, { status: string; score: number }>

function verdicts(report: ScanReport): Verdicts {
  const rows = report.layers.flatMap((layer) => layer.checks)
  return Object.fromEntries(rows.map((check) => [check.id, { status: check.status, score: check.score }]))
}

const without = (all: Verdicts, ids: readonly string[]): Verdicts =>
  Object.fromEntries(Object.entries(all).filter(([id]) => !ids.includes(id)))

let fixtures: McpFixture[]
const reports = new Map<string, ScanReport>()
const fixture = (name: string) => fixtures.find((candidate) => candidate.name === name)!

/** Another client of the bridge, talking all along: its answers reach the scanner's stream, and the scanner's its own. */
let noise: { client: Client; errors: string[]; stop(): Promise<void> }

async function startNoise(port: number): Promise<typeof noise> {
  const client = new Client({ name: 'noise', version: '1.0.0' })
  const errors: string[] = []
  client.onerror = (error) => void errors.push(error.message)
  await client.connect(new SSEClientTransport(new URL(`http://127.0.0.1:${port}/sse`)))
  let running = true
  const loop = (async () => {
    while (running) {
      await Promise.all([client.ping(), client.listTools(), client.listResources()]).catch(() => {})
      await Bun.sleep(5)
    }
  })()
  return {
    client,
    errors,
    async stop() {
      running = false
      await loop
      await client.close()
    },
  }
}

beforeAll(async () => {
  fixtures = await startMcpFixtures(['legacy-sse', 'legacy-twin', 'legacy-bridge'])
  noise = await startNoise(fixture('legacy-bridge').port)
  const engine = createEngine(testConfig({ SCANNER_RESOLVE: resolveRules(fixtures) }), { browser: null })
  for (const { name, url } of fixtures) reports.set(name, await scanUrl(url, engine, { phase: 'all' }))
}, 60_000)
afterAll(async () => {
  await noise.stop()
  await Promise.all(fixtures.map((running) => running.stop()))
})

describe('an HTTP+SSE-only server and the same server over Streamable HTTP', () => {
  test('both are scanned as MCP servers, the legacy one over HTTP+SSE', () => {
    expect(reports.get('legacy-sse')!.urlKind).toBe('mcp')
    expect(reports.get('legacy-twin')!.urlKind).toBe('mcp')
    const streamable = reports
      .get('legacy-sse')!
      .layers.flatMap((layer) => layer.checks)
      .find((check) => check.id === 'mcp-streamable-http')
    expect(streamable?.details).toContain('HTTP+SSE')
  })

  test('every check but the transport checks gets the same status and score', () => {
    const legacy = verdicts(reports.get('legacy-sse')!)
    const twin = verdicts(reports.get('legacy-twin')!)
    expect(Object.keys(legacy).sort()).toEqual(Object.keys(twin).sort())
    expect(without(legacy, TRANSPORT_CHECKS)).toEqual(without(twin, TRANSPORT_CHECKS))
  })

  test('the transport checks do differ, as their criteria say', () => {
    const legacy = verdicts(reports.get('legacy-sse')!)
    const twin = verdicts(reports.get('legacy-twin')!)
    for (const id of TRANSPORT_CHECKS) expect(legacy[id]).not.toEqual(twin[id])
    expect(legacy['mcp-initialize']!.status).toBe('warning')
    expect(legacy['mcp-streamable-http']!.status).toBe('warning')
    expect(legacy['mcp-session-handling']!.status).toBe('na')
  })

  test('the checks that once needed Streamable HTTP measure the legacy server', () => {
    const legacy = verdicts(reports.get('legacy-sse')!)
    for (const id of [
      'mcp-ping',
      'mcp-error-handling',
      'mcp-pagination',
      'mcp-tool-output-schema',
      'bot-challenge-free',
      'cors-public-metadata',
    ]) {
      expect({ id, status: legacy[id]!.status }).toEqual({ id, status: 'pass' })
    }
  })
})

describe('a bridge that writes every answer to every open stream', () => {
  test('the broadcast is real: the other client received answers that were not its own', () => {
    expect(noise.errors.some((message) => message.includes('unknown message ID'))).toBe(true)
  })

  test('the verdicts are those of the plain HTTP+SSE server', () => {
    expect(verdicts(reports.get('legacy-bridge')!)).toEqual(verdicts(reports.get('legacy-sse')!))
  })
})
