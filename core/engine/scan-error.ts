/**
 * Why the engine gave up on a target, in the engine's own terms. The engine is shared by the HTTP API, the MCP
 * tools and the CLI, so it names the reason and carries the facts; what each edge answers (an HTTP status and
 * envelope, a tool error, an exit code and one line) is decided in one table, core/request/scan-error-response.ts.
 */

/** What a reason carries: the facts an edge needs to say what happened. */
export type ScanFailure =
  /** The input can never be a scan target (not a domain or an http(s) URL, credentials, a single label…). */
  | { reason: 'invalid-target'; input: string; problem: string }
  /** The origin's homepage could not be fetched (DNS, connection, TLS, timeout…); `cause` is the outbound code. */
  | { reason: 'unreachable'; origin: string; cause: string }
  /** The origin resolves to an address the egress guard refuses (private, loopback, metadata…). */
  | { reason: 'private-address'; origin: string; cause: string }
  /** A pinned MCP endpoint could not be reached at all. */
  | { reason: 'mcp-unreachable'; mcpUrl: string; cause: string }
  /** The MCP server requires authentication: no score is produced; a service keeps an earlier measured scan. */
  | { reason: 'mcp-auth-required'; mcpUrl: string; urlKind: 'mcp' | 'mcp-app' }

export type ScanErrorReason = ScanFailure['reason']

export class ScanError extends Error {
  readonly reason: ScanErrorReason

  constructor(
    readonly failure: ScanFailure,
    message: string,
  ) {
    super(message)
    this.name = 'ScanError'
    this.reason = failure.reason
  }

  /** Narrows to one reason, so the facts it carries are typed. */
  is<R extends ScanErrorReason>(reason: R): this is ScanError & { failure: Extract<ScanFailure, { reason: R }> } {
    return this.reason === reason
  }
}
