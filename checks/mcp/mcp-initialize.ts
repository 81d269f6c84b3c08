// The MCP handshake: initialize returns a valid InitializeResult and notifications/initialized gets 202 (legacy
// era), or server/discover answers (stateless 2026-07-28). Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle
import type { McpServerArtifact } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, type Outcome, pass, warn } from '../../core/engine/check.ts'
import { unreachable } from '../lib/outcomes.ts'
import {
  describeExchange,
  describeRpcError,
  discoverProblems,
  discoverResult,
  isModern,
  MCP_SPEC,
  settle,
  text,
  unfinished,
} from '../lib/mcp-checks.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

const FIX_INITIALIZE =
  'Answer initialize with {"protocolVersion": "2025-11-25", "capabilities": {...}, "serverInfo": {"name": ..., "version": ...}} (the MCP SDKs do this for you).'

export default defineCheck({
  meta: {
    id: 'mcp-initialize',
    name: 'MCP initialize handshake',
    description:
      'Every MCP client starts with the handshake (initialize, or server/discover in 2026-07-28); a server that fails it cannot be used by any agent.',
    layer: 'discovery',
    applicability: 'mcp',
    tier: 'required',
    maturity: 'verified',
    maxScore: 12,
    specUrl: `${MCP_SPEC}/basic/lifecycle`,
    recommendation: `${FIX_INITIALIZE} Answer notifications/initialized with 202 Accepted and no body.`,
    needs: ['mcp'],
  },
  run({ mcp }) {
    return isModern(mcp) ? judgeDiscover(mcp) : judgeInitialize(mcp)
  },
})

function judgeInitialize(mcp: McpServerArtifact): Outcome {
  const { initialize, handshake } = mcp
  if (mcp.legacySseOnly) {
    if (!handshake) {
      return fail(
        `Neither a Streamable HTTP initialize (${describeExchange(initialize)}) nor the HTTP+SSE transport returned an InitializeResult${mcp.handshakeError ? ` (${mcp.handshakeError})` : ''}`,
        FIX_INITIALIZE,
      )
    }
  } else {
    if (unfinished(initialize))
      return unreachable(`initialize to ${mcp.url} did not complete: ${describeExchange(initialize)}`)
    const error = initialize.response?.error
    if (error) {
      return fail(
        `initialize answered ${describeRpcError(error)}`,
        `Accept initialize with protocolVersion "${mcp.requestedVersion}" and empty client capabilities; ${FIX_INITIALIZE}`,
      )
    }
    if (initialize.html || !handshake) {
      const why = mcp.handshakeError ? ` (${mcp.handshakeError})` : ''
      return fail(
        `initialize got ${describeExchange(initialize)}, not a JSON-RPC result${why}`,
        `Serve the MCP endpoint at ${mcp.url}: ${FIX_INITIALIZE}`,
      )
    }
  }

  const serverInfo = isRecord(handshake.serverInfo) ? handshake.serverInfo : {}
  const invalid = [
    typeof handshake.protocolVersion !== 'string' && 'protocolVersion is not a string',
    !isRecord(handshake.capabilities) && 'capabilities is not an object',
    !text(serverInfo.name) && 'serverInfo.name is missing',
  ].filter((problem): problem is string => problem !== false)
  if (invalid.length > 0) return fail(`The InitializeResult is invalid: ${invalid.join('; ')}`, FIX_INITIALIZE)

  const problems: string[] = []
  const pending: string[] = []
  if (mcp.legacySseOnly)
    problems.push(
      `only the deprecated HTTP+SSE transport (2024-11-05) answered; a Streamable HTTP POST got ${describeExchange(initialize)}`,
    )
  if (!text(serverInfo.version)) problems.push('serverInfo.version is missing')
  const notification = mcp.initialized
  if (notification && unfinished(notification)) pending.push('notifications/initialized')
  else if (notification && notification.status !== 202)
    problems.push(`notifications/initialized got ${describeExchange(notification)}, not 202 Accepted`)

  const summary = `initialize returns protocolVersion "${String(handshake.protocolVersion)}" and serverInfo "${text(serverInfo.name)}"${text(serverInfo.version) ? ` ${text(serverInfo.version)}` : ''}`
  const outcome =
    problems.length === 0
      ? pass(`${summary}${notification ? '; notifications/initialized gets 202' : ''}`)
      : warn(
          `${summary}, but ${problems.join('; ')}`,
          [
            mcp.legacySseOnly &&
              `Serve Streamable HTTP (POST with JSON or SSE responses) at ${mcp.url}, keeping HTTP+SSE only as a fallback.`,
            !text(serverInfo.version) && 'Add serverInfo.version (e.g. "1.0.0") to the InitializeResult.',
            notification &&
              notification.status !== null &&
              notification.status !== 202 &&
              'Answer notifications (notifications/initialized) with 202 Accepted and an empty body.',
          ]
            .filter(Boolean)
            .join(' '),
        )
  return settle(outcome, pending)
}

function judgeDiscover(mcp: McpServerArtifact): Outcome {
  const { discover, handshake } = mcp
  const fix =
    'Answer server/discover with {"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {...}} and serverInfo {name, version} in _meta["io.modelcontextprotocol/serverInfo"].'
  if (unfinished(discover))
    return unreachable(`server/discover to ${mcp.url} did not complete: ${describeExchange(discover)}`)
  const result = discoverResult(mcp)
  if (!result) return fail(`server/discover got ${describeExchange(discover)}, not a JSON-RPC result`, fix)
  const problems = discoverProblems(result)
  const serverInfo = isRecord(handshake?.serverInfo) ? handshake.serverInfo : {}
  if (!text(serverInfo.name)) problems.push('serverInfo.name is missing')
  if (problems.length > 0) return fail(`The server/discover result is invalid: ${problems.join('; ')}`, fix)
  const versions = (result.supportedVersions as string[]).join(', ')
  const summary = `server/discover (stateless 2026-07-28) answers supportedVersions [${versions}] and serverInfo "${text(serverInfo.name)}"`
  if (!text(serverInfo.version)) {
    return warn(
      `${summary}, but serverInfo.version is missing`,
      'Add a version (e.g. "1.0.0") to _meta["io.modelcontextprotocol/serverInfo"].',
    )
  }
  return pass(`${summary} ${text(serverInfo.version)}`)
}
