import { createHash } from 'node:crypto'
import robotsParser from 'robots-parser'
import type { Config } from '../core/config.ts'
import type { BrowserProvider } from '../core/engine/browser.ts'
import { needsBrowserCopy, refusalVerdict } from '../core/engine/lib/agent-refusal.ts'
import { BROWSER_HEADERS, type HttpSnapshot, toSnapshot } from '../core/engine/snapshot.ts'
import { OutboundError } from '../core/outbound/client.ts'
import type { ScanSession } from '../core/outbound/session.ts'
import type { AgentIdentity, FetchedPage, JourneyEvidence, StepSource, StepStatus, TrajectoryStep } from './types.ts'
import { BROWSER, SELF } from './identities.ts'
import { readPage } from './page.ts'

export interface JourneyBudget {
  /** Tool calls a run may make (robots.txt reads included). */
  maxSteps: number
  /** Wall-clock time a run may take. */
  maxMs: number
}

export const DEFAULT_BUDGET: JourneyBudget = { maxSteps: 24, maxMs: 90_000 }

/** One page fetch: where the URL came from and what led to it. */
export interface FetchIntent {
  source: StepSource
  /** The link text or rel that led here. */
  anchor?: string
  parentId?: string | null
  /** Recorded with `source: 'search'`. */
  searchQuery?: string
}

/** Markdown when the site can negotiate it, anything else rather than nothing. */
const MARKDOWN_FIRST = 'text/markdown, text/plain;q=0.9, text/html;q=0.8, */*;q=0.5'
const RENDER_TIMEOUT_MS = 20_000
/** Subresources one render may fetch, apart from the run's document budget. */
const RENDER_MAX_BYTES = 32 * 1024 * 1024

interface RobotsRules {
  isAllowed(url: string, agent: string): boolean | undefined
}

/**
 * The tools' runtime for one run: every fetch goes through the scan session (SSRF guard, Web Bot Auth signing,
 * size, time and byte budgets) under the run's identity (its User-Agent; robots.txt rules for its token are
 * honoured per origin), and every call becomes a trajectory step (handed to `onStep` as soon as it is complete)
 * with what it found added to the evidence. A bot challenge ends the run: the edge answers this identity with
 * challenges, and a real agent would stop there too. So does a refusal by the scan's rule (a bare 403/429/503 while
 * a browser gets the page, core/engine/lib/agent-refusal.ts): the edge turns this identity away, which is no failure
 * of the site to offer the page.
 */
export class JourneySession {
  readonly steps: TrajectoryStep[] = []
  readonly evidence: JourneyEvidence
  private turn = 0
  private readonly robots = new Map<string, Promise<RobotsRules | null>>()
  private readonly startedAt = performance.now()
  private readonly visited = new Map<string, FetchedPage | null>()
  /** Why the edge refused the identity, by the step that met the refusal (a challenge page needs no reason). */
  private readonly refusals = new Map<string, string>()

  constructor(
    private readonly options: {
      domain: string
      origin: string
      http: ScanSession
      browser: BrowserProvider | null
      config: Pick<Config, 'scanner'>
      budget: JourneyBudget
      onStep: (step: TrajectoryStep) => void
      signal: AbortSignal
      /** The form the run's task wants pages in (IntentMeta.format); HTML as a browser asks for it otherwise. */
      format?: 'markdown'
      /** Who the agent presents itself as; our own agent when omitted. */
      identity?: AgentIdentity
    },
  ) {
    this.evidence = { domain: options.domain, origin: options.origin, pages: [], disallowed: [] }
  }

  get identity(): AgentIdentity {
    return this.options.identity ?? SELF
  }

  /** The first step a bot challenge answered, if one did. */
  challenged(): TrajectoryStep | null {
    const page = this.evidence.pages.find((candidate) => candidate.challenged)
    return page ? (this.steps.find((step) => step.id === page.stepId) ?? null) : null
  }

  /** What gave a refusal away ("403 while a browser got 200"); null for a challenge page or a step that was served. */
  refusal(step: TrajectoryStep): string | null {
    return this.refusals.get(step.id) ?? null
  }

  /** Tool calls left before the step budget is spent, and time left; false once either is spent, the run aborted or a challenge met. */
  hasBudget(): boolean {
    return (
      !this.options.signal.aborted &&
      this.challenged() === null &&
      this.toolSteps() < this.options.budget.maxSteps &&
      performance.now() - this.startedAt < this.options.budget.maxMs
    )
  }

  /** Starts the next turn: the agent's decisions between tool calls are counted in turns. */
  nextTurn(): number {
    return ++this.turn
  }

  /** Whether the URL was already fetched (or refused) in this run. */
  seen(url: string): boolean {
    return this.visited.has(normalize(url))
  }

