import type { CheckDefinition, ScanKind, ScanTarget } from './check.ts'
import { isSameSite } from './lib/links.ts'
import { classifyMcpServer } from './lib/mcp-app.ts'
import { type CheckEvent, Collection, type RunnerOptions, runChecks } from './runner.ts'
import type { CheckResult } from './scoring.ts'

/*
 * Fan-out: a domain that advertises MCP servers has each of them scanned with the MCP checks of its kind, beside
 * the domain's own checks. Their rows carry the server (mcpUrl, mcpKind); scoring weighs them (core/engine/scoring.ts).
 */

/** At most this many MCP servers of one domain are scanned. */
export const MAX_FANOUT_SERVERS = 3

/** How an advertised MCP server relates to the domain, reported as `mcpKind` on its results. */
function mcpKindOf(
  url: string,
  kind: ScanKind,
  serverInfo: Record<string, unknown> | undefined,
  domain: string,
): string {
  if (kind === 'mcp-app') return 'app'
  const label = `${url} ${String(serverInfo?.name ?? '')} ${String(serverInfo?.title ?? '')}`
  if (/\bdocs?\b|documentation/i.test(label)) return 'docs'
  return isSameSite(url, domain) ? 'product' : 'other'
}

export interface FanoutPlan {
  target: ScanTarget
  collection: Collection
  checks: readonly CheckDefinition[]
  mcpKind: string
}

/**
 * The MCP servers a domain advertises (and that answered initialize without asking for auth), each scanned with
 * the MCP checks of its kind through its own collection sharing the scan's HTTP session.
 */
export async function planFanout(
  collection: Collection,
  checks: readonly CheckDefinition[],
  runner: Omit<RunnerOptions, 'onEvent'>,
): Promise<FanoutPlan[]> {
  const mcpOnly = checks.filter((check) => !check.meta.appliesTo.includes('domain'))
  if (runner.target.kind !== 'domain' || mcpOnly.length === 0) return []
  const endpoints = await collection.get('mcpEndpoints').catch(() => null)
  const urls = [
    ...new Set(
      endpoints?.probes.filter((probe) => probe.answered && !probe.authRequired).map((probe) => probe.url) ?? [],
    ),
  ]
  const plans = await Promise.all(
    urls.slice(0, MAX_FANOUT_SERVERS).map(async (url): Promise<FanoutPlan | null> => {
      const base: ScanTarget = {
        kind: 'mcp',
        domain: runner.target.domain,
        origin: new URL(url).origin,
        url,
        mcpUrl: url,
      }
      const probe = new Collection({ ...runner, target: base })
      const mcp = await probe.get('mcp').catch(() => null)
      // A server whose tools are refused after the handshake (step-up authorization) requires auth like one whose
      // initialize is refused: not scanned, rather than graded on what it would not show.
      if (!mcp?.handshake || mcp.tools.refused) return null
      const kind = classifyMcpServer({
        capabilities: mcp.handshake.capabilities,
        tools: mcp.tools.items,
        resources: mcp.resources.items,
      })
      // The kind is known only now; a collection for the final target reuses the session, so nothing is fetched twice.
      const target = { ...base, kind }
      return {
        target,
        collection: kind === 'mcp' ? probe : new Collection({ ...runner, target }),
        checks: mcpOnly.filter((check) => check.meta.appliesTo.includes(kind)),
        mcpKind: mcpKindOf(url, kind, mcp.handshake.serverInfo, runner.target.domain),
      }
    }),
  )
  return plans.filter((plan): plan is FanoutPlan => plan !== null)
}

/** Runs each planned server's checks; its rows and events are tagged with the server. */
export async function runFanout(
  plans: readonly FanoutPlan[],
  runner: Omit<RunnerOptions, 'onEvent'>,
  onEvent: (event: CheckEvent) => void,
): Promise<CheckResult[]> {
  const rows = await Promise.all(
    plans.map(async (plan) => {
      const tag = { mcpKind: plan.mcpKind, mcpUrl: plan.target.url }
      const results = await runChecks(
        plan.checks,
        { ...runner, target: plan.target, onEvent: (event) => onEvent({ ...event, ...tag }) },
        plan.collection,
      )
      return results.map((result) => ({ ...result, ...tag }))
    }),
  )
  return rows.flat()
}
