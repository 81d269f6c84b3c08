import type { Config } from '../config.ts'
import {
  type ByteBudget,
  fetchAdapter,
  OutboundError,
  type FetchLike,
  type FetchResult,
  type OutboundClient,
  type RequestOptions,
} from './client.ts'

/**
 * One scan's view of the outbound client. Many checks read the same resources (robots.txt, the home page),
 * so a GET or HEAD is fetched once per scan, even when several collectors ask at the same moment; and a
 * scan never has more than `hostConcurrency` requests in flight to one host, to stay polite. Every body the scan
 * reads comes out of one byte budget, so that a site answering every probe with a body at the per-request cap (an
 * endless stream, a compression bomb) costs a scan SCAN_MAX_BYTES, not the cap times the probes (~50 of them).
 * A caller with an allowance of its own (the browser's subresources) passes it as `budget`.
 */

/**
 * Decoded body bytes one scan reads in all: the scan's working set. A scan of a real site reads a few MB (the homepage
 * ~10 times, as different agents, most of them capped at 64 KiB); the memo and the artifacts hold what was read until
 * the scan ends, twice over (bytes and text), and reading and parsing it leaves as much again for the collector to
 * take back. 16 MiB keeps one scan of a site made of bombs (bench/hostile.ts) near 100 MB above the process's own.
 */
export const SCAN_MAX_BYTES = 16 * 1024 * 1024

export interface RequestLogEntry {
  method: string
  url: string
  /** Null when no response arrived. */
  status: number | null
  durationMs: number
  /** The OutboundError code (or message) when the request failed. */
  error?: string
}

/** Headers for one origin's requests: the token a user gave for their own MCP server (CLI `--header`). */
export interface OriginCredentials {
  origin: string
  headers: Readonly<Record<string, string>>
}

export class ScanSession {
  private readonly memo = new Map<string, Promise<FetchResult>>()
  private readonly hosts = new Map<string, Semaphore>()
  private readonly entries: RequestLogEntry[] = []
  private sent = 0
  private readonly hostConcurrency: number
  private readonly budget: ByteBudget = { remaining: SCAN_MAX_BYTES }

  constructor(
    private readonly client: OutboundClient,
    config: Pick<Config, 'scanner'>,
    /**
     * Sent with every request to that origin, and only there: the client drops them at a redirect to another origin.
     * They are added below everything that records a request (memo keys, the log, MCP exchanges), so no record holds them.
     */
    private readonly credentials: OriginCredentials | null = null,
  ) {
    this.hostConcurrency = config.scanner.hostConcurrency
  }

  /** Requests handed to the outbound client; memoised answers are not counted. */
  get requestCount(): number {
    return this.sent
  }

  /** Every request handed to the outbound client, in completion order. */
  get log(): readonly RequestLogEntry[] {
    return this.entries
  }

  /**
   * GET and HEAD are memoised by everything that can change the answer: method, URL, every request header,
   * the redirect mode, signing and the size cap. A failure is memoised too (a dead host stays dead for the
   * scan), except an abort by the caller's own signal, which says nothing about the resource.
   */
  request(url: string | URL, options: RequestOptions = {}): Promise<FetchResult> {
    const method = (options.method ?? 'GET').toUpperCase()
    if (method !== 'GET' && method !== 'HEAD') return this.send(url, options)
    // Credentials are the session's own, the same for every request to their origin: they need no place in the key.
    const key = memoKey(method, url, options, this.client.signs)
    const known = this.memo.get(key)
    if (known) return known
    const pending = this.send(url, options)
    this.memo.set(key, pending)
    pending.catch(() => {
      if (options.signal?.aborted) this.memo.delete(key)
    })
    return pending
  }

  /** Streams are never memoised; the host slot is held until the headers arrive, not for the whole stream. */
  stream(url: string | URL, options: RequestOptions = {}): Promise<Response> {
    return this.dispatch(
      url,
      options,
      (response) => response.status,
      () => this.client.stream(url, { budget: this.budget, ...this.scoped(url), ...options }),
    )
  }

  /** Body bytes the scan may still read. */
  get bytesLeft(): number {
    return this.budget.remaining
  }

  /** A `fetch` for the MCP SDK and similar libraries, counted and logged like every other request. */
  asFetch(): FetchLike {
    return fetchAdapter((url, options) => this.stream(url, options))
  }

  private send(url: string | URL, options: RequestOptions): Promise<FetchResult> {
    return this.dispatch(
      url,
      options,
      (result) => result.status,
      () => this.client.request(url, { budget: this.budget, ...this.scoped(url), ...options }),
    )
  }

  /** The credentials' headers when `url` is on their origin (compared after URL parsing: case, default ports). */
  private scoped(url: string | URL): Pick<RequestOptions, 'originHeaders'> {
    if (!this.credentials || URL.parse(String(url))?.origin !== this.credentials.origin) return {}
    return { originHeaders: this.credentials.headers }
  }

  private dispatch<T>(
    url: string | URL,
    options: RequestOptions,
    statusOf: (value: T) => number,
    perform: () => Promise<T>,
  ): Promise<T> {
    return this.hostSlot(url).run(async () => {
      this.sent += 1
      const started = performance.now()
      const entry = { method: (options.method ?? 'GET').toUpperCase(), url: String(url) }
      try {
        const value = await perform()
        this.entries.push({ ...entry, status: statusOf(value), durationMs: Math.round(performance.now() - started) })
        return value
      } catch (error) {
        this.entries.push({
          ...entry,
          status: null,
          durationMs: Math.round(performance.now() - started),
          error: error instanceof OutboundError ? error.code : error instanceof Error ? error.message : String(error),
        })
        throw error
      }
    })
  }

  private hostSlot(url: string | URL): Semaphore {
    // An unparsable URL gets a slot of its own; the client then refuses it with INVALID_URL.
    const host = URL.parse(String(url))?.host ?? ''
    let semaphore = this.hosts.get(host)
    if (!semaphore) {
      semaphore = new Semaphore(this.hostConcurrency)
      this.hosts.set(host, semaphore)
    }
    return semaphore
  }
}

function memoKey(method: string, url: string | URL, options: RequestOptions, clientSigns: boolean): string {
  const headers = Object.entries(options.headers ?? {})
    .map(([name, value]) => [name.toLowerCase(), value.trim()])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0))
  // The fragment never reaches the server.
  const target = URL.parse(String(url))
  if (target) target.hash = ''
  return JSON.stringify([
    method,
    target?.href ?? String(url),
    headers,
    options.redirect ?? 'follow',
    // Without a signer a request marked `sign` is the very same request as one that is not.
    (options.sign ?? true) && clientSigns,
    options.maxBytes ?? null,
  ])
}

/** At most `limit` tasks at once; a finishing task hands its slot straight to the longest waiter. */
class Semaphore {
  private active = 0
  private readonly waiting: (() => void)[] = []

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) this.active += 1
    else await new Promise<void>((resolve) => this.waiting.push(resolve))
    try {
      return await task()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.active -= 1
    }
  }
}
