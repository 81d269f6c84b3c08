import { z } from 'zod'
import type { Config } from '../config.ts'
import type { ScanSession } from '../outbound/session.ts'
import type { ArtifactKey, ArtifactMap } from './artifacts.ts'
import type { BrowserProvider } from './browser.ts'

/**
 * The check contract. A check is a self-describing, pure function over collected artifacts; its metadata
 * generates the catalog at /api/checks, and collectors (the only code doing I/O) produce the artifacts.
 */

export const SCAN_KINDS = ['domain', 'mcp', 'mcp-app'] as const
export type ScanKind = (typeof SCAN_KINDS)[number]

/** Scoring order; weights sum to 100 (docs/checks.md §20.1). Renaming or removing a layer id is a major version. */
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

/** The kinds each applicability implies: a check's `appliesTo`, in catalog order. */
export const APPLICABILITY_KINDS: Record<Applicability, readonly ScanKind[]> = {
  all: ['domain', 'mcp', 'mcp-app'],
  'domain-only': ['domain'],
  api: ['domain'],
  mcp: ['mcp', 'mcp-app'],
  'mcp-app': ['mcp-app'],
}

/**
 * What one run of a check judges: `page`, one HTML page (so a multi-page scan runs it on every sampled page and
 * scores the share that passes), or `site`, something the site has once (robots.txt, llms.txt, an MCP server).
 */
export const CHECK_SCOPES = ['page', 'site'] as const
export type CheckScope = (typeof CHECK_SCOPES)[number]

export const SURFACES = ['web', 'api', 'mcp'] as const
/** The surface a check measures; the essentials reading scores each surface on its own. */
export type Surface = (typeof SURFACES)[number]

/** The surface a check measures unless its metadata says otherwise. */
const SURFACE_OF_APPLICABILITY: Record<Applicability, Surface> = {
  all: 'web',
  'domain-only': 'web',
  api: 'api',
  mcp: 'mcp',
  'mcp-app': 'mcp',
}

/** The flags of the essentials `access` summary; a check declaring one is the measurement behind that flag. */
export const ESSENTIALS_ACCESS_FLAGS = ['agentsAllowed', 'unchallenged', 'readableWithoutJs'] as const
export type EssentialsAccessFlag = (typeof ESSENTIALS_ACCESS_FLAGS)[number]

/**
 * Checks the site-type rubrics single out: `pricing` is the one payments check a business or an app is expected
 * to pass, `product-listing` does not apply to apps, `mcp-entry-point` is an extra for content sites.
 */
export const SITE_TYPE_ROLES = ['pricing', 'product-listing', 'mcp-entry-point'] as const
export type SiteTypeRole = (typeof SITE_TYPE_ROLES)[number]

/**
 * The metadata fields GET /api/checks publishes, in catalog order (the order makes the document byte-stable).
 * The catalog schema extends this one; check files author it through `checkMetaSchema`.
 */
export const publishedMetaSchema = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'check ids are kebab-case')
    .describe('Stable; safe to persist and to pass to POST /api/scan/checks'),
  name: z.string().min(3).describe('Advisory'),
  description: z.string().min(10).describe('Advisory'),
  layer: z.enum(LAYER_IDS),
  maxScore: z.number().int().positive().describe('Within-layer points; do not sum into a denominator'),
  bonus: z.boolean(),
  applicability: z.enum(APPLICABILITIES),
  protocol: z.enum(['rest', 'graphql', 'either']).optional().describe('Only when applicability is api'),
  appliesTo: z.array(z.enum(SCAN_KINDS)).min(1),
  tier: z.enum(TIERS),
  maturity: z.enum(MATURITIES),
  draft: z.boolean().describe('True when the underlying spec is a draft'),
  beta: z.boolean().describe('True: runs but cannot affect any score'),
  specUrl: z.url().optional(),
  recommendation: z.string().min(10).optional(),
  scope: z
    .enum(CHECK_SCOPES)
    .describe(
      'page: judged per HTML page, run on every sampled page of a multi-page scan and scored by the passing share; site: run once',
    ),
})

/**
 * What a check file declares. Flags default to false, `appliesTo` follows from `applicability` and `surface`
 * defaults to what `applicability` implies, so a check states only what sets it apart. The fields from `needs` on
 * are the engine's and stay out of the published metadata (`essentialsExcluded` reaches the catalog only through
 * the essentials variant, which the catalog builder computes).
 */
