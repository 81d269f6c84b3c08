import { randomUUID } from 'node:crypto'
import type { Logger } from '../log.ts'

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,128}$/

interface RequestRecord {
  id: string
  startedAt: number
  /** Responses built by the error mapper bypass `set.status`; the request log reads their status from here. */
  errorStatus?: number
}

/**
 * Every request's id (the client's `x-request-id` when it is a sane one, else a new UUID) and start time, kept
 * beside the request rather than on it, for the response header, the error envelope and the request log.
 */
export class RequestRecords {
  readonly #records = new WeakMap<Request, RequestRecord>()

  /** onRequest: the first thing that happens to a request. */
  start(request: Request): void {
    const presented = request.headers.get('x-request-id')
    const id = presented && REQUEST_ID_PATTERN.test(presented) ? presented : randomUUID()
    this.#records.set(request, { id, startedAt: performance.now() })
  }

  id(request: Request): string | undefined {
    return this.#records.get(request)?.id
  }

  /** The status of a response the error mapper built, for the request log. */
  failed(request: Request, status: number): void {
    const record = this.#records.get(request)
    if (record) record.errorStatus = status
  }

  /**
   * mapResponse: the request id goes onto a Response the handler built itself rather than into `set.headers`:
   * Elysia rebuilds a returned Response around its body stream whenever `set.headers` is not empty, a real cost
   * on hot reads.
   */
  stamp(request: Request, responseValue: unknown, set: { headers: Record<string, unknown> }): Response | undefined {
    const requestId = this.id(request) ?? ''
    if (responseValue instanceof Response) {
      responseValue.headers.set('x-request-id', requestId)
      return responseValue
    }
    set.headers['x-request-id'] = requestId
  }

  /** onAfterResponse: one info line per request. */
  log(log: Logger, request: Request, status: unknown): void {
    const record = this.#records.get(request)
    log.info(
      {
        requestId: record?.id,
        method: request.method,
        path: new URL(request.url).pathname,
        status: record?.errorStatus ?? status,
        ms: record === undefined ? undefined : Math.round(performance.now() - record.startedAt),
      },
      'request',
    )
  }
}
