import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js'
import type { z } from 'zod'
import type { Config } from '../../core/config.ts'
import { CONTRACT_VERSION, SERVICE_NAME } from '../../core/version.ts'
import { SERVER_CARD_SCHEMA } from '../../core/engine/lib/server-card.ts'
import { MCP_MODERN_VERSION } from '../../core/mcp-client/protocol.ts'
import type { legacyMcpPointer, openidDescriptor, serverCard } from './model.ts'
import { SERVER_DESCRIPTION, SERVER_TITLE } from './server.ts'

export const MCP_PATH = '/api/mcp'
export const SERVER_CARD_PATH = `${MCP_PATH}/server-card`

/**
 * `com.example.scan` for `scan.example.com`: the SEP-2127 namespace is the reverse-DNS form of the host that serves
 * the card, so that a registry can tie the name to the domain.
 */
export function reverseDns(hostname: string): string {
  return hostname.split('.').reverse().join('.')
}

export function buildServerCard(config: Pick<Config, 'publicBaseUrl'>): z.infer<typeof serverCard> {
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: `${reverseDns(new URL(config.publicBaseUrl).hostname)}/${SERVICE_NAME}`,
    version: CONTRACT_VERSION,
    title: SERVER_TITLE,
    description: SERVER_DESCRIPTION,
    websiteUrl: config.publicBaseUrl,
    remotes: [
      {
        type: 'streamable-http',
        url: `${config.publicBaseUrl}${MCP_PATH}`,
        // What the SDKs behind the endpoint serve (the 2026-07-28 revision, and what initialize negotiates), so the
        // card cannot promise a version the runtime refuses.
        supportedProtocolVersions: [MCP_MODERN_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS],
      },
    ],
  }
}

export function buildLegacyPointer(config: Pick<Config, 'publicBaseUrl'>): z.infer<typeof legacyMcpPointer> {
  return {
    serverInfo: { name: SERVICE_NAME, title: SERVER_TITLE, version: CONTRACT_VERSION },
    description: SERVER_DESCRIPTION,
    protocolVersion: LATEST_PROTOCOL_VERSION,
    transport: { type: 'streamable-http', endpoint: MCP_PATH },
    capabilities: { tools: {} },
    authentication: { required: false, schemes: ['bearer'] },
    serverCard: `${config.publicBaseUrl}${SERVER_CARD_PATH}`,
  }
}

export function buildOpenidDescriptor(config: Pick<Config, 'publicBaseUrl'>): z.infer<typeof openidDescriptor> {
  return {
    mcp_endpoint: `${config.publicBaseUrl}${MCP_PATH}`,
    mcp_server_card: `${config.publicBaseUrl}${SERVER_CARD_PATH}`,
    service_documentation: `${config.publicBaseUrl}/swagger`,
    issues_tokens: false,
    grant_types_supported: [],
    response_types_supported: [],
    description:
      'This service is not an OpenID provider or OAuth authorization server and issues no tokens. Its MCP server needs no credential; an optional scan key (issued manually by the operators) goes in `Authorization: Bearer`. Agents that submit feedback prove they are software with the `get_verification_challenge` tool instead of an account.',
  }
}
