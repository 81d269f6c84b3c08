import { SERVICE_NAME } from '../../../core/version.ts'
import { buildReportModel, formatGain, type Recipe, requiredCheckFails, type ReportCheck, type ReportFix, type ReportLayer } from '../../../core/report/index.ts'
import type { CompetitorSet } from '../../scan/competitors.ts'
import { reportPath } from '../../scan/shapes.ts'
import { categoryName, CodeBlock, day, Gauge, isWebUrl, Sparkline, StatusLabel } from '../components.tsx'
import { Layout, ScanForm } from '../layout.tsx'
import type { RecheckOutcome } from '../model.ts'
import type { ReportView } from '../service.ts'

export interface ReportPage {
  view: ReportView
  baseUrl: string
  nonce: string
  recheck: RecheckOutcome | null
  /** The domain's newest agent journeys. */
  runs: { id: string; title: string; status: string; outcome: string | undefined }[]
}

export function reportShareTitle(view: ReportView): string {
  return `${view.report.domain} scores ${view.report.score}/100 (${view.report.grade}) for AI-agent readiness`
}

/** A report's summary line, shared by the meta description, the Markdown alternate and JSON-LD. */
export function reportDescription(view: ReportView): string {
  const { report } = view
  const fixes = report.topFixes.length
  return `${report.domain}: ${report.score}/100, grade ${report.grade}. ${fixes === 0 ? 'No fixes outstanding.' : `${fixes} top fixes with their estimated gains.`} Scanned ${day(new Date(report.scannedAt))}.`
}

