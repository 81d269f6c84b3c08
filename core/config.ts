import { z } from 'zod'

/**
 * The only reader of the environment. The kernel's variables of docs/operations.md are parsed here (`loadConfig`),
 * each feature's own through the `configKeys` it declares, parsed at boot by core/feature.ts (`featureConfigs`).
 * Either way each is parsed once, and an invalid value stops start-up with a message naming the variable and the
 * form it expects.
 */

/** `true`/`1`/`yes` or `false`/`0`/`no`, for a feature's flags as for the kernel's. */
export const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((value) => value === 'true' || value === '1' || value === 'yes')

const positiveInt = z.coerce.number().int().positive()

/** `host:port:addr[:addrport]`, like curl --resolve; `addrport` defaults to `port`. */
export interface ResolveRule {
  host: string
  port: number
  address: string
  addressPort: number
}

const resolveRules = z.string().transform((raw, ctx): ResolveRule[] => {
  const rules: ResolveRule[] = []
  for (const entry of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    // An IPv6 address is written in brackets: shop.test:443:[::1]:8081
    const match = /^([^:\s]+):(\d{1,5}):(\[[0-9a-fA-F:.]+\]|[^:\s]+)(?::(\d{1,5}))?$/.exec(entry)
    if (!match) {
      ctx.addIssue({ code: 'custom', message: `"${entry}" is not host:port:addr[:addrport]` })
      return z.NEVER
    }
    const [, host, port, address, addressPort] = match
    rules.push({
      host: host!.toLowerCase(),
      port: Number(port),
      address: address!.replace(/^\[|\]$/g, ''),
      addressPort: Number(addressPort ?? port),
    })
  }
  return rules
})

/**
 * `scan.example.com, 10.0.0.5, [::1]`: the extra names (no scheme, no port) clients may reach our MCP server by,
 * lower-cased as URL parsing writes a hostname, so that a request's Host compares to them exactly.
 */
const hostnameList = z.string().transform((raw, ctx): string[] => {
  const names: string[] = []
  for (const entry of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const hostname = URL.canParse(`http://${entry}`) ? new URL(`http://${entry}`).hostname : null
    if (hostname === null || hostname !== entry.toLowerCase()) {
      ctx.addIssue({ code: 'custom', message: `"${entry}" is not a host name (no scheme, no port; IPv6 in brackets)` })
      return z.NEVER
    }
    names.push(hostname)
  }
  return names
})

const envSchema = z.object({
  PORT: positiveInt.max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  ALLOWED_HOSTS: hostnameList.default([]),
  DATABASE_URL: z
    .string()
    .regex(/^(postgres(ql)?:\/\/|memory:\/\/$|file:)/, 'expected postgres://…, memory:// or file:<dir>')
    .optional(),
  PGLITE_DIR: z.string().min(1).default('./data/pglite'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'expected redis://… or rediss://…')
    .optional(),
  SIGNING_KEY: z.string().min(1).optional(),
  SIGNING_KEYS_PREVIOUS: z.string().min(1).optional(),
  SERVICE_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  SCANNER_ALLOW_PRIVATE: booleanFlag.default(false),
  SCANNER_RESOLVE: resolveRules.default([]),
  SCANNER_TIMEOUT_MS: positiveInt.max(120_000).default(10_000),
  SCANNER_MAX_BYTES: positiveInt.default(5_242_880),
  SCANNER_HOST_CONCURRENCY: positiveInt.max(64).default(4),
  CHROMIUM_PATH: z.string().min(1).optional(),
  BROWSER_WS_ENDPOINT: z
    .string()
    .regex(/^wss?:\/\//, 'expected ws://… or wss://…')
    .optional(),
  LLM_PROVIDER: z.enum(['openai', 'anthropic']).optional(),
  LLM_BASE_URL: z.url().optional(),
  LLM_API_KEY: z.string().min(1).optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_PRICE_INPUT_PER_MTOK: z.coerce.number().positive().optional(),
  LLM_PRICE_OUTPUT_PER_MTOK: z.coerce.number().positive().optional(),
  WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(32).default(1),
  TRUST_PROXY: booleanFlag.default(false),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
})

/** The variables the kernel reads: a feature's `configKeys` may not read them again (the boot check). */
export const KERNEL_VARIABLES: readonly string[] = Object.keys(envSchema.shape)

export type Env = z.input<typeof envSchema>

export interface Config {
  port: number
  host: string
  publicBaseUrl: string
  /** The host part of publicBaseUrl: the `source` of audit results and the issuer of our artefacts. */
  serviceHost: string
  /** Names besides publicBaseUrl's host and loopback that our MCP server answers to (DNS-rebinding protection). */
  allowedHosts: string[]
  database: { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string | null }
  redisUrl: string | null
  signingKey: string | null
  signingKeysPrevious: string[]
  /** Root of the service's own HMAC keys; null → a random secret kept in the store. */
  serviceSecret: string | null
  scanner: {
    allowPrivate: boolean
    resolve: ResolveRule[]
    timeoutMs: number
    maxBytes: number
    hostConcurrency: number
    userAgent: string
  }
  browser: { chromiumPath: string | null; wsEndpoint: string | null }
  llm: {
    provider: 'openai' | 'anthropic'
    baseUrl: string | null
    apiKey: string
    model: string
    /** USD per million tokens; a run's cost is unknown (null) unless both are set. */
    priceInputPerMTok: number | null
    priceOutputPerMTok: number | null
  } | null
  /** Background analysis loops inside the API process; 0 when separate `agent-readiness worker` processes run. */
  workerConcurrency: number
  trustProxy: boolean
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent'
  /**
   * The variables the kernel does not read, as given (empty ones dropped), from which the boot parses each feature's
   * own `configKeys`.
   */
  environment: Readonly<Record<string, string>>
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.name = 'ConfigError'
  }
}

