import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { Server as ModernServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server'
import type { z } from 'zod'
import type { Config } from '../../core/config.ts'
import { CONTRACT_VERSION, SERVICE_NAME } from '../../core/version.ts'
import { AppError, ERROR_ENVELOPE, type ErrorCode, type ErrorDefinition, renderError } from '../../core/errors.ts'
import { asAppError } from '../../core/request/scan-error-response.ts'
import type { Logger } from '../../core/log.ts'
import { type Caller, describeLimit, type Limit } from '../../core/limits.ts'
import { FEEDBACK_LIMITS } from '../feedback/public.ts'
import { JOURNEY_LIMITS } from '../journey/public.ts'
import { SCAN_LIMITS } from '../scan/public.ts'
import { LISTED_OUTPUT_SCHEMA, listedAnnotations, type ListedInputSchema, listedInputSchema } from './listing.ts'
import { MAX_AGE_DEFAULT } from '../scan/public.ts'
import { SCAN_LIMITS_SENTENCE } from './model.ts'

export const SERVER_TITLE = 'Agent Readiness'

export const SERVER_DESCRIPTION =
  'Scores how ready websites, MCP servers and MCP App servers are for AI agents, with ranked fixes.'

const SERVER_INSTRUCTIONS = `Scores websites, MCP servers and MCP App servers (0-100, grade A+ to F) on how well AI agents can discover, access and use them.
- scan_domain scans a target (or returns a stored result younger than maxAgeSeconds, default ${MAX_AGE_DEFAULT} s; force skips that, with its own budget). Both it and get_score answer a summary: score, grade, analysisStatus, top fixes with their gain, failing checks with one line of details, bonus checks not met, reportUrl; pass detail "full" for the whole report (every layer and check), or GET scoreUrl. When analysisStatus is "partial", deeper checks are still running: call get_score until it is "complete".
- list_checks is the catalog of check ids; run_checks re-runs chosen checks live to verify a fix.
- get_leaderboard ranks scanned domains; discover_products finds products for an intent, ranked by readiness.
- Feedback needs agent verification: call get_verification_challenge, solve the challenge exactly, then pass verificationToken and verificationAnswer to submit_check_feedback or submit_feedback within its lifetime. Each token is accepted once.
- Journeys: list_journey_intents (the tasks and the agents), start_journey_run (agent: an AI assistant's fetcher or our own; compare: true also walks it as a plain browser), then poll get_journey_run until status is completed or failed. Verdict outcome blocked means the site stopped that agent, failure that the task was not done; a compare run's insight.comparison tells blocked_for_agents (reachable for browsers) from absent (not found either way).
Failures are tool results with isError true: invalid arguments name the offending field; every other failure's text is JSON { error, code, message, retry_after_ms?, details? } (code RATE_LIMIT_EXCEEDED: wait retry_after_ms). Limits are those of the HTTP API: scans ${SCAN_LIMITS_SENTENCE}; get_score ${describeLimit(SCAN_LIMITS.score)}; feedback ${describeLimit(FEEDBACK_LIMITS.feedback)}; journeys ${describeLimit(JOURNEY_LIMITS.journeyBurst)} and ${describeLimit(JOURNEY_LIMITS.journeyIpDaily)} per IP. A scan key sent as "Authorization: Bearer <key>" on the MCP request is exempt from the scan and score limits.`

/** What one MCP request's tool calls act as: the HTTP request's caller and its rate-limit spender. */
export interface ToolCall {
  caller: Caller
  /** Spends one unit of a limit for the caller; throws the 429 AppError when it is exhausted. */
  enforceLimit(limit: Limit): Promise<unknown>
}

/** Every behaviour hint decided explicitly per tool; the listing sends those a client cannot infer (listing.ts). */
export interface ToolAnnotations {
  readOnlyHint: boolean
  destructiveHint: boolean
  idempotentHint: boolean
  openWorldHint: boolean
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string
  description: string
  input: I
  output: O
  annotations: ToolAnnotations
  /** How an unexpected failure is reported (a scan that crashes is SCAN_FAILED, anything else INTERNAL_ERROR). */
  failure?: ErrorCode | ErrorDefinition
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
  const { body } = renderError(error, ERROR_ENVELOPE)
  const retry = error.retryAfterSeconds === undefined ? {} : { retry_after_ms: error.retryAfterSeconds * 1000 }
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ ...body, ...retry }) }] }
}

