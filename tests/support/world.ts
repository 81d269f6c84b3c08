import { randomUUID } from 'node:crypto'
import { createApp, type AppHandle } from '../../app/app.ts'
import type { BrowserProvider } from '../../core/engine/browser.ts'
import { openStore } from '../../core/store/index.ts'
import { type McpFixtureName, startMcpFixture } from '../fixtures/mcp/server.ts'
import { resolveRules, type FixtureSite, type SiteName, startFixtureSites } from '../fixtures/sites/server.ts'
import { testConfig, type TestAppOptions } from '../helpers.ts'

export interface World {
  sites: Record<string, FixtureSite>
  handle: AppHandle
  close(): Promise<void>
}

/** An MCP fixture server (tests/fixtures/mcp) the scanner reaches as each of `hosts`; the first is its own name. */
export interface WorldMcpServer {
  name: McpFixtureName
  hosts: readonly [string, ...string[]]
}

/**
 * Fixture sites on 127.0.0.1 plus an app whose scanner reaches them by their public names (`https://<site>.test`)
 * through SCANNER_RESOLVE, exactly as it would reach public domains; likewise the MCP fixture servers in `mcp`.
 * `browser: null` runs without Chromium (rendered checks resolve at once to error); omit it to use the system
 * browser. Like testApp, it builds the features asked for (all by default) and starts nothing unless asked.
 */
export async function startWorld(
  names: readonly SiteName[],
  options: TestAppOptions & {
    env?: Record<string, string | undefined>
    browser?: BrowserProvider | null
    extraResolve?: string[]
    mcp?: readonly WorldMcpServer[]
  } = {},
): Promise<World> {
  const started = await startFixtureSites(names)
  const mcpServers = options.mcp ?? []
  const mcpFixtures = await Promise.all(mcpServers.map(({ name, hosts }) => startMcpFixture(name, { host: hosts[0] })))
  const mcpResolve = mcpServers.flatMap(({ hosts }, index) =>
    hosts.map((host) => `${host}:443:127.0.0.1:${mcpFixtures[index]!.port}`),
  )
  const config = testConfig({
    SCANNER_RESOLVE: [resolveRules(started), ...mcpResolve, ...(options.extraResolve ?? [])].filter(Boolean).join(','),
    TRUST_PROXY: 'true',
    ...options.env,
  })
  const store = await openStore(config, { prefix: `test:${randomUUID()}:` })
  const handle = await createApp(config, {
    store,
    jobNamespace: `test-${randomUUID()}.`,
    features: options.features,
    ...(options.browser !== undefined ? { browser: options.browser } : {}),
  })
  if (options.start) await handle.start()
  return {
    sites: Object.fromEntries(started.map((site) => [site.name, site])),
    handle,
    async close() {
      await handle.close()
      await Promise.all([...started.map((site) => site.stop()), ...mcpFixtures.map((fixture) => fixture.stop())])
    },
  }
}

/** A distinct client IP per test keeps per-IP limits of one test out of another. */
export function clientIp(): string {
  const bytes = randomUUID().replaceAll('-', '')
  return `198.18.${parseInt(bytes.slice(0, 2), 16)}.${parseInt(bytes.slice(2, 4), 16)}`
}
