import { SERVICE_NAME } from '../../../core/contract.ts'
import type { CheckResult, LayerResult, TopFix } from '../../../core/engine/scoring.ts'
import type { CompetitorSet } from '../../scan/competitors.ts'
import { reportPath } from '../../scan/shapes.ts'
import { day, Gauge, isWebUrl, Sparkline, StatusLabel } from '../components.tsx'
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

/** /site/{domain}: everything the stored scan says, most useful first. */
export function ReportPage({ view, baseUrl, nonce, recheck, runs }: ReportPage): JSX.Element {
  const { report } = view
  const path = reportPath(report.domain)
  const canonical = `${baseUrl}${path}`
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
      <section class="summary" aria-labelledby="report-title">
        <div>
          <h1 id="report-title" safe>
            {report.domain}
          </h1>
          {report.name && report.name !== report.domain ? (
            <p class="site-name" safe>
              {report.name}
            </p>
          ) : (
            ''
          )}
          <p class="grade">
            Grade <strong class="grade-letter" safe>{report.grade}</strong>
          </p>
          {report.ctaMessage ? <p safe>{report.ctaMessage}</p> : ''}
          <p class="muted">
            Scanned <time datetime={report.scannedAt}>{day(new Date(report.scannedAt))}</time>
            {report.urlKind === 'domain' ? '' : <span safe>{` · ${report.urlKind}`}</span>} · <a href={`${path}.md`}>Markdown</a> ·{' '}
            <a href={`/api/score/${encodeURIComponent(report.domain)}?format=audit`}>JSON</a>
          </p>
          {view.analysisStatus === 'complete' ? (
            ''
          ) : (
            <p class="notice" role="status">
              {view.analysisStatus === 'stuck'
                ? 'The background analysis of this scan did not finish; scan again to complete it.'
                : 'Some checks are still running in the background; reload in a minute for the final score.'}
            </p>
          )}
        </div>
        <Gauge score={report.score} grade={report.grade} />
      </section>
      {recheck ? <RecheckNotice outcome={recheck} /> : ''}
      <section aria-labelledby="layers-title">
        <h2 id="layers-title">Layers</h2>
        <ul class="layers">{report.layers.map((layer) => <LayerBar layer={layer} />)}</ul>
      </section>
      <section aria-labelledby="fixes-title">
        <h2 id="fixes-title">Top fixes</h2>
        <TopFixes fixes={report.topFixes} />
      </section>
      <section aria-labelledby="history-title">
        <h2 id="history-title">Score history</h2>
        <Sparkline points={view.history} />
      </section>
      <section aria-labelledby="checks-title">
        <h2 id="checks-title">Every check</h2>
        {report.layers.map((layer) => (
          <LayerChecks layer={layer} domain={report.domain} />
        ))}
      </section>
      <Competitors set={view.competitors} />
      <section aria-labelledby="journeys-title">
        <h2 id="journeys-title">Agent journeys</h2>
        {runs.length === 0 ? (
          <p>No agent has attempted a task here yet.</p>
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
        <p>
          <a href="/journeys">Start a journey</a>
        </p>
      </section>
      <BadgeSnippets domain={report.domain} baseUrl={baseUrl} />
      <section aria-labelledby="rescan-title">
        <h2 id="rescan-title">Scan again</h2>
        <ScanForm value={report.domain} label="Domain or URL to scan" />
      </section>
    </Layout>
  )
}

function LayerBar({ layer }: { layer: LayerResult }): JSX.Element {
  const id = `layer-${layer.id}`
  const percent = layer.maxScore > 0 ? Math.round((layer.score / layer.maxScore) * 100) : 0
  return (
    <li class="layer">
      <label for={id} safe>
        {layer.name}
      </label>
      <meter id={id} min="0" max={String(Math.max(layer.maxScore, 1))} value={String(layer.score)}>
        {`${percent}%`}
      </meter>
      <span class="layer-score">{`${layer.score} / ${layer.maxScore}`}</span>
    </li>
  )
}

function TopFixes({ fixes }: { fixes: TopFix[] }): JSX.Element {
  if (fixes.length === 0) return <p>Nothing to fix: every counted check passes.</p>
  return (
    <ol class="fixes">
      {fixes.map((fix) => (
        <li>
          <a href={`#check-${encodeURIComponent(fix.id)}`} safe>
            {fix.name}
          </a>{' '}
          <span class="gain">{`+${formatGain(fix.estScoreGain)} points`}</span>
          {fix.bonus ? <span class="muted"> (bonus)</span> : ''}
          {fix.recommendation ? <p safe>{fix.recommendation}</p> : ''}
        </li>
      ))}
    </ol>
  )
}

const formatGain = (gain: number) => (Number.isInteger(gain) ? String(gain) : gain.toFixed(1))

function LayerChecks({ layer, domain }: { layer: LayerResult; domain: string }): JSX.Element {
  const seen = new Map<string, number>()
  return (
    <section class="layer-checks" aria-labelledby={`checks-${layer.id}`}>
      <h3 id={`checks-${layer.id}`} safe>
        {layer.name}
      </h3>
      {layer.description ? <p class="muted" safe>{layer.description}</p> : ''}
      {layer.checks.map((check) => {
        // MCP fan-out repeats an id once per server; only the first row takes the plain anchor.
        const count = seen.get(check.id) ?? 0
        seen.set(check.id, count + 1)
        return <CheckRow check={check} anchor={count === 0 ? `check-${check.id}` : `check-${check.id}-${count + 1}`} domain={domain} />
      })}
    </section>
  )
}

function CheckRow({ check, anchor, domain }: { check: CheckResult; anchor: string; domain: string }): JSX.Element {
  const titleId = `${anchor}-title`
  return (
    <article class="check" id={anchor} aria-labelledby={titleId}>
      <header>
        <h4 id={titleId} safe>
          {check.name}
        </h4>
        <StatusLabel status={check.status} />
        <span class="muted">{`${check.score} / ${check.maxScore}`}</span>
      </header>
      {check.mcpUrl ? (
        <p class="muted">
          MCP server: <code safe>{check.mcpUrl}</code>
        </p>
      ) : (
        ''
      )}
      {check.details ? <p safe>{check.details}</p> : ''}
      {check.naReason ? <p class="muted" safe>{check.naReason}</p> : ''}
      {check.recommendation ? (
        <p>
          <strong>Fix:</strong> <span safe>{check.recommendation}</span>
        </p>
      ) : (
        ''
      )}
      <footer>
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
        <form method="post" action={`${reportPath(domain)}/recheck`} class="inline">
          <input type="hidden" name="checkId" value={check.id} />
          <button type="submit">
            Re-check<span class="visually-hidden" safe>{` ${check.name}`}</span>
          </button>
        </form>
      </footer>
    </article>
  )
}

function RecheckNotice({ outcome }: { outcome: RecheckOutcome }): JSX.Element {
  return (
    <section class="notice" role="status" aria-labelledby="recheck-title">
      <h2 id="recheck-title">
        Re-checked <a href={`#check-${encodeURIComponent(outcome.checkId)}`} safe>{outcome.checkId}</a> just now
      </h2>
      <ul>
        {outcome.results.map((result) => (
          <li>
            <strong safe>{result.name}</strong> <StatusLabel status={result.status} /> <span safe>{result.details}</span>
            {result.mcpUrl ? <span class="muted" safe>{` (${result.mcpUrl})`}</span> : ''}
          </li>
        ))}
      </ul>
      <p class="muted">
        {outcome.storedScanUpdated
          ? 'The stored report below has been updated.'
          : 'The stored report below is unchanged; scan again to update the score.'}
      </p>
    </section>
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
      {table(`Leaders in ${set.category}`, set.leaders)}
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
    <section aria-labelledby="badge-title">
      <h2 id="badge-title">Badge</h2>
      <p>
        <img src={`/api/badge/${encodeURIComponent(domain)}`} alt={`Agent readiness badge of ${domain}`} height="20" />
      </p>
      <label for="badge-markdown">Markdown</label>
      <textarea id="badge-markdown" readonly rows="2" data-copy safe>
        {markdown}
      </textarea>
      <label for="badge-html">HTML</label>
      <textarea id="badge-html" readonly rows="2" data-copy safe>
        {html}
      </textarea>
    </section>
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
