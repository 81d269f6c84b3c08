import { randomUUID } from 'node:crypto'
import { Elysia } from 'elysia'
import type { Kernel } from './kernel.ts'
import type { Capability } from './keys/service.ts'
import { hasCapability } from './keys/service.ts'
import { clientIp } from './limits.ts'
import { databaseOutage } from './outage.ts'
import { declaresTooLarge, tooLarge } from './request/body-cap.ts'
import { unmarkBody } from './request/body-marker.ts'
import { parseBody } from './request/body-parser.ts'
import { cachedReadMacro } from './request/cached-read.ts'
import { databaseUnavailable, resolveCaller } from './request/caller.ts'
import { errorMapper, errorResponder } from './request/error-mapping.ts'
import { limitEnforcer, limitMacro } from './request/limits.ts'
import { reparseQuery } from './request/query.ts'
import { RequestRecords } from './request/request-id.ts'

/**
 * The per-request context every feature plugin builds on, composed of the request plugins in core/request/: request
 * id, body cap and parser (with its prototype swap), query re-parsing, caller lookup, limits, read caching and the
 * one error mapper. Plugins `.use()` it; Elysia dedupes it by name so it runs once per request. The hooks are
 * registered in this order on purpose: it is the order Elysia runs them in.
 */
export function contextPlugin(deps: Kernel) {
  const records = new RequestRecords()
  const outage = databaseOutage(deps)
  const errorResponse = errorResponder(records)

  const plugin = new Elysia({ name: 'context' })
    .onRequest(({ request }) => {
      records.start(request)
      if (declaresTooLarge(request)) return errorResponse(request, tooLarge())
    })
    .onParse({ as: 'global' }, ({ request, contentType }) => parseBody(request, contentType))
    // Bodies are marked by parseBody until validation has replaced them; routes without a body schema get theirs
    // back unmarked here.
    .onBeforeHandle({ as: 'global' }, ({ body }) => {
      unmarkBody(body)
    })
    .onTransform({ as: 'global' }, reparseQuery)
    .derive({ as: 'global' }, async ({ request, server }) => {
      const ip = clientIp(request, () => server?.requestIP(request)?.address ?? null, deps.config.trustProxy)
      const { caller, unresolved } = await resolveCaller(deps.keys, outage, request, ip)
      return {
        /**
         * Anonymous when the presented key could not be looked up (database down): limits and capabilities that
         * depend on the key then answer DATABASE_UNAVAILABLE rather than guess; everything else works as usual.
         */
        caller,
        requestId: records.id(request) ?? randomUUID(),
        /** Spends one unit of a named limit for this caller; throws the spec's 429 when it is exhausted. */
        enforceLimit: limitEnforcer(deps.store, caller, unresolved),
        can: (capability: Capability) => {
          if (unresolved) throw databaseUnavailable()
          return caller.kind === 'key' && hasCapability(caller.tier, capability)
        },
      }
    })
    .macro({ limit: limitMacro, cachedRead: (_enabled: true) => cachedReadMacro(deps.readCache) })
    .onError({ as: 'global' }, errorMapper({ log: deps.log, outage, records, errorResponse }))
    .mapResponse({ as: 'global' }, ({ request, responseValue, set }) => records.stamp(request, responseValue, set))
  // No request log, no per-request hook: Elysia schedules one setImmediate per request for afterResponse.
  if (!deps.log.isLevelEnabled('info')) return plugin
  return plugin.onAfterResponse({ as: 'global' }, ({ request, set }) => records.log(deps.log, request, set.status))
}
