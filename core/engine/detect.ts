import type { ScanSession } from '../http/session.ts'
import type { ScanKind } from './contract.ts'
import { ACCEPT, isBearerChallenge, MCP_INITIALIZE_BODY, readJsonRpcResponse } from './lib/discovery.ts'
import { toSnapshot } from './snapshot.ts'

export interface DetectedKind {
  kind: ScanKind
  /** The MCP endpoint for mcp kinds. */
  mcpUrl?: string
  /** Set when initialize answered 401, or 403 with a Bearer challenge: the scan stops with MCP_AUTH_REQUIRED. */
  authRequired?: { status: number; challenge: string | null }
  /** A short note on how the kind was decided (the `hint` of kind_detected). */
  hint: string
}

/**
 * Decides the scan kind (checks.md §0 "Kind detection"). A bare host is a domain. A URL with a path, or a
 * pinned mcpUrl, is probed with an MCP initialize: a JSON-RPC answer makes it an MCP server, a 401/403 Bearer
 * challenge an MCP server that requires auth; anything else is scanned as the domain of its origin.
 */
export async function detectKind(
  http: ScanSession,
  input: { url: string; hasPath: boolean; mcpUrl?: string },
): Promise<DetectedKind> {
  const candidate = input.mcpUrl ?? (input.hasPath ? input.url : null)
  if (!candidate) return { kind: 'domain', hint: 'bare domain' }
  const response = await http
    .request(candidate, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT.mcp },
      body: MCP_INITIALIZE_BODY,
    })
    .catch(() => null)
  if (!response) return { kind: 'domain', hint: `${candidate} did not answer; scanning the domain` }
  const challenge = response.headers.get('www-authenticate')
  if (response.status === 401 || (response.status === 403 && isBearerChallenge(challenge ?? undefined))) {
    return { kind: 'mcp', mcpUrl: candidate, authRequired: { status: response.status, challenge }, hint: 'MCP server requires authentication' }
  }
  if (readJsonRpcResponse(toSnapshot(response))) return { kind: 'mcp', mcpUrl: candidate, hint: 'answered MCP initialize' }
  return { kind: 'domain', hint: `${candidate} is not an MCP endpoint; scanning the domain` }
}
