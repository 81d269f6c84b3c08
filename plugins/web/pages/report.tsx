import { SERVICE_NAME } from '../../../core/version.ts'
import {
  buildReportModel,
  formatGain,
  type Recipe,
  requiredCheckFails,
  type ReportCheck,
  type ReportFix,
  type ReportLayer,
} from '../../../core/report/index.ts'
import { type CompetitorSet, EPHEMERAL_RETENTION_MS, isMcpKind, mcpReportPath, reportPath } from '../../scan/public.ts'
import {
  ago,
  categoryName,
  CodeBlock,
  day,
  Gauge,
  isWebUrl,
  KIND_NAMES,
  Sparkline,
  StatusLabel,
} from '../components.tsx'
import { Layout, RescanForm, type RescanTarget, ScanForm } from '../layout.tsx'
import { PagesSection } from './report-pages.tsx'
import type { RecheckOutcome } from '../model.ts'
import { type ReportView, type SiblingReport, splitExtras } from '../service.ts'

/** The query flag the scan form's redirect adds when it served a stored result instead of scanning. */
export const FROM_CACHE = 'cached'

export interface ReportPage {
  view: ReportView
  baseUrl: string
  nonce: string
  recheck: RecheckOutcome | null
  /** The scan form served this stored result instead of scanning (the page says so, with a fresh scan). */
  fromCache: boolean
  /** When the page is rendered: ages are said in words from here. */
  now: Date
  /** The domain's newest agent journeys. */
  runs: { id: string; title: string; status: string; outcome: string | undefined }[]
}

export function reportShareTitle(view: ReportView): string {
  return `${view.label} scores ${view.report.score}/100 (${view.report.grade}) for AI-agent readiness`
}

/** A report's summary line, shared by the meta description, the Markdown alternate and JSON-LD. */
export function reportDescription(view: ReportView): string {
  const { report } = view
  const fixes = report.topFixes.length
  return `${view.label}: ${report.score}/100, grade ${report.grade}. ${fixes === 0 ? 'No fixes outstanding.' : `${fixes} top fixes with their estimated gains.`} Scanned ${day(new Date(report.scannedAt))}.`
}

/**
 * A target's report (/site/{host[:port]} or /mcp/{MCP URL}): the fix-first reading of its stored scan (core/report),
 * then context: history, competitors, journeys. Each part is a section of its own, in reading order.
 */
