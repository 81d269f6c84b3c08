import { randomUUID } from 'node:crypto'
import { type DocumentDecoration, Elysia, status } from 'elysia'
import type { Kernel } from './kernel.ts'
import { AppError, isDatabaseUnavailableError, renderError, usesArdEnvelope } from './errors.ts'
import { asAppError } from './scan-errors.ts'
import type { Capability } from './keys/service.ts'
import { hasCapability } from './keys/service.ts'
import { type Caller, clientIp, consume, LIMITS, type LimitName, rateLimitHeaders, type LimitSpec, retryAfterSeconds } from './limits.ts'
import { databaseOutage, type Outage } from './outage.ts'
import { jsonNestingExceeds, MAX_JSON_DEPTH } from './parse/nesting.ts'
import { findInvalidText, INVALID_TEXT_MESSAGE, isValidText } from './parse/text.ts'

/** Bodies larger than this are refused with 413 before they are parsed. */
export const MAX_BODY_BYTES = 1024 * 1024

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,128}$/

/** After a failed key lookup, keyed requests skip the database this long instead of each waiting on it again. */
const KEY_LOOKUP_BACKOFF_MS = 1000

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', { message: `The body limit is ${MAX_BODY_BYTES} bytes` })

const databaseUnavailable = (cause?: unknown) =>
  new AppError('DATABASE_UNAVAILABLE', { message: 'The database is unavailable; try again shortly', cause })

/** A 400 naming where the input failed (`body`, `query`, `params`) in the same shape as a schema failure. */
function invalidInput(where: 'body' | 'query' | 'params', path: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', {
    message: `Invalid ${where}: ${path ? `${path}: ` : ''}${message}`,
    details: { in: where, issues: [{ path, message }] },
  })
}

/**
 * The per-request context every feature plugin builds on: request id, caller (anonymous or a key), rate-limit
 * enforcement, the JSON parser with a size cap, and the one error mapper. Plugins `.use()` it; Elysia dedupes
 * it by name so it runs once per request.
 */
