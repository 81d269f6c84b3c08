/**
 * The journey contract: what an intent, an agent and a trajectory step are. A journey answers what a scan cannot:
 * can an agent actually get this done here? An intent names a task anchored to a domain and judges, from what the
 * agent found, whether it got done; an agent works towards it through the tools in journeys/tools/, and every
 * tool call becomes a step of the run's trajectory.
 */

/** The journey taxonomy (spec, Resources: Journey run). */
export const JOURNEY_LAYERS = ['discovery', 'identity', 'access', 'payments', 'experience'] as const
export type JourneyLayer = (typeof JOURNEY_LAYERS)[number]

/** `tool`: a call of one of the agent's tools. `text`: what the agent said (its plan, its answer). */
export type StepType = 'tool' | 'text'
/** `ok`: the tool did its job (whatever the HTTP status); `blocked`: a challenge or robots.txt stopped it. */
export type StepStatus = 'ok' | 'error' | 'blocked'
/** Where the agent learned of the URL it fetched. */
export type StepSource =
  | 'start'
  | 'robots'
  | 'sitemap'
  | 'llms-txt'
  | 'link'
  | 'link-header'
  | 'well-known'
  | 'alternate'
  | 'search'
  | 'model'

/**
 * One step of a trajectory. Identity fields are stable (spec); navigation detail is advisory. Everything but
 * `duration_ms` is a function of what the site answered and what the agent decided, so an unchanged site and a
 * deterministic agent give the same steps every time (see `stepFingerprint`).
 */
export interface TrajectoryStep {
  id: string
  turn: number
  type: StepType
  parent_id: string | null
  action: string
  tool: string | null
  status: StepStatus
  duration_ms: number
  label: string
  url?: string
  url_host?: string
  url_path?: string
  search_query?: string
  source?: StepSource
  /** The link text or `rel` that led here. */
  anchor_relation?: string
  /** `http`: the outbound client; `browser`: Chromium rendered the page. */
  fetch_method?: 'http' | 'browser'
  /** The fetch returned a usable answer (2xx, not a challenge). */
  completed?: boolean
  http_status?: number
  content_type?: string
  /** Text-type steps: what the agent said. */
  text?: string
}

/** One price a page states: an amount in a currency, for something, per some period when it says so. */
export interface PriceFact {
  /** What the price is for: the plan or product name, or the words before the amount. */
  label: string
  /** As written, without grouping separators: `9.00`, `1200`. */
  amount: string
  /** ISO 4217 code: a symbol is read as its usual currency (`$` as USD). */
  currency: string
  /** `month`, `year`, `seat per month`…; null when the page states none. */
  period: string | null
  /** `jsonld`: a schema.org Offer; `table`: a table row; `text`: a sentence. */
  from: 'jsonld' | 'table' | 'text'
}

export interface PageLink {
  url: string
  text: string
  rel: string
}

/** What one fetch found, as the judges and insights read it. Bounded: text and links are capped at parse time. */
export interface FetchedPage {
  /** The step that fetched it. */
  stepId: string
  url: string
  /** After redirects. */
  finalUrl: string
  status: number
  contentType: string
  fetchMethod: 'http' | 'browser'
  /**
   * The edge turned the agent away instead of serving the content: a bot challenge (Cloudflare, Akamai, DataDome, a
   * 403 interstitial…) or a bare 403/429/503 that a browser was not given (core/engine/lib/agent-refusal.ts).
   */
  challenged: boolean
  /** An HTML page whose content needs JavaScript: almost no text, an app shell. */
  jsOnly: boolean
  title: string
  /** Visible text (HTML) or the body (Markdown, text), whitespace-collapsed, capped. */
  text: string
  /** Headings of an HTML page or a Markdown document, in order. */
  headings: string[]
  /** Anchors, `<link>` elements and Link header targets, absolute. */
  links: PageLink[]
  /** Addresses the page offers for contact: mailto: links and `email` of its JSON-LD (e.g. an Organization's contactPoint). */
  emails: string[]
  /** What the page says it is, in its own words: the meta or Open Graph description, else a JSON-LD `description`. */
  description: string
  /** Its first paragraph of prose (HTML `<p>`, a Markdown paragraph or `>` summary), without navigation around it. */
  lead: string
  /** Prices the page states: JSON-LD Offers, table rows and sentences with an amount in a currency (journeys/prices.ts). */
  prices: PriceFact[]
  /** Forms on the page: their action, method and field names, lower-cased. */
  forms: { action: string; method: string; fields: string[] }[]
  /** Selected response headers, lower-cased names: link, www-authenticate, content-type, payment-required… */
  headers: Record<string, string>
  /** The body parsed as JSON, when it is JSON. */
  json: unknown
  /** SHA-256 of the body as received: the run's content digest is built from these. */
  bodyDigest: string
}

/** Everything a run found, in fetch order. */
export interface JourneyEvidence {
  domain: string
  origin: string
  pages: FetchedPage[]
  /** URLs robots.txt forbade to our agent (the agent did not fetch them). */
  disallowed: string[]
}

export type VerdictOutcome = 'success' | 'failure' | 'blocked'

/** The answer to what an intent asks, drawn from the evidence, and the URL it came from. */
export interface Answer {
  text: string
  source_url: string
}