export function ReportPage({ view, baseUrl, nonce, recheck, fromCache, now, runs }: ReportPage): JSX.Element {
  const { report, path, label } = view
  const canonical = `${baseUrl}${path}`
  const model = buildReportModel(report)
  const { counted, extras } = splitExtras(model.issues, view.extras)
  const target = rescanTarget(view)
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'WebPage',
    name: `${label} agent-readiness report`,
    url: canonical,
    description: reportDescription(view),
    dateModified: report.scannedAt,
    about: { '@type': 'WebSite', name: report.name, url: report.url },
    review: {
      '@type': 'Review',
      author: { '@type': 'Organization', name: SERVICE_NAME, url: baseUrl },
      reviewRating: {
        '@type': 'Rating',
        ratingValue: report.score,
        bestRating: 100,
        worstRating: 0,
        ratingExplanation: `Grade ${report.grade}`,
      },
    },
  }
  const rechecked = recheck
    ? new Set(recheck.results.map((result) => `${result.id}\u0000${result.mcpUrl ?? ''}`))
    : new Set<string>()
  const card = (check: ReportCheck, fix?: ReportFix) => (
    <CheckCard
      check={check}
      fix={fix}
      path={path}
      target={target}
      extra={view.extras.has(check.id)}
      recheck={recheck && rechecked.has(`${check.id}\u0000${check.mcpUrl ?? ''}`) ? recheck : null}
    />
  )
  return (
    <Layout
      meta={{
        title: `${label} agent-readiness report: ${report.score}/100 (${report.grade})`,
        shareTitle: reportShareTitle(view),
        description: reportDescription(view),
        canonical,
        nonce,
        jsonLd,
        markdown: `${path}.md`,
        // A local, private or tunnel target's report is disposable: nobody else can reach what it measured.
        noindex: view.row.ephemeral,
        script: true,
      }}
    >
      <section class="summary" id="report-summary" aria-labelledby="report-title">
        <div class="summary-text">
          <h1 id="report-title" safe>
            {label}
          </h1>
          <p class="grade">
            Grade{' '}
            <strong class="grade-letter" safe>
              {report.grade}
            </strong>
            <span class="score-text">{` · ${report.score} / 100`}</span>
          </p>
          <p class="verdict" id="report-verdict" safe>
            {model.verdict}
          </p>
          <p class="muted">
            {report.name && report.name !== report.domain ? (
              <>
                <span class="site-name" safe>
                  {report.name}
                </span>
                {' · '}
              </>
            ) : (
              ''
            )}
            <span safe>{KIND_NAMES[report.urlKind] ?? report.urlKind}</span> · <a href={`${path}.md`}>Markdown</a> ·{' '}
            <a href={`/api/score/${encodeURIComponent(report.domain)}?format=audit${mcpQuery(view)}`}>JSON</a>
          </p>
          <Freshness scannedAt={new Date(report.scannedAt)} now={now} fromCache={fromCache} target={target} />
          {view.row.ephemeral ? <EphemeralNotice /> : ''}
          <AnalysisNotice status={view.analysisStatus} path={path} />
          {recheck && !recheck.storedScanUpdated ? (
            <div class="notice" role="status">
              <p>
                <strong>Not saved:</strong> these numbers include a re-check that changes nothing stored. The report,
                the leaderboard and the badge keep the scanned result. Scan again to publish the new result.
              </p>
              <RescanForm target={target} label="Scan again to publish" />
            </div>
          ) : (
            ''
          )}
          <Siblings siblings={view.siblings} />
        </div>
        <Gauge score={report.score} grade={report.grade} />
      </section>
      <div id="report-layers">
        <ul class="layers" aria-label="Layers">
          {model.layers.map((layer) => (
            <LayerBar layer={layer} />
          ))}
        </ul>
        {model.layerNote ? (
          <p class="muted layer-note" safe>
            {model.layerNote}
          </p>
        ) : (
          ''
        )}
      </div>
      <section aria-labelledby="fixes-title">
        <h2 id="fixes-title">{model.fixes.length === 0 ? 'Top fixes' : `Top fixes (${model.fixes.length})`}</h2>
        {model.fixes.length === 0 ? (
          <p>Nothing to fix: every counted check passes.</p>
        ) : (
          <ol class="fixes">
            {model.fixes.map((fix) => (
              <li>{card(fix.check, fix)}</li>
            ))}
          </ol>
        )}
      </section>
      {counted.length > 0 ? (
        <section aria-labelledby="issues-title">
          <h2 id="issues-title">{`Also failing or warning (${counted.length}), by impact`}</h2>
          {counted.map((check) => card(check))}
        </section>
      ) : (
        ''
      )}
      <PagesSection report={report} />
      {extras.length > 0 ? (
        <details class="fold" id="extras">
          <summary>
            <h2>{`Extras not met (${extras.length})`}</h2>
          </summary>
          <p class="muted">
            Bonus, emerging and beta checks: meeting one can raise the score or show what is coming; not meeting one
            never lowers it.
          </p>
          {extras.map((check) => card(check))}
        </details>
      ) : (
        ''
      )}
      {model.pending.length > 0 ? (
        <details class="fold" open>
          <summary>
            <h2>{`Still running (${model.pending.length})`}</h2>
          </summary>
          {model.pending.map((check) => card(check))}
        </details>
      ) : (
        ''
      )}
      <details class="fold" id="passed">
        <summary>
          <h2>{`Passed (${model.passed.length})`}</h2>
        </summary>
        {model.passed.map((check) => card(check))}
      </details>
      <details class="fold" id="not-applicable">
        <summary>
          <h2>{`Not applicable (${model.counts.notApplicable})`}</h2>
        </summary>
        {model.notApplicable.map((group) => (
          <section class="na-group">
            <p safe>{group.reason}</p>
            {group.checks.map((check) => card(check))}
          </section>
        ))}
      </details>
      <div class="context">
        <section aria-labelledby="history-title">
          <h2 id="history-title">Score history</h2>
          <Sparkline points={view.history} />
        </section>
        <section aria-labelledby="journeys-title">
          <h2 id="journeys-title">Agent journeys</h2>
          {runs.length === 0 ? (
            <p>
              No agent has attempted a task here yet. <a href="/journeys">Start a journey</a>
            </p>
          ) : (
            <ul>
              {runs.map((run) => (
                <li>
                  <a href={`/journeys/${encodeURIComponent(run.id)}`} safe>
                    {run.title}
                  </a>{' '}
                  <span class="muted" safe>
                    {run.outcome ? `${run.status}: ${run.outcome}` : run.status}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <Competitors set={view.competitors} />
      {view.row.ephemeral ? (
        ''
      ) : (
        <BadgeSnippets
          domain={report.domain}
          mcpUrl={isMcpKind(view.row.urlKind) ? view.row.mcpUrl : null}
          path={path}
          version={view.row.id}
          baseUrl={baseUrl}
        />
      )}
      <section aria-labelledby="rescan-title">
        <h2 id="rescan-title">Scan again</h2>
        <p>
          <span
            safe
          >{`A fresh scan of ${label} (${KIND_NAMES[report.urlKind] ?? report.urlKind}), replacing this result. `}</span>
          <a href="/">Scan something else</a>
        </p>
        <RescanForm target={target} label="Scan again now" />
      </section>
    </Layout>
  )
}

/** On an MCP report, the query that makes the domain's score and badge routes read this MCP server's own result. */
const mcpQuery = (view: ReportView) =>
  isMcpKind(view.row.urlKind) && view.row.mcpUrl ? `&mcp=${encodeURIComponent(view.row.mcpUrl)}` : ''

/** What "Scan again" sends: the stored result's own target (its URL, and the MCP endpoint it measured, pinned). */
function rescanTarget(view: ReportView): RescanTarget {
  return { url: view.row.url, mcpUrl: view.row.mcpUrl ?? undefined }
}

/** How old the result is, in words, whether the scan form served it from the cache, and a one-click fresh scan. */
function Freshness({
  scannedAt,
  now,
  fromCache,
  target,
}: {
  scannedAt: Date
  now: Date
  fromCache: boolean
  target: RescanTarget
}): JSX.Element {
  const age = ago(scannedAt, now)
  return (
    <div class={fromCache ? 'notice freshness' : 'freshness'} id="freshness" role={fromCache ? 'status' : undefined}>
      <span>
        {fromCache ? 'From the cache: this stored result was ' : ''}
        {fromCache ? 'scanned ' : 'Scanned '}
        <time datetime={scannedAt.toISOString()} title={scannedAt.toISOString()}>
          {age}
        </time>
        {fromCache ? '; no new scan ran.' : '.'}
      </span>
      <RescanForm target={target} label="Fresh scan" />
    </div>
  )
}

function EphemeralNotice(): JSX.Element {
  const days = Math.round(EPHEMERAL_RETENTION_MS / 86_400_000)
  return (
    <p class="muted" id="ephemeral-notice">
      {`Not published: a local, private or tunnel address is kept out of the leaderboard, statistics and history, and this result is deleted after ${days} days.`}
    </p>
  )
}

/** The host's other reports: a website's report links its MCP servers' and back. */
function Siblings({ siblings }: { siblings: SiblingReport[] }): JSX.Element {
  if (siblings.length === 0) return ''
  return (
    <nav class="siblings" aria-labelledby="siblings-title">
      <p id="siblings-title">Other reports on this host:</p>
      <ul>
        {siblings.map((sibling) => (
          <li>
            <span safe>{`${KIND_NAMES[sibling.urlKind] ?? sibling.urlKind} `}</span>
            <a href={sibling.path} safe>
              {sibling.target}
            </a>
            <span class="muted" safe>
              {sibling.authRequired
                ? ' requires authentication'
                : sibling.score === null
                  ? ''
                  : ` ${sibling.score}/100 (${sibling.grade})`}
            </span>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/** A partial report follows its background analysis (app.js reads the report again) and updates itself. */
function AnalysisNotice({ status, path }: { status: ReportView['analysisStatus']; path: string }): JSX.Element {
  if (status === 'complete') return ''
  if (status === 'stuck')
    return <p class="notice">The background analysis of this scan did not finish; scan again to complete it.</p>
  return (
    <p class="notice" id="analysis-status" role="status" data-follow-report={path}>
      Rendered checks are still running in the background; this report updates itself when they finish.
    </p>
  )
}

function LayerBar({ layer }: { layer: ReportLayer }): JSX.Element {
  const id = `layer-${layer.id}`
  return (
    <li class={layer.applicable ? 'layer' : 'layer layer-empty'} data-layer={layer.id}>
      <label for={id} safe>
        {layer.name}
      </label>
      {layer.applicable ? (
        <meter
          id={id}
          min="0"
          max={String(layer.maxPoints ?? Math.max(layer.maxScore ?? 0, 1))}
          value={String(layer.points ?? layer.score ?? 0)}
        >
          {`${layer.percent ?? 0}%`}
        </meter>
      ) : (
        <output id={id} class="muted">
          Nothing applicable
        </output>
      )}
      <span class="layer-score" safe>
        {layer.applicable ? layer.label : '—'}
      </span>
    </li>
  )
}

const STATUS_CLASS: Record<string, string> = {
  pass: 'pass',
  fail: 'fail',
  warning: 'warning',
  error: 'error',
  pending: 'pending',
  na: 'na',
}

/**
 * One check, wherever it is listed. A top fix is shown open with its gain and copy-ready remedy; every other check
 * is one line that unfolds to its details and the re-check button. A re-checked card says so in place and stays
 * open (app.js swaps the card the server renders after a re-check for the one the user pressed).
 */
function CheckCard({
  check,
  fix,
  path,
  target,
  extra,
  recheck,
}: {
  check: ReportCheck
  fix?: ReportFix
  path: string
  target: RescanTarget
  extra: boolean
  recheck: RecheckOutcome | null
}): JSX.Element {
  const titleId = `${check.anchor}-title`
  const measured = check.status !== 'na' && check.status !== 'pending'
  const head = (
    <>
      <h3 id={titleId} safe>
        {check.name}
      </h3>
      <StatusLabel status={check.status} extra={extra} />
      {check.blocksAgents ? <span class="tag tag-blocking">Blocks agents</span> : ''}
      {requiredCheckFails(check) ? <span class="tag tag-required">Required</span> : ''}
      {measured && !(extra && check.score === 0) ? (
        <span class="points">{`${check.score} / ${check.maxScore}`}</span>
      ) : (
        ''
      )}
      {fix ? (
        <span class="gain">{`+${formatGain(fix.gain)} points`}</span>
      ) : check.gain > 0 ? (
        <span class="gain-minor">{`+${formatGain(check.gain)}`}</span>
      ) : (
        ''
      )}
    </>
  )
  const body = (
    <>
      {recheck ? (
        <div class="notice recheck-notice" role="status">
          <p>
            {`Re-checked just now: ${STATUS_WORDS[check.status] ?? check.status}. `}
            {recheck.storedScanUpdated ? (
              'The stored report is updated.'
            ) : (
              <strong>Not saved: scan again to publish.</strong>
            )}
          </p>
          {recheck.storedScanUpdated ? '' : <RescanForm target={target} label="Scan again to publish" />}
        </div>
      ) : (
        ''
      )}
      {check.mcpUrl ? (
        <p class="muted">
          MCP server: <code safe>{check.mcpUrl}</code>
        </p>
      ) : (
        ''
      )}
      {check.details ? (
        <p class="details" safe>
          {check.details}
        </p>
      ) : (
        ''
      )}
      {check.recommendation ? (
        <p>
          <strong>Fix:</strong> <span safe>{check.recommendation}</span>
        </p>
      ) : (
        ''
      )}
      {fix?.remedy ? (
        <CodeBlock id={`${check.anchor}-snippet`} label={fix.remedy.snippet.label} code={fix.remedy.snippet.code} />
      ) : (
        ''
      )}
      <footer>
        {fix?.remedy && fix.remedy.recipes.length > 0 ? <Recipes recipes={fix.remedy.recipes} id={check.anchor} /> : ''}
        {isWebUrl(check.specUrl) ? (
          <a href={check.specUrl}>
            Specification<span class="visually-hidden" safe>{` for ${check.name}`}</span>
          </a>
        ) : (
          ''
        )}
        <a href={`/checks#${encodeURIComponent(check.id)}`}>
          About this check<span class="visually-hidden" safe>{`: ${check.name}`}</span>
        </a>
        {check.status === 'na' ? (
          ''
        ) : (
          <form method="post" action={`${path}/recheck`} class="inline" data-recheck>
            <input type="hidden" name="checkId" value={check.id} />
            <button type="submit" class="secondary">
              Re-check<span class="visually-hidden" safe>{` ${check.name}`}</span>
            </button>
          </form>
        )}
      </footer>
    </>
  )
  const open = fix !== undefined || recheck !== null
  // An extra that is not met is no failure: its card is drawn in the neutral colour too.
  const notMet = extra && (check.status === 'fail' || check.status === 'warning')
  return (
    <article
      class={`check check-${notMet ? 'extra' : (STATUS_CLASS[check.status] ?? 'error')}`}
      id={check.anchor}
      data-check-id={check.id}
      aria-labelledby={titleId}
    >
      {open ? (
        <>
          <header>{head}</header>
          {body}
        </>
      ) : (
        <details>
          <summary>
            <span class="check-head">{head}</span>
          </summary>
          {body}
        </details>
      )}
    </article>
  )
}

const STATUS_WORDS: Record<string, string> = {
  pass: 'it passes',
  fail: 'it still fails',
  warning: 'it warns',
  error: 'it could not be measured',
  na: 'it does not apply',
}

/** The per-server recipes, folded: the summary sits on the card's footer line, the recipes open below it. */
function Recipes({ recipes, id }: { recipes: Recipe[]; id: string }): JSX.Element {
  return (
    <details class="recipes">
      <summary>{`On your server: ${recipes.map((recipe) => recipe.server).join(', ')}`}</summary>
      {recipes.map((recipe, index) => (
        <CodeBlock id={`${id}-recipe-${index}`} label={recipe.server} code={recipe.code} />
      ))}
    </details>
  )
}

function Competitors({ set }: { set: CompetitorSet | null }): JSX.Element {
  if (!set) return ''
  const table = (caption: string, rows: CompetitorSet['leaders']) => (
    <table>
      <caption safe>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Rank</th>
          <th scope="col">Domain</th>
          <th scope="col">Score</th>
          <th scope="col">Grade</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr class={row.isSelf ? 'self' : ''}>
            <td>{String(row.rank)}</td>
            <td>
              <a href={reportPath(row.domain)} safe>
                {row.domain}
              </a>
              {row.isSelf ? ' (this site)' : ''}
            </td>
            <td>{String(row.score)}</td>
            <td safe>{row.grade}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
  return (
    <section aria-labelledby="competitors-title">
      <h2 id="competitors-title">Competitors</h2>
      {table(`Leaders in ${categoryName(set.category)}`, set.leaders)}
      {table('Nearest neighbours', set.neighbors)}
    </section>
  )
}

/** `version` (the scan's id) makes the page's own image a new URL after each scan, so no cached badge lags the report. */
function BadgeSnippets({
  domain,
  mcpUrl,
  path,
  version,
  baseUrl,
}: {
  domain: string
  mcpUrl: string | null
  path: string
  version: number
  baseUrl: string
}): JSX.Element {
  // An MCP server's badge is its own report's, not the domain's newest scan.
  const source = `/api/badge/${encodeURIComponent(domain)}${mcpUrl ? `?mcp=${encodeURIComponent(mcpUrl)}` : ''}`
  const badge = `${baseUrl}${source}`
  const report = `${baseUrl}${path}`
  const markdown = `[![Agent readiness of ${domain}](${badge})](${report})`
  const html = `<a href="${report}"><img src="${badge}" alt="Agent readiness of ${domain}"></a>`
  return (
    <details class="fold" id="badge">
      <summary>
        <h2>Badge for your site</h2>
      </summary>
      <p>
        <img
          src={`${source}${mcpUrl ? '&' : '?'}scan=${version}`}
          alt={`Agent readiness badge of ${domain}`}
          height="20"
        />
      </p>
      <CodeBlock id="badge-markdown" label="Markdown" code={markdown} />
      <CodeBlock id="badge-html" label="HTML" code={html} />
    </details>
  )
}

/** A target nobody has scanned: 404, with the button that scans exactly it. */
export function NotScannedPage({
  target,
  path,
  scan,
  baseUrl,
  nonce,
}: {
  target: string
  path: string
  scan: RescanTarget
  baseUrl: string
  nonce: string
}): JSX.Element {
  return (
    <Layout
      meta={{
        title: `${target} has not been scanned yet`,
        description: `No agent-readiness report exists for ${target} yet. Scan it to create one.`,
        canonical: `${baseUrl}${path}`,
        nonce,
        noindex: true,
        script: true,
      }}
    >
      <h1>
        <span safe>{target}</span> has not been scanned yet
      </h1>
      <p>
        There is no report for this target. Scanning takes a few seconds and checks discovery, access, usability and
        payments.
      </p>
      {scan.mcpUrl ? (
        <RescanForm target={scan} label="Scan this MCP server" />
      ) : (
        <ScanForm value={target} label="Domain or URL to scan" />
      )}
    </Layout>
  )
}

/**
 * An MCP server that answered the scan with "authentication required" (MCP_AUTH_REQUIRED): there is no public
 * score because the public scanner holds no credential, and it never takes one. The owner can still scan it, with
 * their own token, from the CLI or the GitHub Action, where the token stays in their CI.
 */
export function AuthRequiredPage({
  mcpUrl,
  checkedAt,
  siblings,
  baseUrl,
  nonce,
}: {
  mcpUrl: string
  checkedAt: Date
  siblings: SiblingReport[]
  baseUrl: string
  nonce: string
}): JSX.Element {
  const cli = `MCP_AUTH="Authorization: Bearer <your token>" \\\n  agent-readiness scan ${mcpUrl} --header-env MCP_AUTH`
  const action = [
    '- uses: <owner>/<repo>@<ref>   # the agent-readiness action (action.yml); see its README',
    '  with:',
    `    target: ${mcpUrl}`,
    '    args: --header-env MCP_AUTH',
    '  env:',
    '    MCP_AUTH: "Authorization: Bearer ${{ secrets.MCP_TOKEN }}"',
  ].join('\n')
  return (
    <Layout
      meta={{
        title: `${mcpUrl} requires authentication`,
        description: `The MCP server at ${mcpUrl} requires authentication, so it has no public agent-readiness score. Scan it in CI with your own token.`,
        canonical: `${baseUrl}${mcpReportPath(mcpUrl)}`,
        nonce,
        noindex: true,
        script: true,
      }}
    >
      <h1>
        <span safe>{mcpUrl}</span> requires authentication
      </h1>
      <p>
        {'This MCP server answered the scan with "authentication required" (checked '}
        <time datetime={checkedAt.toISOString()}>{day(checkedAt)}</time>
        {
          '). The public scanner sends no credentials and never takes any, so it cannot see what an agent holding a token sees: there is no public score, grade or leaderboard entry for this server.'
        }
      </p>
      <Siblings siblings={siblings} />
      <h2>Scan it with your token</h2>
      <p>
        The command-line scanner sends a header you give it to this server's origin only (never to another host, never
        into logs or the report). <code>--header-env</code> reads the whole <code>Name: value</code> line from an
        environment variable, so the token stays out of process lists:
      </p>
      <CodeBlock id="auth-cli" label="Command line" code={cli} />
      <p>
        In GitHub Actions, the same option goes in the action's <code>args</code> input and the token comes from a
        repository secret:
      </p>
      <CodeBlock id="auth-action" label="GitHub Actions step" code={action} />
      <p>Made the server public, or changed what it asks for? Scan it again:</p>
      <RescanForm target={{ url: mcpUrl, mcpUrl }} label="Scan again" />
    </Layout>
  )
}