export function contextPlugin(deps: Kernel) {
  const records = new WeakMap<Request, RequestRecord>()
  const outage = databaseOutage(deps)

  const errorResponse = (request: Request, error: AppError): Response => {
    const { pathname } = new URL(request.url)
    const { body, headers } = renderError(error, pathname)
    const record = records.get(request)
    if (record) record.errorStatus = error.status
    return Response.json(body, {
      status: error.status,
      headers: { ...headers, 'x-request-id': record?.id ?? '', 'cache-control': 'no-store' },
    })
  }

  const plugin = new Elysia({ name: 'context' })
    .decorate('deps', deps)
    .onRequest(({ request }) => {
      const presented = request.headers.get('x-request-id')
      const requestId = presented && REQUEST_ID_PATTERN.test(presented) ? presented : randomUUID()
      records.set(request, { id: requestId, startedAt: performance.now() })
      const length = Number(request.headers.get('content-length') ?? 0)
      if (length > MAX_BODY_BYTES) return errorResponse(request, tooLarge())
    })
    .onParse({ as: 'global' }, ({ request, contentType }) => parseBody(request, contentType))
    // Bodies are marked by parseBody until validation has replaced them; routes without a body schema get theirs
    // back unmarked here.
    .onBeforeHandle({ as: 'global' }, ({ body }) => {
      unmarkBody(body)
    })
    // Elysia splits any query value containing a comma into an array and JSON-parses values that look like
    // arrays or objects; free text (a discover intent, an ARD filter) must reach validation as the client sent it.
    // Query and path text is checked here, once for every route, like body text in parseBody.
    .onTransform({ as: 'global' }, ({ request, query, params }) => {
      for (const [name, value] of Object.entries(params ?? {})) {
        // Elysia hands over null for a segment whose percent-encoding does not decode (%E0%A4%A, %ED%A0%80).
        if (typeof value !== 'string') throw invalidInput('params', name, 'is not valid percent-encoded UTF-8')
        if (!isValidText(value)) throw invalidInput('params', name, INVALID_TEXT_MESSAGE)
      }
      const start = request.url.indexOf('?')
      if (start === -1) return
      const search = new URLSearchParams(request.url.slice(start + 1))
      for (const key of new Set(search.keys())) {
        if (!isValidText(key)) throw invalidInput('query', '', `parameter names ${INVALID_TEXT_MESSAGE}`)
        const values = search.getAll(key)
        if (!values.every(isValidText)) throw invalidInput('query', key, INVALID_TEXT_MESSAGE)
        ;(query as Record<string, string | string[]>)[key] = values.length === 1 ? values[0]! : values
      }
    })
    .derive({ as: 'global' }, async ({ request, server }) => {
      const ip = clientIp(request, () => server?.requestIP(request)?.address ?? null, deps.config.trustProxy)
      const { caller, unresolved } = await resolveCaller(deps, outage, request, ip)
      return {
        /**
         * Anonymous when the presented key could not be looked up (database down): limits and capabilities that
         * depend on the key then answer DATABASE_UNAVAILABLE rather than guess; everything else works as usual.
         */
        caller,
        requestId: records.get(request)?.id ?? randomUUID(),
        /** Spends one unit of a named limit for this caller; throws the spec's 429 when it is exhausted. */
        enforceLimit: async (name: LimitName, subject?: string) => {
          if (unresolved && dependsOnKey(name)) throw databaseUnavailable()
          // An unreachable store admits the request inside consume (limits fail open; core/limits.ts).
          const decision = await consume(deps.store, name, caller, subject)
          if (!decision.allowed) {
            throw new AppError('RATE_LIMIT_EXCEEDED', {
              message: `Rate limit "${name}" exceeded: ${decision.limit} per ${Math.round(decision.windowMs / 1000)} s`,
              retryAfterSeconds: retryAfterSeconds(decision),
              durableRetry: decision.durable,
              ...((LIMITS[name] as LimitSpec).rateHeaders ? { headers: rateLimitHeaders(decision) } : {}),
            })
          }
          return decision
        },
        can: (capability: Capability) => {
          if (unresolved) throw databaseUnavailable()
          return caller.kind === 'key' && hasCapability(caller.tier, capability)
        },
      }
    })
    .macro({
      /**
       * `limit: 'scanBurst'` on a route spends one unit of that limit before the request is validated, so that
       * malformed requests count against the caller's burst like any other.
       */
      limit(name: LimitName) {
        return {
          // Read by the docs plugin (core/openapi.ts completeDocument): the route documents this limit's 429.
          detail: { 'x-rate-limit': name } as DocumentDecoration,
          async transform(context: { enforceLimit?: (name: LimitName) => Promise<unknown> }) {
            await context.enforceLimit!(name)
          },
        }
      },
      /**
       * `cachedRead: true` answers a request target the route has already rendered (see ReadCache) before its
       * query is parsed or validated. Declare it after `limit`: macros apply in the order a route lists them,
       * and a cached answer must spend the limit like any other.
       */
      cachedRead(_enabled: true) {
        const serveCached = ({ request, requestId }: { request: Request; requestId?: string }) => {
          const response = deps.readCache.respond(request, { 'x-request-id': requestId ?? '' })
          return response ? status(200, response) : undefined
        }
        // A status response returned from a transform is the answer (derive relies on this), though Elysia types
        // transforms as void; mapResponse hooks do not run for it, hence the request id above.
        return { transform: serveCached as (context: { request: Request; requestId?: string }) => void }
      },
    })
    .onError({ as: 'global' }, ({ code, error, request }) => {
      const known = asAppError(error)
      if (known) return errorResponse(request, known)
      const { pathname } = new URL(request.url)
      switch (code) {
        case 'VALIDATION': {
          const issues = issuesOf(error.all)
          return errorResponse(
            request,
            new AppError(usesArdEnvelope(pathname) ? 'INVALID_ARGUMENT' : 'VALIDATION_FAILED', {
              message: `Invalid ${error.type}: ${issues.map(describeIssue).join('; ')}`,
              details: { in: error.type, issues },
            }),
          )
        }
        case 'PARSE':
          // Elysia wraps what our parser threw (INVALID_JSON, PAYLOAD_TOO_LARGE) as the cause of its ParseError.
          return errorResponse(
            request,
            error.cause instanceof AppError ? error.cause : new AppError('INVALID_JSON', { message: 'The request body could not be parsed' }),
          )
        case 'NOT_FOUND':
          return errorResponse(
            request,
            new AppError('ENDPOINT_NOT_FOUND', { message: `No route for ${request.method} ${pathname}` }),
          )
        default: {
          if (isDatabaseUnavailableError(error)) {
            outage.failed(error)
            return errorResponse(request, databaseUnavailable())
          }
          deps.log.error(
            { err: error, requestId: records.get(request)?.id, method: request.method, path: pathname },
            'unhandled error',
          )
          return errorResponse(request, new AppError('INTERNAL_ERROR', { message: 'An unexpected error occurred' }))
        }
      }
    })
    // The request id goes onto a Response the handler built itself rather than into `set.headers`: Elysia rebuilds
    // a returned Response around its body stream whenever `set.headers` is not empty, a real cost on hot reads.
    .mapResponse({ as: 'global' }, ({ request, responseValue, set }) => {
      const requestId = records.get(request)?.id ?? ''
      if (responseValue instanceof Response) {
        responseValue.headers.set('x-request-id', requestId)
        return responseValue
      }
      set.headers['x-request-id'] = requestId
    })
  // No request log, no per-request hook: Elysia schedules one setImmediate per request for afterResponse.
  if (!deps.log.isLevelEnabled('info')) return plugin
  return plugin.onAfterResponse({ as: 'global' }, ({ request, set }) => {
    const record = records.get(request)
    deps.log.info(
      {
        requestId: record?.id,
        method: request.method,
        path: new URL(request.url).pathname,
        status: record?.errorStatus ?? set.status,
        ms: record === undefined ? undefined : Math.round(performance.now() - record.startedAt),
      },
      'request',
    )
  })
}