async function callTool(tool: ToolDefinition, args: unknown, call: ToolCall, log: Logger): Promise<CallToolResult> {
  try {
    // Parsing gives every result exactly the tool's output shape: what the schema does not name is dropped, so
    // services can return richer rows than an agent is sent.
    const structured = tool.output.parse(await tool.run(args as z.output<z.ZodObject>, call)) as Record<string, unknown>
    // MCP asks for the serialised JSON as text too, for clients that predate structuredContent.
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured }
  } catch (error) {
    const known = asAppError(error)
    if (known) return toolError(known)
    log.error({ err: error, tool: tool.name }, 'mcp tool failed')
    return toolError(new AppError(tool.failure ?? 'INTERNAL_ERROR', { message: `${tool.name} failed unexpectedly` }))
  }
}

/** A tools/list entry, computed once per app (see listing.ts). */
export interface ListedTool {
  name: string
  description: string
  inputSchema: ListedInputSchema
  outputSchema: typeof LISTED_OUTPUT_SCHEMA
  annotations: Partial<ToolAnnotations>
}

/** The tools as both SDKs' servers serve them: the advertised listing and the definitions by name. */
export interface Toolbox {
  listing: ListedTool[]
  byName: ReadonlyMap<string, ToolDefinition>
}

export function buildToolbox(tools: readonly ToolDefinition[]): Toolbox {
  return {
    listing: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: listedInputSchema(tool.input),
      outputSchema: LISTED_OUTPUT_SCHEMA,
      annotations: listedAnnotations(tool.annotations),
    })),
    byName: new Map(tools.map((tool) => [tool.name, tool])),
  }
}

/**
 * tools/call. An unknown name is a protocol error (JSON-RPC -32602, as the tools spec has it): there is nothing a
 * model could correct in its arguments. Arguments that fail the input schema are a tool error naming the fields
 * (SEP-1303), so the model can fix them and call again.
 */
async function dispatch(
  toolbox: Toolbox,
  name: string,
  args: unknown,
  call: ToolCall,
  log: Logger,
): Promise<CallToolResult> {
  const tool = toolbox.byName.get(name)
  if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`)
  const parsed = tool.input.safeParse(args ?? {})
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(arguments)'}: ${issue.message}`)
    return {
      isError: true,
      content: [{ type: 'text', text: `Invalid arguments for tool ${name}: ${issues.join('; ')}` }],
    }
  }
  return callTool(tool, parsed.data, call, log)
}

function serverInfo(config: Pick<Config, 'publicBaseUrl'>) {
  return {
    name: SERVICE_NAME,
    version: CONTRACT_VERSION,
    title: SERVER_TITLE,
    description: SERVER_DESCRIPTION,
    websiteUrl: config.publicBaseUrl,
  }
}

/**
 * Tools only, and no `listChanged`: a stateless server has no open stream to send that notification on, and the
 * tools never change while a deployment runs. The handlers are registered on the SDKs' low-level servers, so that
 * the advertised capabilities, the listing and the unknown-tool error are ours rather than the McpServer defaults.
 */
const SERVER_OPTIONS = { capabilities: { tools: {} }, instructions: SERVER_INSTRUCTIONS }

/**
 * One server per HTTP request (the endpoint is stateless, see index.ts), bound to that request's caller. Building
 * it is registration only: the toolbox and the services behind it are created once per app. This one serves
 * 2025-era clients (initialize, then requests).
 */
export function createMcpServer(
  config: Pick<Config, 'publicBaseUrl'>,
  toolbox: Toolbox,
  call: ToolCall,
  log: Logger,
): Server {
  const server = new Server(serverInfo(config), SERVER_OPTIONS)
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolbox.listing }))
  server.setRequestHandler(CallToolRequestSchema, (request) =>
    dispatch(toolbox, request.params.name, request.params.arguments, call, log),
  )
  return server
}

/**
 * The same server for 2026-07-28 clients (server/discover, a `_meta` envelope on every request, no initialize),
 * on the SDK's v2 server, which implements that revision.
 */
export function createModernMcpServer(
  config: Pick<Config, 'publicBaseUrl'>,
  toolbox: Toolbox,
  call: ToolCall,
  log: Logger,
): ModernServer {
  const server = new ModernServer(serverInfo(config), SERVER_OPTIONS)
  server.setRequestHandler('tools/list', () => ({ tools: toolbox.listing }))
  server.setRequestHandler('tools/call', (request) =>
    dispatch(toolbox, request.params.name, request.params.arguments, call, log),
  )
  return server
}
