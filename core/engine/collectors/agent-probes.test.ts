import { describe, expect, test } from 'bun:test'
import { collectorContext, localTarget, recordingSite } from '../../../tests/support/collector.ts'
import { mcpServer, rpcResult } from '../../../tests/support/mcp-artifacts.ts'
import { loadConfig } from '../../config.ts'
import { generateSigningKeyJwk, loadSigningKeys } from '../../crypto/signing.ts'
import { createRequestSigner } from '../../crypto/web-bot-auth.ts'
import { createOutboundClient } from '../../outbound/client.ts'
import { ScanSession } from '../../outbound/session.ts'
import type { ScanKind } from '../check.ts'
import { agentProbesCollector } from './agent-probes.ts'
import type { McpServerArtifact } from './mcp.ts'

/** The fixture site: an HTML page at every path, unless a test answers otherwise. */
const site = recordingSite({
  otherwise: () =>
    new Response('<!doctype html><html><body><h1>Acme</h1></body></html>', {
      headers: { 'content-type': 'text/html' },
    }),
})

/** The probes of a scan of `kind`, on a session that signs its requests when `env` gives a SIGNING_KEY. */
function collect(kind: ScanKind = 'domain', env: Record<string, string> = {}, mcp?: McpServerArtifact) {
  const config = loadConfig({ SCANNER_ALLOW_PRIVATE: 'true', ...env })
  const key = loadSigningKeys(config).current
  const signer = key ? createRequestSigner(key, config.publicBaseUrl) : null
  const http = new ScanSession(createOutboundClient(config, signer), config)
  return agentProbesCollector.collect(
    collectorContext({ target: localTarget(site.origin, kind), config, http, artifacts: { mcp } }),
  )
}

const signedRequests = () => site.requests.filter((request) => request.headers.has('signature'))

describe('agentProbesCollector', () => {
  test('fetches the homepage as a browser, six AI agents and the scanner signed and unsigned', async () => {
    site.otherwise = (request) =>
      /ChatGPT-User/.test(request.headers.get('user-agent') ?? '')
        ? new Response('<title>Just a moment...</title>', { status: 403, headers: { 'cf-mitigated': 'challenge' } })
        : new Response('<h1>Acme</h1>', { headers: { 'content-type': 'text/html' } })
    const artifact = await collect('domain', { SIGNING_KEY: generateSigningKeyJwk() })
    expect(artifact.probes.map((probe) => `${probe.agent}:${probe.purpose}`)).toEqual([
      'browser:browser',
      'ChatGPT-User:user',
      'Claude-User:user',
      'PerplexityBot:search',
      'OAI-SearchBot:search',
      'ClaudeBot:training',
      'GPTBot:training',
      'scanner-signed:scanner-signed',
      'scanner-unsigned:scanner-unsigned',
    ])
    expect(artifact.errors).toEqual([])
    const chatgpt = artifact.probes.find((probe) => probe.agent === 'ChatGPT-User')!
    expect(chatgpt.response.status).toBe(403)
    expect(chatgpt.response.headers['cf-mitigated']).toBe('challenge')
    expect(chatgpt.userAgent).toContain('ChatGPT-User/1.0')
    // Only the signed scanner request carries a signature; it is the only one flagged as signed.
    expect(signedRequests()).toHaveLength(1)
    expect(artifact.probes.filter((probe) => probe.signed).map((probe) => probe.agent)).toEqual(['scanner-signed'])
    expect(signedRequests()[0]?.headers.get('user-agent')).toContain('AgentReadiness')
  })

  test('without a signing key the signed probe is not flagged as signed', async () => {
    const artifact = await collect()
    expect(artifact.probes.some((probe) => probe.signed)).toBe(false)
    expect(signedRequests()).toEqual([])
  })

  test('bodies are capped at 64 KiB', async () => {
    site.otherwise = () =>
      new Response(`<h1>Acme</h1>${'x'.repeat(200 * 1024)}`, { headers: { 'content-type': 'text/html' } })
    const artifact = await collect()
    for (const probe of artifact.probes) {
      expect(probe.response.body.length).toBeLessThanOrEqual(64 * 1024)
      expect(probe.response.truncated).toBe(true)
    }
  })

  test('a probe that times out is recorded as an error, not a block', async () => {
    site.otherwise = async (request) => {
      if (/GPTBot/.test(request.headers.get('user-agent') ?? '')) await Bun.sleep(1500)
      return new Response('<h1>Acme</h1>', { headers: { 'content-type': 'text/html' } })
    }
    const artifact = await collect('domain', { SCANNER_TIMEOUT_MS: '300' })
    expect(artifact.probes.some((probe) => probe.agent === 'GPTBot')).toBe(false)
    expect(artifact.errors).toMatchObject([{ agent: 'GPTBot', purpose: 'training' }])
  })

  test('a browser that cannot reach the homepage fails the artifact', async () => {
    site.otherwise = async () => {
      await Bun.sleep(1500)
      return new Response('late')
    }
    await expect(collect('domain', { SCANNER_TIMEOUT_MS: '300' })).rejects.toThrow()
  })

  test('mcp kinds POST initialize to the MCP endpoint', async () => {
    site.otherwise = () =>
      Response.json({
        jsonrpc: '2.0',
        id: 1,
        result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'x', version: '1' } },
      })
    const artifact = await collect('mcp')
    expect(artifact.probes).toHaveLength(9)
    expect(site.requests.every((request) => request.method === 'POST' && request.path === '/mcp')).toBe(true)
    expect(artifact.probes[0]!.response.body).toContain('jsonrpc')
  })

  test("mcp kinds carry the scanner's own MCP session, labelled, for the header and payment checks", async () => {
    site.otherwise = () => Response.json({ jsonrpc: '2.0', id: 1, result: {} })
    const mcp = mcpServer({
      toolCalls: [
        { name: 'search_anvils', exchange: rpcResult('tools/call', { content: [] }), result: { content: [] } },
      ],
    })
    const artifact = await collect('mcp', {}, mcp)
    const labels = artifact.mcpSession!.exchanges.map((entry) => entry.label)
    expect(labels.slice(0, 4)).toEqual(['initialize', 'notifications/initialized', 'server/discover', 'ping'])
    expect(labels).toContain('probe unknownMethod')
    expect(labels).toContain('tools/call search_anvils')
    expect(artifact.mcpSession!.toolCalls).toHaveLength(1)
    expect((await collect('mcp')).mcpSession).toBeUndefined()
    expect((await collect('domain')).mcpSession).toBeUndefined()
  })
})
