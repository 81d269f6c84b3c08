import { z } from 'zod'
import type { Config } from '../config.ts'
import type { ScanSession } from '../http/session.ts'
import type { ArtifactKey, ArtifactMap } from './artifacts.ts'
import type { BrowserProvider } from './browser.ts'

/**
 * The check contract. A check is a self-describing, pure function over collected artifacts; its metadata
 * generates the catalog at /api/checks, and collectors (the only code doing I/O) produce the artifacts.
 */

export const SCAN_KINDS = ['domain', 'mcp', 'mcp-app'] as const
export type ScanKind = (typeof SCAN_KINDS)[number]

/** Scoring order; weights sum to 100 (checks.md §20.1). Renaming or removing a layer id is a major version. */
export const LAYERS = [
  {
    id: 'discovery',
    name: 'Discovery',
    weight: 30,
    description: 'Can an agent find the product, its content, its APIs and its MCP servers?',
  },
  {
    id: 'accessibility',
    name: 'Access',
    weight: 25,
    description: 'Are agents allowed in, unchallenged, and served content they can read?',
  },
  {
    id: 'usability',
    name: 'Usability',
    weight: 30,
    description: 'Once in, can an agent understand and operate the pages, APIs and tools?',
  },
  {
    id: 'payments',
    name: 'Payments',
    weight: 15,
    description: 'Can an agent see prices and pay through a machine-readable protocol?',
  },
] as const
export type LayerId = (typeof LAYERS)[number]['id']
export const LAYER_IDS = LAYERS.map((layer) => layer.id) as [LayerId, ...LayerId[]]

export const CHECK_STATUSES = ['pass', 'fail', 'warning', 'error', 'pending', 'na'] as const
export type CheckStatus = (typeof CHECK_STATUSES)[number]
export const TIERS = ['required', 'recommended', 'emerging'] as const
export type Tier = (typeof TIERS)[number]
export const MATURITIES = ['verified', 'emerging'] as const
export type Maturity = (typeof MATURITIES)[number]
export const APPLICABILITIES = ['all', 'domain-only', 'mcp', 'mcp-app', 'api'] as const
export type Applicability = (typeof APPLICABILITIES)[number]

/** The kinds each applicability implies; the registry refuses metadata where the two disagree. */
export const APPLICABILITY_KINDS: Record<Applicability, readonly ScanKind[]> = {
  all: ['domain', 'mcp', 'mcp-app'],
  'domain-only': ['domain'],
  api: ['domain'],
  mcp: ['mcp', 'mcp-app'],
  'mcp-app': ['mcp-app'],
}

export const checkMetaSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'check ids are kebab-case'),
    name: z.string().min(3),
    description: z.string().min(10),
    layer: z.enum(LAYER_IDS),
    appliesTo: z.array(z.enum(SCAN_KINDS)).min(1),
    applicability: z.enum(APPLICABILITIES),
    protocol: z.enum(['rest', 'graphql', 'either']).optional(),
    tier: z.enum(TIERS),
    maturity: z.enum(MATURITIES),
    bonus: z.boolean(),
    draft: z.boolean(),
    beta: z.boolean(),
    maxScore: z.number().int().positive(),
    specUrl: z.url().optional(),
    recommendation: z.string().min(10).optional(),
    /** Artifact keys the runner hands over; it hands over exactly these. */
    needs: z.array(z.string()).min(1),
    /** Deep checks start `pending` and are resolved by the background worker. */
    deep: z.boolean(),
    timeoutMs: z.number().int().positive().optional(),
  })
  .superRefine((meta, ctx) => {
    const expected = APPLICABILITY_KINDS[meta.applicability]
    const actual = [...meta.appliesTo].sort()
    if (actual.join() !== [...expected].sort().join()) {
      ctx.addIssue({
        code: 'custom',
        path: ['appliesTo'],
        message: `applicability "${meta.applicability}" means appliesTo [${expected.join(', ')}]`,
      })
    }
    if ((meta.applicability === 'api') !== (meta.protocol !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['protocol'], message: 'protocol is set exactly when applicability is api' })
    }
  })

export type CheckMeta<N extends ArtifactKey = ArtifactKey> = Omit<z.infer<typeof checkMetaSchema>, 'needs'> & {
  needs: readonly N[]
}

/** What a check returns; the runner turns it into the spec's CheckResult. */
export interface Outcome {
  status: 'pass' | 'fail' | 'warning' | 'na' | 'error'
  details: string
  recommendation?: string
  /** Share of maxScore earned, 0..1. Defaults: pass 1, warning 0.5, fail 0. Ratio checks set it. */
  fraction?: number
  naReason?: string
  /** How many instances were examined (tools, forms, pages); reported in the essentials map. */
  occurrences?: number
}

type OutcomeOptions = { fraction?: number; occurrences?: number }

export const pass = (details: string, options: OutcomeOptions = {}): Outcome => ({ status: 'pass', details, ...options })
export const warn = (details: string, recommendation: string, options: OutcomeOptions = {}): Outcome => ({
  status: 'warning',
  details,
  recommendation,
  ...options,
})
export const fail = (details: string, recommendation: string, options: OutcomeOptions = {}): Outcome => ({
  status: 'fail',
  details,
  recommendation,
  ...options,
})
/** Not applicable: skipped, never deducted. */
export const na = (naReason: string, details = naReason): Outcome => ({ status: 'na', details, naReason })

/** Pure data about the target; checks may read it, never fetch with it. */
export interface ScanTarget {
  kind: ScanKind
  /** The registrable host that was asked for, lower-case, without port (e.g. `acme.test`). */
  domain: string
  /** Origin that is fetched (`https://acme.test`). */
  origin: string
  /** The normalised input URL. */
  url: string
  /** The MCP endpoint for mcp kinds (or a pinned one). */
  mcpUrl?: string
}

export interface CheckContext {
  target: ScanTarget
}

export interface CheckDefinition<N extends ArtifactKey = ArtifactKey> {
  meta: CheckMeta<N>
  run(artifacts: Pick<ArtifactMap, N>, context: CheckContext): Outcome
}

/** Type helper for check files: infers `needs` so `run` receives exactly those artifacts, typed. */
export function defineCheck<const N extends ArtifactKey>(definition: CheckDefinition<N>): CheckDefinition<N> {
  return definition
}

export interface CollectorContext {
  target: ScanTarget
  config: Readonly<Config>
  /** The scan's HTTP session: SSRF-guarded, memoised per URL, signed. The only way a collector fetches. */
  http: ScanSession
  /** Another artifact of the same scan (collected once, shared). */
  get<K extends ArtifactKey>(key: K): Promise<ArtifactMap[K]>
  browser: BrowserProvider | null
}

export interface Collector<K extends ArtifactKey> {
  key: K
  /** Deep collectors (browser) run in the background phase; checks needing them are deep too. */
  deep?: boolean
  collect(context: CollectorContext): Promise<ArtifactMap[K]>
}

export function defineCollector<K extends ArtifactKey>(collector: Collector<K>): Collector<K> {
  return collector
}

/** A collector that cannot produce its artifact throws this; dependent checks become `error` with the reason. */
export class CollectorError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'CollectorError'
  }
}