export const checkMetaSchema = publishedMetaSchema
  .omit({ appliesTo: true })
  .extend({
    bonus: publishedMetaSchema.shape.bonus.default(false),
    draft: publishedMetaSchema.shape.draft.default(false),
    beta: publishedMetaSchema.shape.beta.default(false),
    scope: publishedMetaSchema.shape.scope.default('site'),
    /** Artifact keys the runner hands over; it hands over exactly these. */
    needs: z.array(z.string()).min(1),
    /** Deep checks start `pending` and are resolved by the background worker. */
    deep: z.boolean().default(false),
    timeoutMs: z.number().int().positive().optional(),
    /** Set where the applicability does not tell: an OAuth check that runs on every kind still measures the API. */
    surface: z.enum(SURFACES).optional(),
    /** A site's policy choice rather than hygiene (the robots.txt policy checks): never scored in essentials. */
    essentialsExcluded: z.boolean().default(false),
    /**
     * A failure means agents are turned away outright (challenged, refused, disallowed), not merely helped less:
     * the score is multiplied by BLOCKED_FACTOR while it fails (core/engine/scoring.ts).
     */
    stopsAgents: z.boolean().default(false),
    essentialsAccess: z.enum(ESSENTIALS_ACCESS_FLAGS).optional(),
    siteTypeRole: z.enum(SITE_TYPE_ROLES).optional(),
    /**
     * A pass means the site offers a machine-readable entry point an agent looks for first (llms.txt, an MCP
     * endpoint, an OpenAPI document, a catalog or card): the ARD registry tags the entry with the check's id.
     */
    agentEntryPoint: z.boolean().default(false),
  })
  .superRefine((meta, ctx) => {
    if ((meta.applicability === 'api') !== (meta.protocol !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['protocol'], message: 'protocol is set exactly when applicability is api' })
    }
  })
  .transform(({ surface, ...meta }) => ({
    ...meta,
    appliesTo: APPLICABILITY_KINDS[meta.applicability],
    surface: surface ?? SURFACE_OF_APPLICABILITY[meta.applicability],
  }))

/** Metadata as a check file writes it. */
export type CheckMetaInput<N extends ArtifactKey = ArtifactKey> = Omit<z.input<typeof checkMetaSchema>, 'needs'> & {
  needs: readonly N[]
}

/** Metadata with every default applied, as the engine reads it. */
export type CheckMeta<N extends ArtifactKey = ArtifactKey> = Omit<z.output<typeof checkMetaSchema>, 'needs'> & {
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
  /** Typed facts for programs (core/engine/evidence.ts); only a check that declares an evidence schema sets it. */
  evidence?: unknown
}

type OutcomeOptions = Pick<Outcome, 'fraction' | 'occurrences' | 'evidence'>

export const pass = (details: string, options: OutcomeOptions = {}): Outcome => ({
  status: 'pass',
  details,
  ...options,
})
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
  /** The sampled page a page-level check judges in a multi-page scan; absent when it judges the homepage. */
  page?: string
}

export interface CheckDefinition<N extends ArtifactKey = ArtifactKey> {
  meta: CheckMeta<N>
  /** The shape of the outcome's `evidence`; the runner refuses evidence from a check that declares none. */
  evidence?: z.ZodType
  run(artifacts: Pick<ArtifactMap, N>, context: CheckContext): Outcome
}

/**
 * Check files export `defineCheck({ meta, run })`. It infers `needs` so that `run` receives exactly those
 * artifacts, typed, and applies the metadata defaults; invalid metadata fails at load, naming the check.
 */
export function defineCheck<const N extends ArtifactKey>(check: {
  meta: CheckMetaInput<N>
  evidence?: z.ZodType
  run: CheckDefinition<N>['run']
}): CheckDefinition<N> {
  const parsed = checkMetaSchema.safeParse(check.meta)
  if (!parsed.success)
    throw new Error(`Invalid metadata for check "${check.meta.id}":\n${z.prettifyError(parsed.error)}`)
  return {
    meta: { ...parsed.data, needs: check.meta.needs },
    ...(check.evidence ? { evidence: check.evidence } : {}),
    run: check.run,
  }
}

export interface CollectorContext {
  target: ScanTarget
  config: Readonly<Config>
  /** The scan's HTTP session: SSRF-guarded, memoised per URL, signed. The only way a collector fetches. */
  http: ScanSession
  /**
   * The HTML page the page-level artifacts describe (`homepage`, `markdownHome`, `markdownVariants`, `linkHeader`,
   * `rendered`): the homepage, or one sampled page of a multi-page scan.
   */
  page: string
  /** True when `page` is the homepage: only then are the homepage's extras (its docs page, /index.md) collected. */
  isHomepage: boolean
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
