import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'
import {
  createMcpHandler,
  isLegacyRequest,
  localhostAllowedHostnames,
  validateHostHeader,
  validateOriginHeader,
} from '@modelcontextprotocol/server'
import { Elysia } from 'elysia'
import type { Config } from '../../core/config.ts'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import { documentResponse, serialize } from '../../core/etag.ts'
import { DOCUMENT_HEADERS, openApiSchema, type ResponseHeader, wire } from '../../core/openapi.ts'
import { buildLegacyPointer, buildOpenidDescriptor, buildServerCard, MCP_PATH, SERVER_CARD_PATH } from './discovery.ts'
import { documentResponses, legacyMcpPointer, openidDescriptor, SERVER_CARD_MEDIA_TYPE, serverCard } from './model.ts'
import { buildToolbox, createMcpServer, createModernMcpServer, type ToolCall, type Toolbox } from './server.ts'
import { buildTools, type ToolPieces } from './tools.ts'
import { AppError, errorResponse } from '../../core/errors.ts'
import { MCP_ERRORS } from './errors.ts'
import { describeLimit } from '../../core/limits.ts'
import { MCP_LIMITS } from './limits.ts'

/** Discovery documents change only with a deployment, so caches may keep them for an hour (docs/checks.md §7). */
const DOCUMENT_CACHE = 'public, max-age=3600'

/** SEP-2127 asks every card host for exactly these, so that browser-based clients can read and revalidate it. */
const CARD_CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type, If-None-Match',
  'access-control-expose-headers': 'ETag',
}

/**
 * Browser-based MCP clients on the deployment's own names call the endpoint with CORS; `*` is safe because
 * hostGuard has already refused every other Origin, and the server relies on no ambient credential (no cookies; a
 * scan key is a header the client sets itself). GET and DELETE are allowed so that a browser client sees their 405
 * (which clients read as "not supported") instead of a CORS failure.
 */
const MCP_CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers':
    'Content-Type, Accept, Authorization, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID',
  'access-control-max-age': '86400',
}

/** The OpenAPI names of MCP_CORS and CARD_CORS, as the transport's answers and the card's carry them. */
const MCP_CORS_HEADERS: readonly ResponseHeader[] = [
  'Access-Control-Allow-Origin',
  'Access-Control-Allow-Methods',
  'Access-Control-Allow-Headers',
  'Access-Control-Max-Age',
]
const CARD_CORS_HEADERS: readonly ResponseHeader[] = [
  'Access-Control-Allow-Origin',
  'Access-Control-Allow-Methods',
  'Access-Control-Allow-Headers',
  'Access-Control-Expose-Headers',
]
/** A new object per operation: the document's completion adds headers to each response object it is given. */
const hostNotAllowed = () => ({
  description:
    "A `Host` or `Origin` that is not one of the deployment's names (`HOST_NOT_ALLOWED`): DNS-rebinding protection",
  content: { 'application/json': { schema: openApiSchema(errorResponse) } },
})

/** The 405 of GET and DELETE on the stateless endpoint. */
const methodNotAllowedWire = wire({
  answers: {
    403: hostNotAllowed(),
    405: {
      description: 'Not supported by this stateless server: a JSON-RPC error, `Allow: POST`',
      headers: ['Allow', ...MCP_CORS_HEADERS],
      content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 error response' } } },
    },
  },
})

/**
 * DNS-rebinding protection (MCP transport security: servers validate Origin, and answer 403 to an invalid one).
 * A page on a name its attacker controls can rebind that name to a self-hosted instance's address; the browser
 * then sends the attacker's name as Host and Origin. Only the deployment's own names pass: PUBLIC_BASE_URL's host,
 * loopback and ALLOWED_HOSTS. A request without Origin is no browser's, and only its Host is checked.
 */
function hostGuard(config: Pick<Config, 'publicBaseUrl' | 'allowedHosts'>) {
  const allowed = [new URL(config.publicBaseUrl).hostname, ...localhostAllowedHostnames(), ...config.allowedHosts]
  return ({ request }: { request: Request }) => {
    // Requests built in-process (app.handle) carry no Host header; their URL names the host they were sent to.
    const host = validateHostHeader(request.headers.get('host') ?? new URL(request.url).host, allowed)
    const origin = validateOriginHeader(request.headers.get('origin'), allowed)
    const refused = !host.ok ? host : !origin.ok ? origin : null
    if (refused) {
      throw new AppError(MCP_ERRORS.HOST_NOT_ALLOWED, {
        message: `${refused.message}: this MCP server answers only to its own names (PUBLIC_BASE_URL, loopback, ALLOWED_HOSTS)`,
      })
    }
  }
}

/** GET (a server-to-client stream) and DELETE (ending a session) have nothing to act on in a stateless server. */
function methodNotAllowed(): Response {
  return Response.json(
    {
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send requests with POST' },
      id: null,
    },
    { status: 405, headers: { allow: 'POST', ...MCP_CORS } },
  )
}

