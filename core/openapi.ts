import { z } from 'zod'
import type { AppErrors, ErrorEnvelope } from './errors.ts'

/**
 * An OpenAPI 3.1 schema object from a zod model, for routes that answer with a Response of their own media type and
 * so document it by hand (Elysia would document application/json). Same conversion as the docs plugin applies to
 * route schemas; the `$schema` dialect marker is dropped, OpenAPI 3.1 already speaks JSON Schema 2020-12.
 */
export function openApiSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'output' })
  return rest
}

// ---------------------------------------------------------------------------------------------------------------
// Response headers and the answers every route shares
//
// Elysia documents a route's statuses from its `response` schemas (or `detail.responses` when it has none) and no
// response header at all. `completeDocument` fills in, once for the whole document, what the wire actually carries:
// the answers of the context plugin (core/context.ts) that any route can give, the 429 of the `limit` macro (which
// marks its route's `detail` with `x-rate-limit` and `x-rate-limit-window`), and the route-specific headers and
// statuses a route lists with `wire(...)` in its `detail`. tests/openapi-wire.test.ts checks the result against real
// answers.

const integer = { type: 'integer', minimum: 0 } as const
const text = { type: 'string' } as const

/** Every response header the API sends (hop-by-hop and representation headers aside), under components.headers. */
export const RESPONSE_HEADERS = {
  'X-Request-Id': {
    description:
      "The request id: the caller's own `X-Request-Id` when it is 8-128 characters of `[A-Za-z0-9._-]`, a new UUID otherwise. On every response.",
    schema: text,
  },
  'Cache-Control': { description: 'Caching policy; `no-store` on every error answer.', schema: text },
  'Retry-After': {
    description: 'Seconds until one more request would be admitted (rate-limit denials).',
    schema: integer,
  },
  'X-RateLimit-Limit': {
    description:
      'Size of the one rate window this response describes (journeys: per target for anonymous callers, per key for keyed ones).',
    schema: integer,
  },
  'X-RateLimit-Remaining': { description: 'Requests left in that window.', schema: integer },
  'X-RateLimit-Reset': {
    description: 'Seconds until the window is empty again (a delta, not a timestamp).',
    schema: integer,
  },
  Location: { description: 'The URL to poll for the complete result.', schema: { type: 'string', format: 'uri' } },
  Age: { description: 'Age in seconds of a stored result served without scanning (a freshness hit).', schema: integer },
  ETag: {
    description: 'Strong entity tag of the exact bytes; send it back in `If-None-Match` for a 304.',
    schema: text,
  },
  Vary: { description: 'Request headers the representation depends on.', schema: text },
  Deprecation: {
    description:
      'RFC 9745: present from the day a removal decision for this route takes effect (`@<unix seconds>`). Nothing is deprecated in this contract version.',
    schema: text,
  },
  Sunset: {
    description: 'RFC 8594: the committed removal date (HTTP-date), at least 90 days after `Deprecation`.',
    schema: text,
  },
  Link: {
    description:
      'With `Deprecation`: the migration guide, `rel="deprecation"`. On Markdown alternates: the canonical page.',
    schema: text,
  },
  Allow: { description: 'The methods the resource supports.', schema: text },
  'Access-Control-Allow-Origin': { description: 'CORS: `*`, the resource is public.', schema: text },
  'Access-Control-Allow-Methods': { description: 'CORS: methods allowed cross-origin.', schema: text },
  'Access-Control-Allow-Headers': { description: 'CORS: request headers allowed cross-origin.', schema: text },
  'Access-Control-Expose-Headers': { description: 'CORS: response headers readable cross-origin.', schema: text },
  'Access-Control-Max-Age': { description: 'CORS: seconds a preflight answer may be cached.', schema: integer },
  'Content-Digest': { description: 'RFC 9530 digest of the body (signed directory responses).', schema: text },
  Signature: { description: 'RFC 9421 signature `binding0` over the authority and `Content-Digest`.', schema: text },
  'Signature-Input': { description: 'RFC 9421 signature parameters of `binding0`.', schema: text },
  'X-Accel-Buffering': { description: '`no`: proxies must not buffer the event stream.', schema: text },
} as const

export type ResponseHeader = keyof typeof RESPONSE_HEADERS

/** Declared on the primary success responses of the scan and score routes (spec, Versioning 4; core/deprecations.ts). */
export const DEPRECATION_HEADERS = ['Deprecation', 'Sunset', 'Link'] as const satisfies readonly ResponseHeader[]
/** What core/etag.ts documentResponse sends, on the 200 and on the 304. */
export const DOCUMENT_HEADERS = ['ETag', 'Cache-Control'] as const satisfies readonly ResponseHeader[]
export const RATE_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
] as const satisfies readonly ResponseHeader[]
/** core/sse.ts sseResponse. */
export const STREAM_HEADERS = ['Cache-Control', 'X-Accel-Buffering'] as const satisfies readonly ResponseHeader[]
/**
 * The documented 200 of a Server-Sent Events route (Elysia would document application/json). A new object per
 * route: completeDocument adds each route's own headers to it.
 */
export function eventStreamResponses() {
  return {
    200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: openApiSchema(z.string()) } } },
  }
}

/** One status a route answers beyond its `response` schemas, or headers on one it already documents. */
export type WireAnswer =
  | readonly ResponseHeader[]
  | { description: string; headers?: readonly ResponseHeader[]; content?: Record<string, unknown> }

