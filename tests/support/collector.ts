import { afterAll, beforeEach } from 'bun:test'
import { type Config, loadConfig } from '../../core/config.ts'
import type { ArtifactKey, ArtifactMap } from '../../core/engine/artifacts.ts'
import { type CollectorContext, CollectorError, type ScanKind, type ScanTarget } from '../../core/engine/contract.ts'
import { createOutboundClient } from '../../core/http/client.ts'
import { ScanSession } from '../../core/http/session.ts'

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
  return { kind, domain: '127.0.0.1', origin, url: `${origin}/`, ...(kind === 'domain' ? {} : { mcpUrl: `${origin}/mcp` }) }
}

/**
 * A CollectorContext on a real ScanSession (unless `http` is given) with no browser. `get` returns the literal
 * artifacts given (a key left out or set to undefined is "not collected": it rejects with a CollectorError, as a
 * failed optional input would).
 */
export function collectorContext(options: {
  target: ScanTarget
  http?: ScanSession
  config?: Readonly<Config>
  artifacts?: { [K in ArtifactKey]?: ArtifactMap[K] }
}): CollectorContext {
  const config = options.config ?? collectorConfig()
  const artifacts = options.artifacts ?? {}
  return {
    target: options.target,
    config,
    http: options.http ?? scanSession(config),
    browser: null,
    get: async <K extends ArtifactKey>(key: K) => {
      const artifact = artifacts[key]
      if (artifact === undefined) throw new CollectorError(`${key}: not collected in this test`)
      return artifact as ArtifactMap[K]
    },
  }
}

/**
 * A fixture site on 127.0.0.1 for a test file: a route table each test fills (any other path is a 404) and the
 * paths requested so far. Both are emptied before every test; the server stops after the file.
 */
export function routeTableSite(): { origin: string; routes: Record<string, () => Response>; requested: string[] } {
  const routes: Record<string, () => Response> = {}
  const requested: string[] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: (request) => {
      const path = new URL(request.url).pathname
      requested.push(path)
      return routes[path]?.() ?? new Response('Not found', { status: 404 })
    },
  })
  beforeEach(() => {
    for (const path of Object.keys(routes)) delete routes[path]
    requested.length = 0
  })
  afterAll(() => server.stop(true))
  return { origin: `http://127.0.0.1:${server.port}`, routes, requested }
}
