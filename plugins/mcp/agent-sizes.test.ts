import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import Ajv2020 from 'ajv/dist/2020.js'
import { z } from 'zod'
import { MCP_MODERN_VERSION, MODERN_META } from '../../core/mcp-client/protocol.ts'
import { clientIp, startWorld, type World } from '../../tests/support/world.ts'
import { getScoreOutput, scanDomainOutput } from './model.ts'

/**
 * What an agent pays for in tokens (issue 22): the tools/list answer and a default get_score answer of a typical
 * fixture site stay under 8 KB in both protocol eras, and what is cut from them is only ever a relaxation, so that
 * every structuredContent still validates against the outputSchema the listing declares and against the tool's exact
 * schema. Sizes are wire bytes of the JSON-RPC answer, printed so that a change shows in the test output.
 */

/** 8 KB read as 8,000 bytes, so that the budget holds whichever way a reader counts a kilobyte. */
const BUDGET = 8000

let world: World

beforeAll(async () => {
  world = await startWorld(['blog'], { browser: null })
})
afterAll(() => world.close())

/** One JSON-RPC request over /api/mcp, as a 2025-era client sends it or (modern) with the 2026-07-28 envelope. */
async function rpc(method: string, params: Record<string, unknown>, era: 'legacy' | 'modern', ip: string) {
  const modern = era === 'modern'
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'x-forwarded-for': ip,
  }
  if (modern) {
    headers['mcp-protocol-version'] = MCP_MODERN_VERSION
    headers['mcp-method'] = method
    if (typeof params.name === 'string') headers['mcp-name'] = params.name
  }
  const body = { jsonrpc: '2.0', id: 1, method, params: modern ? { ...params, _meta: MODERN_META } : params }
  const response = await world.handle.app.handle(
    new Request('http://localhost/api/mcp', { method: 'POST', headers, body: JSON.stringify(body) }),
  )
  expect(response.status).toBe(200)
  const text = await response.text()
  return { bytes: Buffer.byteLength(text), result: JSON.parse(text).result as Record<string, any> }
}

const ajv = new Ajv2020({ strict: false, allErrors: true })

function expectValid(schema: object, value: unknown, label: string) {
  const validate = ajv.compile(schema)
  const valid = validate(value)
  expect({ label, errors: valid ? null : validate.errors }).toEqual({ label, errors: null })
}

describe('agent-facing sizes', () => {
  for (const era of ['legacy', 'modern'] as const) {
    test(`${era}: tools/list and a default get_score each under 8 KB; structuredContent validates`, async () => {
      const ip = clientIp()
      const list = await rpc('tools/list', {}, era, ip)
      const tools = new Map<string, Record<string, any>>(
        list.result.tools.map((tool: { name: string }) => [tool.name, tool]),
      )
      expect(tools.size).toBe(13)

      await rpc('tools/call', { name: 'scan_domain', arguments: { url: 'blog.test' } }, era, ip)
      const score = await rpc('tools/call', { name: 'get_score', arguments: { domain: 'blog.test' } }, era, ip)
      const full = await rpc(
        'tools/call',
        { name: 'get_score', arguments: { domain: 'blog.test', detail: 'full' } },
        era,
        ip,
      )
      console.log(`${era}: tools/list ${list.bytes} B, get_score ${score.bytes} B (detail "full": ${full.bytes} B)`)

      expect(list.bytes).toBeLessThan(BUDGET)
      expect(score.bytes).toBeLessThan(BUDGET)
      // The summary is a cut of the report, not the report under another name.
      expect(full.bytes).toBeGreaterThan(4 * score.bytes)

      for (const [label, result] of [
        ['get_score', score.result],
        ['get_score full', full.result],
      ] as const) {
        expectValid(
          tools.get('get_score')!.outputSchema,
          result.structuredContent,
          `${label} vs the listed outputSchema`,
        )
        expectValid(
          z.toJSONSchema(getScoreOutput, { io: 'output' }),
          result.structuredContent,
          `${label} vs the exact schema`,
        )
      }
      const summary = score.result.structuredContent
      expect(summary).toMatchObject({
        domain: 'blog.test',
        grade: 'B',
        analysisStatus: 'complete',
        reportUrl: 'http://localhost:3000/site/blog.test',
      })
      expect(summary.failing.length).toBeGreaterThan(0)
      expect(full.result.structuredContent.report.layers.length).toBe(4)
    })
  }

  test('scan_domain answers validate against the listed and the exact schema, summary and full', async () => {
    const ip = clientIp()
    const list = await rpc('tools/list', {}, 'legacy', ip)
    const listed = list.result.tools.find((tool: { name: string }) => tool.name === 'scan_domain').outputSchema
    for (const detail of ['summary', 'full']) {
      const { result } = await rpc(
        'tools/call',
        { name: 'scan_domain', arguments: { url: 'blog.test', detail } },
        'legacy',
        ip,
      )
      expect(result.isError).toBeUndefined()
      expectValid(listed, result.structuredContent, `scan_domain ${detail} vs the listed outputSchema`)
      expectValid(
        z.toJSONSchema(scanDomainOutput, { io: 'output' }),
        result.structuredContent,
        `scan_domain ${detail} vs the exact schema`,
      )
    }
  })
})