/**
 * Our own MCP server at /api/mcp, on the SDK's web-standard streamable HTTP transport, and the documents that let
 * clients find it.
 *
 * Stateless: every POST gets a fresh server and transport (no Mcp-Session-Id) and a plain JSON response. Nothing
 * lives between requests, so any instance behind a load balancer answers any request, and no session table has to
 * be shared or expired. The tools need no server-to-client messages (no sampling, elicitation or progress), which
 * is all a session or an SSE stream would add.
 */
type McpNeeds = Pick<KernelPieces, 'context' | 'log'> & ToolPieces

/** The tools, built once per app: served here, and listed for people by the web's /api page. */
type McpProvides = { mcpToolbox: Toolbox }

export function mcpPlugin(deps: McpNeeds & McpProvides) {
  const { context, mcpToolbox: toolbox } = deps
  const card = serialize(buildServerCard(deps.config))
  const legacy = serialize(buildLegacyPointer(deps.config))
  const openid = serialize(buildOpenidDescriptor(deps.config))

  const serveCard = ({ request }: { request: Request }) =>
    documentResponse(request, card, SERVER_CARD_MEDIA_TYPE, { 'cache-control': DOCUMENT_CACHE, ...CARD_CORS })
  const cardDetail = {
    tags: ['MCP'],
    summary: 'MCP server card (SEP-2127)',
    description:
      'Describes our MCP server before a client connects: name (reverse-DNS of this host + `/agent-readiness`), version (the contract version, identical to the MCP serverInfo), and the streamable HTTP remote with the protocol versions it negotiates. `application/mcp-server-card+json`, CORS `*`, cached 1 hour, ETag (304 on If-None-Match).',
    responses: documentResponses(serverCard, SERVER_CARD_MEDIA_TYPE, 'The server card'),
    ...wire({
      answers: { 200: [...DOCUMENT_HEADERS, ...CARD_CORS_HEADERS], 304: [...DOCUMENT_HEADERS, ...CARD_CORS_HEADERS] },
    }),
  }
  const pointerWire = wire({
    answers: {
      200: [...DOCUMENT_HEADERS, 'Access-Control-Allow-Origin'],
      304: [...DOCUMENT_HEADERS, 'Access-Control-Allow-Origin'],
    },
  })
  const guardHost = hostGuard(deps.config)
  const cardPreflight = () =>
    new Response(null, { status: 204, headers: { ...CARD_CORS, 'access-control-max-age': '86400' } })

  /** 2025-era clients: the SDK's stateless streamable HTTP transport answers with plain JSON. */
  const serveLegacy = async (request: Request, body: unknown, call: ToolCall) => {
    const server = createMcpServer(deps.config, toolbox, call, deps.log)
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    })
    await server.connect(transport)
    try {
      return await transport.handleRequest(request, { parsedBody: body })
    } finally {
      // JSON responses are complete once handleRequest resolves, so nothing is cut short here.
      await server.close()
    }
  }
  /** 2026-07-28 clients (a `_meta` envelope on the request): the v2 SDK's handler, which owns that revision's answers. */
  const serveModern = async (request: Request, body: unknown, call: ToolCall) => {
    const handler = createMcpHandler(() => createModernMcpServer(deps.config, toolbox, call, deps.log), {
      legacy: 'reject',
    })
    try {
      return await handler.fetch(request, { parsedBody: body })
    } finally {
      await handler.close()
    }
  }

  return new Elysia({ name: 'mcp' })
    .use(context)
    .post(
      MCP_PATH,
      async ({ request, body, caller, enforceLimit }) => {
        const call = { caller, enforceLimit }
        // The app's JSON parser has already read the body (with its size cap); both transports take it parsed.
        const response = (await isLegacyRequest(request, body))
          ? await serveLegacy(request, body, call)
          : await serveModern(request, body, call)
        for (const [name, value] of Object.entries(MCP_CORS)) response.headers.set(name, value)
        return response
      },
      {
        // Before the limit (hooks run in the order a route lists them): a rebinding page must not spend the rate
        // limit of the person whose browser it runs in.
        transform: guardHost,
        limit: MCP_LIMITS.mcp,
        detail: {
          tags: ['MCP'],
          summary: 'MCP server (streamable HTTP, stateless)',
          description: `JSON-RPC 2.0 over MCP streamable HTTP: send \`Accept: application/json, text/event-stream\` and \`Content-Type: application/json\`; requests are answered with \`application/json\`, notifications with 202. Stateless: no \`Mcp-Session-Id\`, every request stands alone (initialize is still answered for clients that begin with it). Both protocol eras: 2025-era clients (initialize, then requests; versions up to 2025-11-25) and 2026-07-28 clients (\`server/discover\`, the \`_meta\` envelope and \`Mcp-Method\`/\`Mcp-Name\` headers on every request, no initialize). Capabilities: \`tools\` only, without \`listChanged\`. Tools: ${toolbox.listing.map((tool) => tool.name).join(', ')}; scan_domain and get_score answer a summary unless called with \`detail: "full"\`. Domain failures are tool results with \`isError: true\` whose text is the error body of this API as JSON; an unknown tool name is JSON-RPC error -32602. \`Host\` and \`Origin\` must name this deployment (PUBLIC_BASE_URL's host, loopback or ALLOWED_HOSTS), otherwise 403. Rate limit: ${describeLimit(MCP_LIMITS.mcp)} per IP; scan_domain and run_checks also spend the limits of POST /api/scan and POST /api/scan/checks, get_score those of GET /api/score (a scan key in \`Authorization: Bearer\` is exempt from these), the feedback tools those of POST /api/feedback/check. No authentication is required.`,
          security: [{ bearerKey: [] }, {}],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 request or notification' } },
            },
          },
          responses: {
            200: {
              description: 'The JSON-RPC response',
              content: { 'application/json': { schema: { type: 'object' } } },
            },
            202: { description: 'Notification accepted' },
            400: {
              description:
                'Malformed JSON or not a JSON-RPC message; for 2026-07-28 requests also an unsupported revision (-32022), headers that disagree with the body (-32020) or a malformed envelope (-32602)',
            },
            403: hostNotAllowed(),
            404: {
              description: '2026-07-28 requests: an unknown method (JSON-RPC -32601)',
              content: {
                'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 error response' } },
              },
            },
            406: { description: 'The Accept header lacks application/json or text/event-stream' },
            415: { description: 'The body is not application/json' },
            429: {
              description: 'Rate limit exceeded (`Retry-After`)',
              content: { 'application/json': { schema: openApiSchema(errorResponse) } },
            },
          },
          ...wire({
            answers: {
              200: MCP_CORS_HEADERS,
              202: MCP_CORS_HEADERS,
              400: MCP_CORS_HEADERS,
              404: MCP_CORS_HEADERS,
              406: MCP_CORS_HEADERS,
              415: MCP_CORS_HEADERS,
            },
          }),
        },
      },
    )
    .get(MCP_PATH, methodNotAllowed, {
      transform: guardHost,
      limit: MCP_LIMITS.mcp,
      detail: {
        tags: ['MCP'],
        summary: 'Not supported: no server-to-client stream (405)',
        description: 'The server is stateless and sends nothing unprompted.',
        ...methodNotAllowedWire,
      },
    })
    .delete(MCP_PATH, methodNotAllowed, {
      transform: guardHost,
      limit: MCP_LIMITS.mcp,
      detail: { tags: ['MCP'], summary: 'Not supported: there are no sessions to end (405)', ...methodNotAllowedWire },
    })
    .options(MCP_PATH, () => new Response(null, { status: 204, headers: MCP_CORS }), {
      transform: guardHost,
      detail: { hide: true },
    })
    .get(SERVER_CARD_PATH, serveCard, { detail: cardDetail })
    .options(SERVER_CARD_PATH, cardPreflight, { detail: { hide: true } })
    .get('/.well-known/mcp/server-card.json', serveCard, {
      detail: { ...cardDetail, summary: `${cardDetail.summary} (well-known path)` },
    })
    .options('/.well-known/mcp/server-card.json', cardPreflight, { detail: { hide: true } })
    .get(
      '/.well-known/mcp.json',
      ({ request }) =>
        documentResponse(request, legacy, 'application/json', {
          'cache-control': DOCUMENT_CACHE,
          'access-control-allow-origin': '*',
        }),
      {
        detail: {
          tags: ['MCP'],
          summary: 'Legacy MCP discovery pointer (SEP-1649)',
          description:
            'For clients and scanners that still probe the SEP-1649 location: server name and version, the transport endpoint, and a link to the current server card. CORS `*`, cached 1 hour, ETag.',
          responses: documentResponses(legacyMcpPointer, 'application/json', 'The pointer'),
          ...pointerWire,
        },
      },
    )
    .get(
      '/.well-known/openid-configuration',
      ({ request }) =>
        documentResponse(request, openid, 'application/json', {
          'cache-control': DOCUMENT_CACHE,
          'access-control-allow-origin': '*',
        }),
      {
        detail: {
          tags: ['MCP'],
          summary: 'OpenID-style descriptor: a pointer to the MCP endpoint only',
          description:
            'Exists so that clients which look for OpenID / OAuth metadata first find the MCP endpoint. This service is not an OpenID provider or an OAuth authorization server: the document names no issuer and no authorization, token, registration or JWKS endpoint, and no tokens are issued anywhere. Scan keys are issued manually by the operators; agents verify themselves for feedback with the `get_verification_challenge` tool. CORS `*`, cached 1 hour, ETag.',
          responses: documentResponses(openidDescriptor, 'application/json', 'The pointer to the MCP endpoint'),
          ...pointerWire,
        },
      },
    )
}

/** The MCP server: its tools drive the pieces other features provide, declared here rather than imported. */
export const mcpFeature = defineFeature<McpNeeds, McpProvides>()({
  name: 'mcp',
  needs: [
    'context',
    'log',
    'config',
    'registry',
    'scanService',
    'feedbackService',
    'verification',
    'journeyService',
    'discover',
    'leaderboard',
  ],
  provides: ['mcpToolbox'],
  limits: MCP_LIMITS,
  provide: (deps) => ({ mcpToolbox: buildToolbox(buildTools(deps)) }),
  routes: mcpPlugin,
  errors: { codes: MCP_ERRORS },
})
