import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { McpServer as ModernMcpServer } from '@modelcontextprotocol/server'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import type { z } from 'zod'
import type { Config } from '../../core/config.ts'
import { CONTRACT_VERSION, SERVICE_NAME } from '../../core/contract.ts'
import { AppError, type ErrorCode, renderError } from '../../core/errors.ts'
import type { Logger } from '../../core/log.ts'
import type { Caller, LimitName } from '../../core/limits.ts'
import { SCAN_LIMITS } from './model.ts'

export const SERVER_TITLE = 'Agent Readiness'

export const SERVER_DESCRIPTION =
  'Measures how ready a website, an MCP server or an MCP App server is for use by AI agents, and publishes the results: scores, grades, per-check results and ranked fixes.'

const SERVER_INSTRUCTIONS = `Scores websites, MCP servers and MCP App servers (0-100, grade A+ to F) on how well AI agents can discover, access and use them.
- scan_domain scans a target (or returns a stored result younger than maxAgeSeconds). When analysisStatus is "partial", deeper checks are still running: call get_score (or GET scoreUrl) until it is "complete".
- get_score reads the stored result without scanning; list_checks is the catalog of check ids; run_checks re-runs chosen checks live to verify a fix.
- get_leaderboard ranks scanned domains; discover_products finds products for an intent, ranked by readiness.
- Feedback needs agent verification: call get_verification_challenge, solve the challenge exactly, then pass verificationToken and verificationAnswer to submit_check_feedback or submit_feedback within its lifetime. Each token is accepted once.
Failures are tool results with isError true: invalid arguments name the offending field; every other failure's text is JSON { error, code, message, retry_after_ms?, details? } (code RATE_LIMIT_EXCEEDED: wait retry_after_ms). Scans share the limits of the HTTP scan API (${SCAN_LIMITS}); a scan key sent as "Authorization: Bearer <key>" on the MCP request is exempt.`

/** What one MCP request's tool calls act as: the HTTP request's caller and its rate-limit spender. */
export interface ToolCall {
  caller: Caller
  /** Spends one unit of a limit for the caller; throws the 429 AppError when it is exhausted. */
  enforceLimit(name: LimitName): Promise<unknown>
}

/** Every behaviour hint set explicitly: clients assume the least safe defaults for a missing one. */
interface ToolAnnotations {
  readOnlyHint: boolean
  destructiveHint: boolean
  idempotentHint: boolean
  openWorldHint: boolean
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string
  title: string
  description: string
  input: I
  output: O
  annotations: ToolAnnotations
  /** How an unexpected failure is reported (a scan that crashes is SCAN_FAILED, anything else INTERNAL_ERROR). */
  failure?: ErrorCode
  run(args: z.output<I>, call: ToolCall): Promise<z.input<O>>
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(tool: ToolDefinition<I, O>): ToolDefinition {
  return tool as unknown as ToolDefinition
}

/**
 * A domain failure as a tool result (isError, not a JSON-RPC error), so the model reads it and can act on it. The
 * text is the HTTP API's error body; `retry_after_ms` is always present on rate limits because an MCP result has no
 * Retry-After header to carry it. No structuredContent: clients would validate it against the success schema.
 */
function toolError(error: AppError): CallToolResult {
  const { body } = renderError(error, '/api/mcp')
  const retry = error.retryAfterSeconds === undefined ? {} : { retry_after_ms: error.retryAfterSeconds * 1000 }
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ ...body, ...retry }) }] }
}

async function callTool(tool: ToolDefinition, args: unknown, call: ToolCall, log: Logger): Promise<CallToolResult> {
  try {
    // Parsing strips anything the output schema does not name: clients validate structuredContent against the
    // advertised JSON Schema, where objects admit no additional properties.
    const structured = tool.output.parse(await tool.run(args as z.output<z.ZodObject>, call)) as Record<string, unknown>
    // MCP asks for the serialised JSON as text too, for clients that predate structuredContent.
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured }
  } catch (error) {
    if (error instanceof AppError) return toolError(error)
    log.error({ err: error, tool: tool.name }, 'mcp tool failed')
    return toolError(new AppError(tool.failure ?? 'INTERNAL_ERROR', { message: `${tool.name} failed unexpectedly` }))
  }
}

/** The part of either SDK's McpServer that registration uses. */
interface ToolRegistrar {
  registerTool(name: string, config: Record<string, unknown>, callback: (args: unknown) => Promise<CallToolResult>): unknown
}

function serverInfo(config: Pick<Config, 'publicBaseUrl'>) {
  return { name: SERVICE_NAME, version: CONTRACT_VERSION, title: SERVER_TITLE, description: SERVER_DESCRIPTION, websiteUrl: config.publicBaseUrl }
}

function registerTools(server: ToolRegistrar, tools: readonly ToolDefinition[], call: ToolCall, log: Logger): void {
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { title: tool.title, ...tool.annotations },
      },
      (args: unknown) => callTool(tool, args, call, log),
    )
  }
}

/**
 * One server per HTTP request (the endpoint is stateless, see index.ts), bound to that request's caller. Building
 * it is registration only: the tools and their services are created once per app. This one serves 2025-era
 * clients (initialize, then requests).
 */
export function createMcpServer(config: Pick<Config, 'publicBaseUrl'>, tools: readonly ToolDefinition[], call: ToolCall, log: Logger): McpServer {
  const server = new McpServer(serverInfo(config), { instructions: SERVER_INSTRUCTIONS })
  registerTools(server as unknown as ToolRegistrar, tools, call, log)
  return server
}

/**
 * The same server for 2026-07-28 clients (server/discover, a `_meta` envelope on every request, no initialize),
 * on the SDK's v2 server, which implements that revision.
 */
export function createModernMcpServer(
  config: Pick<Config, 'publicBaseUrl'>,
  tools: readonly ToolDefinition[],
  call: ToolCall,
  log: Logger,
): ModernMcpServer {
  const server = new ModernMcpServer(serverInfo(config), { instructions: SERVER_INSTRUCTIONS })
  registerTools(server as unknown as ToolRegistrar, tools, call, log)
  return server
}
