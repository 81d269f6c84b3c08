import { EventSourceParserStream } from 'eventsource-parser/stream'
import type { ProgressEvent } from './progress.ts'
import { type CliCheck, type CliReport, fromAudit, toCheck } from './report.ts'
import { TargetError } from './usage.ts'

export interface RemoteScan {
  /** The service's base URL, e.g. https://agent-readiness.example. */
  server: string
  /** A scan key (AGENT_READINESS_KEY): exempt from the public limits. */
  key: string | undefined
  mcpUrl?: string
  /** Pages to sample (`--pages`); the service allows 25 without a scan key. */
  pages?: number
  /** Run just these checks (POST /api/scan/checks): a partial result without a score. */
  only?: string[]
  /** Stream events (GET /api/scan/stream) for a progress display; without it one POST /api/scan does. */
  onEvent?: (event: ProgressEvent) => void
  /** How long to wait for the background analysis of a partial result. */
  timeoutMs?: number
  /** Between two reads of the score route while the result is partial. */
  pollMs?: number
}

type AuditResult = Parameters<typeof fromAudit>[0] & { analysisStatus?: string }

/** A scan on a running service, rendered from the audit shape into the same report an in-process scan gives. */
export async function scanRemotely(target: string, options: RemoteScan): Promise<CliReport> {
  const server = options.server.replace(/\/+$/, '')
  const client = new Client(server, options.key)
  // The catalog says which checks are beta (a scan result does not) and places the checks of a selective run.
  const catalog = await client.json<Catalog>('GET', '/api/checks')
  if (options.only) return selectiveRun(client, catalog, target, options.only, options.mcpUrl)
  // A CI gate measures what is deployed now, as the in-process scan does: never a stored result from hours ago.
  let result = options.onEvent
    ? await streamScan(client, target, options.mcpUrl, options.pages, options.onEvent)
    : await client.json<AuditResult>('POST', '/api/scan?format=audit', {
        url: target,
        force: true,
        ...(options.mcpUrl ? { mcpUrl: options.mcpUrl } : {}),
        ...(options.pages !== undefined ? { pages: options.pages } : {}),
      })
  // Rendered checks finish in the background (202, analysisStatus partial): the score route says when they are done.
  // Its public limit is 10 reads a minute, so the interval grows and a 429 is waited out, not fatal.
  const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000)
  let interval = options.pollMs ?? 1000
  while (result.analysisStatus === 'partial') {
    if (Date.now() > deadline)
      throw new TargetError(`${server} did not finish the analysis of ${result.domain} in time`)
    await Bun.sleep(interval)
    interval = Math.min(interval * 2, 8000)
    const response = await client.send(
      'GET',
      `/api/score/${encodeURIComponent(result.domain)}?format=audit`,
      undefined,
      { tolerate429: true },
    )
    if (response.status === 429) interval = Math.max(interval, Number(response.headers.get('retry-after') ?? 5) * 1000)
    else result = (await response.json()) as AuditResult
  }
  return fromAudit(result, target, server, betaLookup(catalog))
}

export class Client {
  constructor(
    readonly server: string,
    private readonly key: string | undefined,
  ) {}

  async send(method: string, path: string, body?: unknown, options: { tolerate429?: boolean } = {}): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (this.key) headers.authorization = `Bearer ${this.key}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    let response: Response
    try {
      response = await fetch(`${this.server}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch (error) {
      throw new TargetError(`cannot reach ${this.server}: ${(error as Error).message}`)
    }
    if (response.ok || (response.status === 429 && options.tolerate429)) return response
    const answer = (await response.json().catch(() => ({}))) as { message?: string; error?: string }
    const reason = answer.message ?? answer.error ?? response.statusText
    const hint =
      response.status === 429 && !this.key ? ' (set AGENT_READINESS_KEY to a scan key to lift the public limits)' : ''
    throw new TargetError(
      `${this.server} answered ${response.status} to ${method} ${path.split('?')[0]}: ${reason}${hint}`,
    )
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await (await this.send(method, path, body)).json()) as T
  }
}

/** Reads the scan stream to its end, relaying its frames; the last scan_complete result is the answer. */
async function streamScan(
  client: Client,
  target: string,
  mcpUrl: string | undefined,
  pages: number | undefined,
  onEvent: NonNullable<RemoteScan['onEvent']>,
): Promise<AuditResult> {
  const query = new URLSearchParams({
    domain: target,
    format: 'audit',
    force: '1',
    ...(mcpUrl ? { mcp: mcpUrl } : {}),
    ...(pages !== undefined ? { pages: String(pages) } : {}),
  })
  const response = await client.send('GET', `/api/scan/stream?${query}`)
  let result: AuditResult | null = null
  for await (const { data } of response
    .body!.pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())) {
    if (!data) continue
    const event = JSON.parse(data) as { type: string; result?: AuditResult; message?: string }
    if (event.type === 'error') throw new TargetError(`cannot scan ${target}: ${event.message}`)
    if (event.type === 'scan_complete') result = event.result!
    onEvent(event)
  }
  if (!result) throw new TargetError(`${client.server} closed the scan stream of ${target} without a result`)
  return result
}

interface Catalog {
  contractVersion: string
  layers: { id: string; name: string }[]
  checks: { id: string; layer: string; beta?: boolean }[]
}

function betaLookup(catalog: Catalog): (id: string) => boolean {
  const beta = new Set(catalog.checks.filter((check) => check.beta).map((check) => check.id))
  return (id) => beta.has(id)
}

interface RunChecksResponse {
  domain: string
  url: string
  urlKind: string
  results: CliCheck[]
}

/** POST /api/scan/checks answers per-check results without layers: the catalog places them. */
async function selectiveRun(
  client: Client,
  catalog: Catalog,
  target: string,
  only: string[],
  mcpUrl: string | undefined,
): Promise<CliReport> {
  const run = await client.json<RunChecksResponse>('POST', '/api/scan/checks', {
    url: target,
    checkIds: only,
    ...(mcpUrl ? { mcpUrl } : {}),
  })
  const isBeta = betaLookup(catalog)
  const layerOf = new Map(catalog.checks.map((check) => [check.id, check.layer]))
  return {
    domain: run.domain,
    name: run.domain,
    url: run.url,
    urlKind: run.urlKind,
    score: null,
    grade: null,
    partial: true,
    analysisStatus: 'complete',
    pendingChecks: [],
    scannedAt: new Date().toISOString(),
    durationMs: null,
    layers: catalog.layers
      .map((layer) => ({
        id: layer.id,
        name: layer.name,
        score: null,
        maxScore: null,
        checks: run.results
          .filter((check) => layerOf.get(check.id) === layer.id)
          .map((check) => toCheck(check, isBeta)),
      }))
      .filter((layer) => layer.checks.length > 0),
    topFixes: [],
    source: client.server,
    contractVersion: catalog.contractVersion,
  }
}
