import { pathOf } from '../../../core/engine/lib/describe.ts'
import type { ScanReport } from '../../../core/engine/scan.ts'
import { StatusLabel } from '../components.tsx'

/**
 * The "Pages" part of a multi-page report: for each page-level check "18 of 25 pages" and the pages it failed on,
 * each with that page's own fix, then the sample itself and where each page was found. Nothing on a one-page scan.
 */

const SOURCES: Record<string, string> = {
  home: 'the homepage',
  sitemap: 'the sitemap',
  llms: 'llms.txt',
  link: 'a homepage link',
}

type PageCheck = ScanReport['layers'][number]['checks'][number] & {
  pages: NonNullable<ScanReport['layers'][number]['checks'][number]['pages']>
}

function pageChecks(report: ScanReport): PageCheck[] {
  return report.layers
    .flatMap((layer) => layer.checks)
    .filter((check): check is PageCheck => (check.pages?.checked ?? 0) > 0)
}

/** One sentence on the sample: its size, the candidates, what robots.txt kept out, the rendered pages, why it is short. */
export function sampleSentence(report: ScanReport): string {
  const sample = report.pageSample!
  const rendered =
    sample.renderedPages.length > 0
      ? ` Rendered (browser) checks ran on ${sample.renderedPages.map(pathOf).join(', ')}.`
      : ''
  return `${report.pages!.length} of ${sample.requested} pages sampled from ${sample.candidates} found; ${sample.robotsSkipped} skipped because robots.txt disallows them.${rendered}${sample.note ? ` ${sample.note}.` : ''}`
}

export function PagesSection({ report }: { report: ScanReport }): JSX.Element {
  if (!report.pages || !report.pageSample) return <></>
  return (
    <section aria-labelledby="pages-title" id="pages">
      <h2 id="pages-title">{`Pages (${report.pages.length})`}</h2>
      <p safe>{sampleSentence(report)}</p>
      {pageChecks(report).map((check) => (
        <div class="page-check">
          <h3>
            <StatusLabel status={check.status} /> <span safe>{check.name}</span>:{' '}
            <span safe>{`${check.pages.passed} of ${check.pages.checked} pages`}</span>
          </h3>
          {check.pages.failing.length > 0 ? (
            <ul>
              {check.pages.failing.map((page) => (
                <li>
                  <a href={page.url} rel="nofollow noopener" safe>
                    {pathOf(page.url)}
                  </a>{' '}
                  <StatusLabel status={page.status} /> <span safe>{page.details}</span>
                  {page.recommendation ? <p class="fix" safe>{`Fix: ${page.recommendation}`}</p> : ''}
                </li>
              ))}
            </ul>
          ) : (
            ''
          )}
        </div>
      ))}
      <details class="fold">
        <summary>
          <h3>{`The ${report.pages.length} sampled pages`}</h3>
        </summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Page</th>
              <th scope="col">Found in</th>
              <th scope="col">HTTP</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {report.pages.map((page) => (
              <tr>
                <td safe>{pathOf(page.url)}</td>
                <td safe>{SOURCES[page.source] ?? page.source}</td>
                <td safe>{String(page.httpStatus ?? '—')}</td>
                <td safe>{`${page.durationMs} ms`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  )
}

/** The same section for the report's Markdown alternate. */
export function pagesMarkdown(report: ScanReport, text: (value: string | undefined) => string): string[] {
  if (!report.pages || !report.pageSample) return []
  const lines = [`## Pages (${report.pages.length})`, '', text(sampleSentence(report)), '']
  for (const check of pageChecks(report)) {
    lines.push(
      `### ${text(check.name)} (\`${check.id}\`): ${check.pages.passed} of ${check.pages.checked} pages, ${check.status}`,
      '',
    )
    for (const page of check.pages.failing) {
      lines.push(
        `- ${text(pathOf(page.url))} (${page.status}): ${text(page.details)}${page.recommendation ? ` Fix: ${text(page.recommendation)}` : ''}`,
      )
    }
    if (check.pages.failing.length > 0) lines.push('')
  }
  lines.push(
    '| Page | Found in | HTTP |',
    '| --- | --- | ---: |',
    ...report.pages.map((page) => `| ${text(page.url)} | ${page.source} | ${page.httpStatus ?? ''} |`),
    '',
  )
  return lines
}