export interface WireSpec {
  /** Headers per status (the status is added when the route does not document it yet). */
  answers?: Record<number, WireAnswer>
  /** Query parameters the handler requires although the schema leaves them optional (it answers 400 itself). */
  requiredQuery?: readonly string[]
}

/**
 * A route's own headers and statuses, spread into its `detail` (`detail: { ..., ...wire({ answers: { 200: ['Cache-Control'] } }) }`);
 * `completeDocument` turns the `x-wire` extension into response headers and removes it.
 */
export function wire(spec: WireSpec): { 'x-wire': WireSpec } {
  return { 'x-wire': spec }
}

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete'])
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

interface ResponseObject {
  description: string
  headers?: Record<string, unknown>
  content?: Record<string, unknown>
}
interface Operation {
  responses?: Record<string, ResponseObject>
  parameters?: { in: string; name: string; required?: boolean }[]
  'x-wire'?: WireSpec
  /** The `limit` macro's limit and its window (core/request/limits.ts); the window is not published. */
  'x-rate-limit'?: string
  'x-rate-limit-window'?: string
  [key: string]: unknown
}
type Document = {
  paths?: Record<string, Record<string, Operation>>
  components?: Record<string, Record<string, unknown>>
}

/** The context plugin's answers (core/context.ts), possible on every operation. */
function genericAnswers(method: string): Record<number, string> {
  return {
    400: 'Invalid request: a path or query value (or a body) holding NUL, other control characters or unpaired surrogates, JSON nested over 64 levels, malformed JSON, or a schema failure',
    ...(BODY_METHODS.has(method)
      ? {
          413: 'The body is over 1 MiB (`PAYLOAD_TOO_LARGE`)',
          415: 'The body is not `application/json` (`UNSUPPORTED_MEDIA_TYPE`)',
        }
      : { 413: 'A declared `Content-Length` over 1 MiB (`PAYLOAD_TOO_LARGE`)' }),
    500: 'Internal error; `DATABASE_UNAVAILABLE` while the database cannot be reached',
  }
}

const completed = new WeakMap<object, Document>()

/**
 * The generated document with every header and status the routes send declared (see above), each error in the
 * envelope `errors` gives its path. Pure: the input (the openapi plugin's cached document) is left alone, and the
 * answer is memoised for it.
 */
export function completeDocument<T extends object>(generated: T, errors: AppErrors): T {
  const known = completed.get(generated)
  if (known) return known as T
  const document = structuredClone(generated) as Document
  document.components ??= {}
  document.components.headers = { ...document.components.headers, ...RESPONSE_HEADERS }
  document.components.schemas = {
    ...document.components.schemas,
    ...Object.fromEntries(errors.envelopes.map(({ schemaName, schema }) => [schemaName, openApiSchema(schema)])),
  }
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!METHODS.has(method)) continue
      completeOperation(method, operation, errors.envelopeFor(path))
    }
  }
  completed.set(generated, document)
  return document as T
}

function completeOperation(method: string, operation: Operation, errorEnvelope: ErrorEnvelope): void {
  const spec = operation['x-wire'] ?? {}
  delete operation['x-wire']
  const responses = (operation.responses ??= {})
  const envelope = { 'application/json': { schema: { $ref: `#/components/schemas/${errorEnvelope.schemaName}` } } }
  /** Adds the status when missing; `description` also replaces Elysia's placeholder ("Response for status 400"). */
  const ensure = (
    status: number,
    description: string | null,
    content: Record<string, unknown> | undefined = envelope,
  ) => {
    const response = (responses[String(status)] ??= {
      description: description ?? `Status ${status}`,
      ...(content ? { content } : {}),
    })
    if (description !== null && response.description.startsWith('Response for status'))
      response.description = description
    return response
  }
  const declare = (status: number, headers: readonly ResponseHeader[]) => {
    const response = responses[String(status)]!
    response.headers ??= {}
    for (const name of headers) response.headers[name] ??= { $ref: `#/components/headers/${name}` }
  }

  for (const [status, description] of Object.entries(genericAnswers(method))) ensure(Number(status), description)
  const limitWindow = operation['x-rate-limit-window']
  delete operation['x-rate-limit-window']
  if (limitWindow !== undefined) {
    ensure(
      429,
      `Rate limit exceeded (\`RATE_LIMIT_EXCEEDED\`, \`Retry-After\` in seconds${errorEnvelope.retryInBody ? '; denials of a daily budget also carry `retry_after_ms`' : ''}). Per caller on every request: ${limitWindow}; the description names any further budget.`,
    )
    declare(429, ['Retry-After'])
  }
  for (const [status, answer] of Object.entries(spec.answers ?? {})) {
    const code = Number(status)
    if (Array.isArray(answer)) {
      ensure(code, null, code < 400 ? undefined : envelope)
      declare(code, answer as readonly ResponseHeader[])
    } else {
      const described = answer as Exclude<WireAnswer, readonly ResponseHeader[]>
      ensure(code, described.description, described.content ?? (code < 400 ? undefined : envelope))
      declare(code, described.headers ?? [])
    }
  }
  for (const name of spec.requiredQuery ?? []) {
    const parameter = operation.parameters?.find((candidate) => candidate.in === 'query' && candidate.name === name)
    if (parameter) parameter.required = true
  }
  for (const status of Object.keys(responses)) {
    declare(Number(status), Number(status) >= 400 ? ['X-Request-Id', 'Cache-Control'] : ['X-Request-Id'])
  }
  // Keep the statuses in numeric order, as a reader expects them.
  operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)))
}