/** An intent's judgement: whether the task got done, why, and which steps show it. */
export interface Judgement {
  satisfied: boolean
  reason: string
  /** Step ids of the evidence; empty when nothing was found. */
  evidence: string[]
  /** The answer the evidence gives, when satisfied. */
  answer: Answer | null
  /**
   * False while the task is done only by a fallback (an OpenAPI document where a reference page may still be
   * found): an agent with pointers left keeps looking. Equal to `satisfied` when omitted.
   */
  settled?: boolean
}

export interface Verdict {
  outcome: VerdictOutcome
  reason: string
  evidence_step_ids: string[]
}

export interface IntentMeta {
  /** Stable id = file name under journeys/intents/. */
  id: string
  title: string
  /** The task as an agent is given it; `{domain}` is replaced by the run's domain. */
  prompt: string
  layers: readonly JourneyLayer[]
  /** Words whose presence in a link's text, rel or URL make it worth following for this intent (lower case). */
  keywords: readonly string[]
  /** Words of links worth following only once nothing better is left (a shop's product pages for its prices). */
  fallbackKeywords?: readonly string[]
  /** Paths an agent knows to try first for this task (well-known locations), relative to the origin. */
  paths: readonly string[]
  /** Catalog check ids (GET /api/checks) whose fixes make this task doable: named by a failed or blocked run. */
  relatedChecks: readonly string[]
  /**
   * `markdown`: the task wants pages as Markdown, so every fetch of the run asks for it first
   * (`Accept: text/markdown`), as an agent does that reads text; a site that negotiates answers with Markdown.
   */
  format?: 'markdown'
}

export interface IntentDefinition {
  meta: IntentMeta
  /** Pure: decides from the trajectory and what was fetched; never does I/O. */
  judge(trajectory: readonly TrajectoryStep[], evidence: JourneyEvidence): Judgement
}

export function defineIntent(definition: IntentDefinition): IntentDefinition {
  return definition
}

/** An answer as an agent gives it: the facts, then the page they came from on a line of its own. */
export function answerText(answer: Answer): string {
  return `${answer.text}\nSource: ${answer.source_url}`
}

/** The prompt of an intent anchored to a domain. */
export function intentPrompt(meta: Pick<IntentMeta, 'prompt'>, domain: string): string {
  return meta.prompt.replaceAll('{domain}', domain)
}

/**
 * Who the agent presents itself as at the edge. Every request carries `userAgent`; robots.txt is obeyed for
 * `robotsToken`; requests are signed per Web Bot Auth when `sign` and a SIGNING_KEY are set.
 */
export interface AgentIdentity {
  /** `self` (our own agent), `browser` (a plain browser, the baseline of a compare run), or the product token presented. */
  id: string
  /** The exact User-Agent header; null: the scanner's own (SCANNER_USER_AGENT), which names AgentReadiness. */
  userAgent: string | null
  /** The robots.txt product token obeyed; null for a browser, which a person drives and robots.txt does not govern. */
  robotsToken: string | null
  sign: boolean
  /** Where the vendor publishes the token and its User-Agent string. */
  publishedAt: string | null
}

export interface AgentMeta {
  /** Stable id: `deterministic`, `ai-sdk`, or the deterministic agent under an identity (`chatgpt-user`). */
  id: string
  /** What drives the agent: `builtin` for the deterministic agent, `ai-sdk` for model-backed ones. */
  harness: string
  /** The model, or `deterministic`. */
  model: string
  label: string
  /** Runnable by anyone through POST /api/journey/runs. */
  public: boolean
  identity: AgentIdentity
}

/** Token usage and cost of a run; null fields when the agent uses no model or the price is unknown. */
export interface RunUsage {
  input_tokens: number | null
  output_tokens: number | null
  cache_read_tokens: number | null
  cache_write_tokens: number | null
  cost_usd: number | null
}

/** What an agent works with: the task, the tools (every call recorded as a step), and its budgets. */
export interface AgentRun {
  domain: string
  origin: string
  /** The task text (a curated intent's prompt, or a partner's free text anchored to the domain). */
  prompt: string
  /** The curated intent, or a generic one for free text: its keywords and paths guide the deterministic agent. */
  intent: IntentDefinition
  tools: import('./session.ts').JourneySession
  /** True once the intent's judge is satisfied by what was found so far: the agent may stop. */
  satisfied(): boolean
  /** The judgement so far (the answer it gives, whether a better page may still be found). */
  judgement(): Judgement
  /** False once the step or wall-clock budget is spent: the agent must stop. */
  hasBudget(): boolean
  /** Records what the agent says (a text step). */
  say(text: string, label?: string): void
  signal: AbortSignal
}

export interface AgentResult {
  /** The agent's final answer in its own words, when it gives one. */
  response: string | null
  usage: RunUsage
}

export interface AgentDefinition {
  meta: AgentMeta
  run(run: AgentRun): Promise<AgentResult>
}

export function defineAgent(definition: AgentDefinition): AgentDefinition {
  return definition
}

export const NO_USAGE: RunUsage = {
  input_tokens: null,
  output_tokens: null,
  cache_read_tokens: null,
  cache_write_tokens: null,
  cost_usd: null,
}