/** /site/{domain}: the fix-first reading of the stored scan (core/report), then context: history, competitors, journeys. */
export function ReportPage({ view, baseUrl, nonce, recheck, runs }: ReportPage): JSX.Element {
  const { report } = view
  const path = reportPath(report.domain)
  const canonical = `${baseUrl}${path}`
  const model = buildReportModel(report)
  const jsonLd = {
    '@context': 'https://schema.org',
    '@type': 'WebPage',
    name: `${report.domain} agent-readiness report`,
    url: canonical,
    description: reportDescription(view),
    dateModified: report.scannedAt,
    about: { '@type': 'WebSite', name: report.name, url: report.url },
    review: {
      '@type': 'Review',
      author: { '@type': 'Organization', name: SERVICE_NAME, url: baseUrl },
      reviewRating: { '@type': 'Rating', ratingValue: report.score, bestRating: 100, worstRating: 0, ratingExplanation: `Grade ${report.grade}` },
    },
  }
  const rechecked = recheck ? new Set(recheck.results.map((result) => `${result.id}\u0000${result.mcpUrl ?? ''}`)) : new Set<string>()
  const card = (check: ReportCheck, fix?: ReportFix) => (
    <CheckCard
      check={check}
      fix={fix}
      domain={report.domain}
      recheck={recheck && rechecked.has(`${check.id}\u0000${check.mcpUrl ?? ''}`) ? recheck : null}
    />
  )
  return (
    <Layout
      meta={{
        title: `${report.domain} agent-readiness report: ${report.score}/100 (${report.grade})`,
        shareTitle: reportShareTitle(view),
        description: reportDescription(view),
        canonical,
        nonce,
        jsonLd,
        markdown: `${path}.md`,
        script: true,
      }}
    >
      <section class="summary" id="report-summary" aria-labelledby="report-title">
        <div class="summary-text">
          <h1 id="report-title" safe>
            {report.domain}
          </h1>
          <p class="grade">
            Grade <strong class="grade-letter" safe>{report.grade}</strong>
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
            Scanned <time datetime={report.scannedAt}>{day(new Date(report.scannedAt))}</time>
            {report.urlKind === 'domain' ? '' : <span safe>{` · ${report.urlKind}`}</span>} · <a href={`${path}.md`}>Markdown</a> ·{' '}
            <a href={`/api/score/${encodeURIComponent(report.domain)}?format=audit`}>JSON</a>
          </p>
          <AnalysisNotice status={view.analysisStatus} domain={report.domain} />
          {recheck && !recheck.storedScanUpdated ? (
            <p class="notice" role="status">
              These numbers include a re-check that is not saved: the stored report keeps the scanned result until the next scan.
            </p>
          ) : (
            ''
          )}
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
      {model.issues.length > 0 ? (
        <section aria-labelledby="issues-title">
          <h2 id="issues-title">{`Also failing or warning (${model.issues.length}), by impact`}</h2>
          {model.issues.map((check) => card(check))}
        </section>
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
                  <span class="muted" safe>{run.outcome ? `${run.status}: ${run.outcome}` : run.status}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
      <Competitors set={view.competitors} />
      <BadgeSnippets domain={report.domain} baseUrl={baseUrl} />
      <section aria-labelledby="rescan-title">
        <h2 id="rescan-title">Scan again</h2>
        <ScanForm value={report.domain} label="Domain or URL to scan" force />
      </section>
    </Layout>
  )
}

/** A partial report follows its background analysis (app.js polls the score route) and updates itself. */
function AnalysisNotice({ status, domain }: { status: ReportView['analysisStatus']; domain: string }): JSX.Element {
  if (status === 'complete') return ''
  if (status === 'stuck') return <p class="notice">The background analysis of this scan did not finish; scan again to complete it.</p>
  return (
    <p class="notice" id="analysis-status" role="status" data-follow-score={`/api/score/${encodeURIComponent(domain)}`}>
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
        <meter id={id} min="0" max={String(layer.maxPoints ?? Math.max(layer.maxScore ?? 0, 1))} value={String(layer.points ?? layer.score ?? 0)}>
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

const STATUS_CLASS: Record<string, string> = { pass: 'pass', fail: 'fail', warning: 'warning', error: 'error', pending: 'pending', na: 'na' }

/**
 * One check, wherever it is listed. A top fix is shown open with its gain and copy-ready remedy; every other check
 * is one line that unfolds to its details and the re-check button. A re-checked card says so in place and stays
 * open (app.js swaps the card the server renders after a re-check for the one the user pressed).
 */
function CheckCard({ check, fix, domain, recheck }: { check: ReportCheck; fix?: ReportFix; domain: string; recheck: RecheckOutcome | null }): JSX.Element {
  const titleId = `${check.anchor}-title`
  const measured = check.status !== 'na' && check.status !== 'pending'
  const head = (
    <>
      <h3 id={titleId} safe>
        {check.name}
      </h3>
      <StatusLabel status={check.status} />
      {check.blocksAgents ? <span class="tag tag-blocking">Blocks agents</span> : ''}
      {requiredCheckFails(check) ? <span class="tag tag-required">Required</span> : ''}
      {measured ? <span class="points">{`${check.score} / ${check.maxScore}`}</span> : ''}
      {fix ? <span class="gain">{`+${formatGain(fix.gain)} points`}</span> : check.gain > 0 ? <span class="gain-minor">{`+${formatGain(check.gain)}`}</span> : ''}
    </>
  )
  const body = (
    <>
      {recheck ? (
        <p class="notice recheck-notice" role="status">
          {`Re-checked just now: ${STATUS_WORDS[check.status] ?? check.status}. `}
          {recheck.storedScanUpdated ? (
            'The stored report is updated.'
          ) : (
            <>
              This result is not saved: <a href="#rescan-title">scan again</a> to update the stored report.
            </>
          )}
        </p>
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
      {check.details ? <p class="details" safe>{check.details}</p> : ''}
      {check.recommendation ? (
        <p>
          <strong>Fix:</strong> <span safe>{check.recommendation}</span>
        </p>
      ) : (
        ''
      )}
      {fix?.remedy ? <CodeBlock id={`${check.anchor}-snippet`} label={fix.remedy.snippet.label} code={fix.remedy.snippet.code} /> : ''}
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
          <form method="post" action={`${reportPath(domain)}/recheck`} class="inline" data-recheck>
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
  return (
    <article class={`check check-${STATUS_CLASS[check.status] ?? 'error'}`} id={check.anchor} data-check-id={check.id} aria-labelledby={titleId}>
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

const STATUS_WORDS: Record<string, string> = { pass: 'it passes', fail: 'it still fails', warning: 'it warns', error: 'it could not be measured', na: 'it does not apply' }

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

function BadgeSnippets({ domain, baseUrl }: { domain: string; baseUrl: string }): JSX.Element {
  const badge = `${baseUrl}/api/badge/${encodeURIComponent(domain)}`
  const report = `${baseUrl}${reportPath(domain)}`
  const markdown = `[![Agent readiness of ${domain}](${badge})](${report})`
  const html = `<a href="${report}"><img src="${badge}" alt="Agent readiness of ${domain}"></a>`
  return (
    <details class="fold" id="badge">
      <summary>
        <h2>Badge for your site</h2>
      </summary>
      <p>
        <img src={`/api/badge/${encodeURIComponent(domain)}`} alt={`Agent readiness badge of ${domain}`} height="20" />
      </p>
      <CodeBlock id="badge-markdown" label="Markdown" code={markdown} />
      <CodeBlock id="badge-html" label="HTML" code={html} />
    </details>
  )
}

/** A domain nobody has scanned: 404, with the button that scans it. */
export function NotScannedPage({ domain, baseUrl, nonce }: { domain: string; baseUrl: string; nonce: string }): JSX.Element {
  return (
    <Layout
      meta={{
        title: `${domain} has not been scanned yet`,
        description: `No agent-readiness report exists for ${domain} yet. Scan it to create one.`,
        canonical: `${baseUrl}${reportPath(domain)}`,
        nonce,
        noindex: true,
        script: true,
      }}
    >
      <h1>
        <span safe>{domain}</span> has not been scanned yet
      </h1>
      <p>There is no report for this domain. Scanning takes a few seconds and checks discovery, access, usability and payments.</p>
      <ScanForm value={domain} label="Domain to scan" />
    </Layout>
  )
}