interface RequestRecord {
  id: string
  startedAt: number
  /** Responses built by the error mapper bypass `set.status`; the request log reads their status from here. */
  errorStatus?: number
}

interface ValidationIssue {
  path: string
  message: string
}

/** Elysia reports zod (standard schema) and TypeBox issues in slightly different shapes; one shape goes out. */
function issuesOf(all: readonly unknown[]): ValidationIssue[] {
  return all.map((raw) => {
    const issue = (raw ?? {}) as { path?: unknown; message?: unknown; summary?: unknown }
    const path = Array.isArray(issue.path) ? issue.path.join('.') : typeof issue.path === 'string' ? issue.path.replace(/^\//, '').replaceAll('/', '.') : ''
    const message = typeof issue.message === 'string' ? issue.message : typeof issue.summary === 'string' ? issue.summary : 'invalid'
    return { path, message }
  })
}

function describeIssue(issue: ValidationIssue): string {
  return issue.path ? `${issue.path}: ${issue.message}` : issue.message
}

/** JSON and the structured `+json` types; parameters such as `charset` are already stripped by Elysia. */
function isJsonMediaType(contentType: string | undefined): boolean {
  const type = contentType?.trim().toLowerCase() ?? ''
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))
}

/**
 * The one body parser of every route, whatever the route or the content type says: every body is read under the
 * size cap (a chunked body has no Content-Length to refuse up front), only JSON is accepted (a form or text body
 * would otherwise reach Elysia's own parsers, uncapped and unchecked), its nesting is bounded before JSON.parse
 * allocates, and its strings are checked for text PostgreSQL and our logs cannot take. An empty body is null,
 * which a body schema then refuses.
 */
async function parseBody(request: Request, contentType: string | undefined): Promise<unknown> {
  if (!request.body) return null
  if (acceptsHtmlForm(request, contentType)) return parseForm(await readCapped(request))
  if (!isJsonMediaType(contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', {
      message: `Request bodies must be application/json${contentType ? `, not ${contentType.slice(0, 100)}` : ''}`,
    })
  }
  const text = await readCapped(request)
  if (text.trim() === '') return null
  if (jsonNestingExceeds(text, MAX_JSON_DEPTH)) {
    throw invalidInput('body', '', `must not nest objects and arrays more than ${MAX_JSON_DEPTH} levels deep`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new AppError('INVALID_JSON', { message: 'The request body is not valid JSON' })
  }
  // Only a \u escape can put a control character or a lone surrogate into a parsed string: raw ones are invalid
  // JSON, and UTF-8 decoding never yields a lone surrogate.
  if (text.includes('\\u')) {
    const path = findInvalidText(value)
    if (path !== null) throw invalidInput('body', path, INVALID_TEXT_MESSAGE)
  }
  return markBody(value)
}

