import { afterAll, beforeEach } from 'bun:test'
import { type Config, loadConfig } from '../../core/config.ts'
import type { ArtifactKey, ArtifactMap } from '../../core/engine/artifacts.ts'
import {
  type Collector,
  type CollectorContext,
  CollectorError,
  type ScanKind,
  type ScanTarget,
} from '../../core/engine/check.ts'
import { createOutboundClient } from '../../core/outbound/client.ts'
import { ScanSession } from '../../core/outbound/session.ts'

/** The configuration collector tests scan with: the fixture servers listen on 127.0.0.1. */
export function collectorConfig(): Readonly<Config> {
  return loadConfig({ SCANNER_ALLOW_PRIVATE: 'true' })
}

/** A real, unsigned scan session over the outbound client of `config`. */
export function scanSession(config = collectorConfig()): ScanSession {
  return new ScanSession(createOutboundClient(config, null), config)
}

/** The target of a scan of `origin`: its home page, and `<origin>/mcp` for the MCP kinds. */
export function localTarget(origin: string, kind: ScanKind = 'domain'): ScanTarget {
  return {
    kind,
    domain: '127.0.0.1',
    origin,
    url: `${origin}/`,
    ...(kind === 'domain' ? {} : { mcpUrl: `${origin}/mcp` }),
  }
}

/** The collectors a test lets run for real, by the artifact each one produces. */
export type LiveCollectors = { [K in ArtifactKey]?: Collector<K> }

/**
 * A CollectorContext on a real ScanSession (unless `http` is given) with no browser. `get` returns the literal
 * artifacts given, else collects with the live collector given for that key, once per context as the runner does;
 * any other key (or one set to undefined) is "not collected": it rejects with a CollectorError, as a failed
 * optional input would.
 */
export function collectorContext(options: {
  target: ScanTarget
  http?: ScanSession
  config?: Readonly<Config>
  artifacts?: { [K in ArtifactKey]?: ArtifactMap[K] }
  collectors?: LiveCollectors
}): CollectorContext {
  const config = options.config ?? collectorConfig()
  const artifacts = options.artifacts ?? {}
  const collected = new Map<ArtifactKey, Promise<unknown>>()
  const context: CollectorContext = {
    target: options.target,
    config,
    http: options.http ?? scanSession(config),
    page: `${options.target.origin}/`,
    isHomepage: true,
    browser: null,
    get: async <K extends ArtifactKey>(key: K) => {
      const artifact = artifacts[key]
      if (artifact !== undefined) return artifact as ArtifactMap[K]
      const collector = options.collectors?.[key] as Collector<K> | undefined
      if (!collector) throw new CollectorError(`${key}: not collected in this test`)
      if (!collected.has(key)) collected.set(key, collector.collect(context))
      return collected.get(key) as Promise<ArtifactMap[K]>
    },
  }
  return context
}

/** Answers one request to a fixture site. */
export type FixtureHandler = (request: Request) => Response | Promise<Response>

/** One request a fixture site received, as the collector under test sent it. */
export interface RecordedRequest {
  method: string
  path: string
  headers: Headers
  body: string
}

export interface RecordingSite {
  readonly origin: string
  /** Handlers by path, for this test; a path not listed goes to `otherwise`. */
  readonly routes: Record<string, FixtureHandler>
  /** What answers any other path in this test. */
  otherwise: FixtureHandler
  /** Every request received in this test, in arrival order. */
  readonly requests: RecordedRequest[]
}

const notFound: FixtureHandler = () => new Response('Not found', { status: 404 })

/**
 * A fixture site on 127.0.0.1 for a test file, recording the requests it receives so that a test can assert on
 * what a collector sent. Before every test the routes go back to `defaults.routes`, `otherwise` to
 * `defaults.otherwise` (a 404) and the record is emptied; the server stops after the file.
 */
export function recordingSite(
  defaults: { routes?: Record<string, FixtureHandler>; otherwise?: FixtureHandler } = {},
): RecordingSite {
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: async (request) => {
      const path = new URL(request.url).pathname
      site.requests.push({ method: request.method, path, headers: request.headers, body: await request.clone().text() })
      return (site.routes[path] ?? site.otherwise)(request)
    },
  })
  const site: RecordingSite = {
    origin: `http://127.0.0.1:${server.port}`,
    routes: { ...defaults.routes },
    otherwise: defaults.otherwise ?? notFound,
    requests: [],
  }
  beforeEach(() => {
    for (const path of Object.keys(site.routes)) delete site.routes[path]
    Object.assign(site.routes, defaults.routes)
    site.otherwise = defaults.otherwise ?? notFound
    site.requests.length = 0
  })
  afterAll(() => server.stop(true))
  return site
}