  /** What an earlier fetch of the URL found, without a new step. */
  known(url: string): FetchedPage | null | undefined {
    return this.visited.get(normalize(url))
  }

  /** Records what the agent says. */
  say(text: string, label = 'Agent note'): TrajectoryStep {
    return this.record({ type: 'text', action: 'say', tool: null, status: 'ok', duration_ms: 0, label, text }, null)
  }

  /** GET a URL over HTTP, as an agent's fetch tool does. Null when robots.txt forbids it or nothing answered. */
  fetchPage(url: string, how: FetchIntent): Promise<FetchedPage | null> {
    return this.visit(url, how, 'http')
  }

  /** Loads the URL in Chromium and reads the DOM after scripts ran; falls back to HTTP when there is no browser. */
  renderPage(url: string, how: FetchIntent): Promise<FetchedPage | null> {
    return this.visit(url, how, this.options.browser ? 'browser' : 'http')
  }

  /** SHA-256 over what the run fetched, in order: equal digests mean the site answered the same. */
  contentDigest(): string {
    const hash = createHash('sha256')
    for (const page of this.evidence.pages)
      hash.update(`${page.fetchMethod} ${page.url} ${page.status} ${page.bodyDigest}\n`)
    for (const url of this.evidence.disallowed) hash.update(`disallowed ${url}\n`)
    return hash.digest('hex')
  }

  private toolSteps(): number {
    return this.steps.filter((step) => step.type === 'tool').length
  }

  private async visit(url: string, how: FetchIntent, method: 'http' | 'browser'): Promise<FetchedPage | null> {
    const key = normalize(url)
    if (this.visited.has(key) && method === 'http') return this.visited.get(key) ?? null
    const target = new URL(url)
    const token = this.identity.robotsToken
    const rules = token === null ? null : await this.robotsFor(target.origin, how.parentId ?? null)
    if (rules && rules.isAllowed(target.href, token!) === false) {
      this.visited.set(key, null)
      this.evidence.disallowed.push(target.href)
      this.record(
        {
          ...this.navigation(target, how, method),
          type: 'tool',
          action: 'fetch',
          tool: toolName(method),
          status: 'blocked',
          duration_ms: 0,
          label: `robots.txt disallows ${target.pathname} for ${token}`,
          completed: false,
        },
        how.parentId ?? null,
      )
      return null
    }
    const page = await this.load(target, how, method)
    this.visited.set(key, page)
    return page
  }

  private async load(target: URL, how: FetchIntent, method: 'http' | 'browser'): Promise<FetchedPage | null> {
    const started = performance.now()
    const base = {
      ...this.navigation(target, how, method),
      type: 'tool' as const,
      action: method === 'browser' ? 'render' : 'fetch',
      tool: toolName(method),
    }
    try {
      const { snapshot, body } = method === 'browser' ? await this.rendered(target) : await this.fetched(target)
      const duration_ms = Math.round(performance.now() - started)
      const page = readPage(snapshot, '', method, body)
      const refusal = page.challenged ? null : await this.edgeRefusal(target, snapshot)
      if (refusal) {
        page.challenged = true
        page.jsOnly = false
      }
      const completed = snapshot.status >= 200 && snapshot.status < 300 && !page.challenged
      const status: StepStatus = page.challenged ? 'blocked' : 'ok'
      const step = this.record(
        {
          ...base,
          status,
          duration_ms,
          label: describe(page, refusal),
          http_status: snapshot.status,
          content_type: snapshot.contentType || undefined,
          completed,
        },
        how.parentId ?? null,
      )
      if (refusal) this.refusals.set(step.id, refusal)
      // Ids are given when a step completes, so that calls made concurrently (a model may make several) never share one.
      page.stepId = step.id
      this.evidence.pages.push(page)
      return page
    } catch (error) {
      this.record(
        {
          ...base,
          status: 'error',
          duration_ms: Math.round(performance.now() - started),
          label: `${base.action} failed: ${failure(error)}`,
          completed: false,
        },
        how.parentId ?? null,
      )
      return null
    }
  }

  /**
   * Why the edge refused this identity the URL, judged as the scan's bot-challenge check judges it: a bare
   * 403/429/503 is a refusal only when a browser asking for the same URL is served, so only then is a browser's copy
   * fetched (unsigned, outside the run's steps: it is the judge's evidence, not the agent's move). Null when served.
   */
  private async edgeRefusal(target: URL, snapshot: HttpSnapshot): Promise<string | null> {
    if (this.identity.id === BROWSER.id || !needsBrowserCopy(snapshot)) return null
    let browser: HttpSnapshot
    try {
      browser = toSnapshot(
        await this.options.http.request(target.href, {
          signal: this.options.signal,
          headers: { ...BROWSER_HEADERS },
          sign: false,
        }),
      )
    } catch {
      return null
    }
    return refusalVerdict(snapshot, browser, 'domain').reason
  }