/**
 * The web pages' forms (plugins/web) work without JavaScript, so browsers post them url-encoded; the JSON API
 * under /api/ keeps refusing that type. The fields are checked like JSON text, and a repeated name keeps its last
 * value.
 */
function acceptsHtmlForm(request: Request, contentType: string | undefined): boolean {
  if (contentType?.split(';')[0]!.trim().toLowerCase() !== 'application/x-www-form-urlencoded') return false
  const { pathname } = new URL(request.url)
  return pathname !== '/api' && !pathname.startsWith('/api/')
}

function parseForm(text: string): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [name, value] of new URLSearchParams(text)) {
    if (!isValidText(name) || !isValidText(value)) throw invalidInput('body', isValidText(name) ? name : '', INVALID_TEXT_MESSAGE)
    // defineProperty: a field named __proto__ is data, never the object's prototype.
    Object.defineProperty(fields, name, { value, enumerable: true, writable: true, configurable: true })
  }
  return markBody(fields) as Record<string, string>
}

/**
 * Elysia's ValidationError pretty-prints the whole rejected value into its message, which we never send: for a
 * 1 MiB body nested 60 deep that is 65 MB of text, 140 MB and 100 ms per request. Until validation replaces the
 * parsed body with the schema's output, its prototype carries a `toJSON` that stands for it instead (an own
 * non-enumerable one would not do: JavaScriptCore's indenting stringifier still walks the whole value).
 */
const bodyPlaceholder = () => '[request body]'
const MARKED_OBJECT: object = Object.create(Object.prototype, { toJSON: { value: bodyPlaceholder } })
const MARKED_ARRAY: object = Object.create(Array.prototype, { toJSON: { value: bodyPlaceholder } })

function markBody(value: unknown): unknown {
  if (typeof value === 'object' && value !== null) Object.setPrototypeOf(value, Array.isArray(value) ? MARKED_ARRAY : MARKED_OBJECT)
  return value
}

function unmarkBody(value: unknown): void {
  if (typeof value !== 'object' || value === null) return
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype === MARKED_OBJECT) Object.setPrototypeOf(value, Object.prototype)
  else if (prototype === MARKED_ARRAY) Object.setPrototypeOf(value, Array.prototype)
}

async function readCapped(request: Request): Promise<string> {
  if (!request.body) return ''
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.byteLength
    if (total > MAX_BODY_BYTES) {
      await reader.cancel()
      throw tooLarge()
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** Limits whose count or exemption depends on who the key is: they cannot be decided for an unresolved key. */
function dependsOnKey(name: LimitName): boolean {
  const spec = LIMITS[name]
  return spec.per === 'key' || spec.exempt.length > 0
}

/**
 * An unrecognised or revoked bearer token is never an error: the caller is anonymous (spec, Authentication 1).
 * Neither is a key lookup that fails: the caller is then anonymous and `unresolved`, so that a keyed request to a
 * route that needs no database (health, catalog) still works while the database is down.
 */
async function resolveCaller(
  deps: Kernel,
  outage: Outage,
  request: Request,
  ip: string,
): Promise<{ caller: Caller; unresolved: boolean }> {
  const anonymous: Caller = { kind: 'anonymous', ip }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')
  if (!match) return { caller: anonymous, unresolved: false }
  if (outage.failedWithin(KEY_LOOKUP_BACKOFF_MS)) return { caller: anonymous, unresolved: true }
  let key: Awaited<ReturnType<Kernel['keys']['resolve']>>
  try {
    key = await deps.keys.resolve(match[1]!)
  } catch (error) {
    outage.failed(error)
    return { caller: anonymous, unresolved: true }
  }
  outage.succeeded()
  return {
    caller: key ? { kind: 'key', ip, keyId: key.id, tier: key.tier, label: key.label } : anonymous,
    unresolved: false,
  }
}