/** Unset and empty mean the same thing for every variable: "use the default". */
function withoutEmpty(env: Record<string, string | undefined>): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== '') result[key] = value
  return result
}

function parseEnvironment<Schema extends z.ZodType>(
  schema: Schema,
  environment: Readonly<Record<string, string>>,
): z.output<Schema> {
  const parsed = schema.safeParse(environment)
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(environment)'}: ${issue.message}`),
    )
  }
  return parsed.data
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Readonly<Config> {
  const environment = withoutEmpty(env)
  const e = parseEnvironment(envSchema, environment)
  const problems: string[] = []
  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '')
  const llmComplete = e.LLM_PROVIDER && e.LLM_API_KEY && e.LLM_MODEL
  if (e.LLM_PROVIDER && !llmComplete) problems.push('LLM_PROVIDER: set LLM_API_KEY and LLM_MODEL as well')
  if (problems.length) throw new ConfigError(problems)

  const database: Config['database'] = !e.DATABASE_URL
    ? { kind: 'pglite', dataDir: e.PGLITE_DIR }
    : e.DATABASE_URL === 'memory://'
      ? { kind: 'pglite', dataDir: null }
      : e.DATABASE_URL.startsWith('file:')
        ? { kind: 'pglite', dataDir: e.DATABASE_URL.slice('file:'.length) }
        : { kind: 'postgres', url: e.DATABASE_URL }
  const serviceHost = new URL(publicBaseUrl).host

  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl,
    serviceHost,
    allowedHosts: e.ALLOWED_HOSTS,
    database,
    redisUrl: e.REDIS_URL ?? null,
    signingKey: e.SIGNING_KEY ?? null,
    signingKeysPrevious: e.SIGNING_KEYS_PREVIOUS ? splitKeyList(e.SIGNING_KEYS_PREVIOUS) : [],
    serviceSecret: e.SERVICE_SECRET ?? null,
    scanner: {
      allowPrivate: e.SCANNER_ALLOW_PRIVATE,
      resolve: e.SCANNER_RESOLVE,
      timeoutMs: e.SCANNER_TIMEOUT_MS,
      maxBytes: e.SCANNER_MAX_BYTES,
      hostConcurrency: e.SCANNER_HOST_CONCURRENCY,
      userAgent: `Mozilla/5.0 (compatible; AgentReadiness/1.0; +${publicBaseUrl}/bot)`,
    },
    browser: { chromiumPath: e.CHROMIUM_PATH ?? null, wsEndpoint: e.BROWSER_WS_ENDPOINT ?? null },
    llm: llmComplete
      ? {
          provider: e.LLM_PROVIDER!,
          baseUrl: e.LLM_BASE_URL ?? null,
          apiKey: e.LLM_API_KEY!,
          model: e.LLM_MODEL!,
          priceInputPerMTok: e.LLM_PRICE_INPUT_PER_MTOK ?? null,
          priceOutputPerMTok: e.LLM_PRICE_OUTPUT_PER_MTOK ?? null,
        }
      : null,
    workerConcurrency: e.WORKER_CONCURRENCY,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    // The kernel's own variables (secrets among them) are parsed above and not kept a second time.
    environment: Object.freeze(
      Object.fromEntries(Object.entries(environment).filter(([name]) => !KERNEL_VARIABLES.includes(name))),
    ),
  })
}

/**
 * A feature's own environment variables (its `configKeys`, core/feature.ts): `variables` parses each like the
 * kernel's, and `settings` turns them, with the kernel's config (defaults may derive from PUBLIC_BASE_URL), into
 * the settings the feature reads from its `config` piece beside the kernel's.
 */
export interface ConfigKeys<Settings extends object = object> {
  readonly variables: z.ZodRawShape
  settings(values: Record<string, unknown>, config: Readonly<Config>): Settings
}

export function configKeys<const Shape extends z.ZodRawShape, Settings extends object>(
  variables: Shape,
  settings: (values: z.output<z.ZodObject<Shape>>, config: Readonly<Config>) => Settings,
): ConfigKeys<Settings> {
  return { variables, settings: (values, config) => settings(values as z.output<z.ZodObject<Shape>>, config) }
}

/**
 * The settings of each of `keys`, in order, from the environment `config` was loaded from: all variables are parsed
 * in one pass, so that one ConfigError names every invalid one.
 */
export function loadSettings(config: Readonly<Config>, keys: readonly ConfigKeys[]): object[] {
  const values = parseEnvironment(
    z.object(Object.assign({}, ...keys.map((each) => each.variables))),
    config.environment,
  )
  return keys.map((each) => each.settings(values, config))
}

/** Previous signing keys are PEM blocks or JWK objects; several are separated by blank lines or `;;`. */
function splitKeyList(raw: string): string[] {
  return raw
    .split(/;;|\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean)
}