  /** The identity's request headers: its User-Agent (a browser's full set), Markdown first when the task wants it. */
  private headers(): Record<string, string> {
    const identity = this.identity
    const headers: Record<string, string> =
      identity.id === 'browser'
        ? { ...BROWSER_HEADERS }
        : identity.userAgent
          ? { 'user-agent': identity.userAgent }
          : {}
    if (this.options.format === 'markdown') headers.accept = MARKDOWN_FIRST
    return headers
  }

  private async fetched(target: URL): Promise<{ snapshot: HttpSnapshot; body: Uint8Array }> {
    const result = await this.options.http.request(target.href, {
      signal: this.options.signal,
      headers: this.headers(),
      sign: this.identity.sign,
    })
    return { snapshot: toSnapshot(result), body: result.body }
  }

  private async rendered(target: URL): Promise<{ snapshot: HttpSnapshot; body: string }> {
    const budget = { remaining: RENDER_MAX_BYTES }
    let document: HttpSnapshot | null = null
    const result = await this.options.browser!.render(target.href, {
      timeoutMs: RENDER_TIMEOUT_MS,
      userAgent: this.identity.userAgent ?? this.options.config.scanner.userAgent,
      fetch: async (url, init) => {
        const response = await this.options.http.request(url, {
          method: init.method,
          headers: init.headers,
          body: init.body,
          budget,
          sign: this.identity.sign,
        })
        // The first answer for the page's own URL is the document's status and headers.
        if (!document && normalize(url) === normalize(target.href)) document = toSnapshot(response)
        const headers: Record<string, string> = {}
        response.headers.forEach((value, name) => {
          headers[name] = value
        })
        return { status: response.status, headers, body: response.body }
      },
    })
    const answered = document as HttpSnapshot | null
    const snapshot: HttpSnapshot = {
      requestedUrl: target.href,
      url: result.url,
      status: answered?.status ?? 200,
      headers: answered?.headers ?? {},
      contentType: 'text/html',
      body: result.html,
      truncated: false,
      redirects: [],
      durationMs: 0,
    }
    return { snapshot, body: result.html }
  }

  /** robots.txt of an origin, read once per run as a step of its own; null when there is none. */
  private robotsFor(origin: string, parentId: string | null): Promise<RobotsRules | null> {
    let rules = this.robots.get(origin)
    if (!rules) {
      rules = this.readRobots(origin, parentId)
      this.robots.set(origin, rules)
    }
    return rules
  }

  private async readRobots(origin: string, parentId: string | null): Promise<RobotsRules | null> {
    const url = new URL('/robots.txt', origin)
    const page = await this.load(url, { source: 'robots', parentId }, 'http')
    this.visited.set(normalize(url.href), page)
    if (!page || page.status < 200 || page.status >= 300 || page.contentType === 'text/html') return null
    return robotsParser(url.href, page.text)
  }

  private navigation(target: URL, how: FetchIntent, method: 'http' | 'browser') {
    return {
      url: target.href,
      url_host: target.host,
      url_path: target.pathname,
      source: how.source,
      fetch_method: method,
      ...(how.anchor ? { anchor_relation: how.anchor.slice(0, 200) } : {}),
      ...(how.searchQuery ? { search_query: how.searchQuery } : {}),
    }
  }

  private record(step: Omit<TrajectoryStep, 'id' | 'turn' | 'parent_id'>, parentId: string | null): TrajectoryStep {
    const complete: TrajectoryStep = {
      id: `s${this.steps.length + 1}`,
      turn: Math.max(this.turn, 1),
      parent_id: parentId,
      ...step,
    }
    this.steps.push(complete)
    this.options.onStep(complete)
    return complete
  }
}

const toolName = (method: 'http' | 'browser') => (method === 'browser' ? 'render_page' : 'fetch_page')

/** One spelling per resource: fragments dropped. */
function normalize(url: string): string {
  try {
    const parsed = new URL(url)
    parsed.hash = ''
    return parsed.href
  } catch {
    return url
  }
}

function describe(page: FetchedPage, refusal: string | null): string {
  const path = new URL(page.url).pathname
  if (refusal) return `${path}: refused (${refusal})`
  if (page.challenged) return `${path}: a bot challenge answered instead of the page`
  if (page.status >= 400) return `${path}: ${page.status}`
  return `${path}: ${page.status}${page.title ? ` "${page.title.slice(0, 80)}"` : ''}`
}

function failure(error: unknown): string {
  if (error instanceof OutboundError) return error.code
  return error instanceof Error ? error.message : String(error)
}
