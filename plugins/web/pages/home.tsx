import { SERVICE_NAME } from '../../../core/version.ts'
import { LAYERS } from '../../../core/engine/check.ts'
import { HOME_MARKDOWN_PATH } from '../discovery.ts'
import { Layout, ScanForm } from '../layout.tsx'

/** `/`: the scan form, and where its live progress appears when JavaScript runs. */
export function HomePage({ baseUrl, nonce }: { baseUrl: string; nonce: string }): JSX.Element {
  const description =
    'Scan a website, an MCP server or an MCP App server and see how ready it is for AI agents: a score, a grade and the fixes that matter most.'
  const jsonLd = {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'WebSite',
        '@id': `${baseUrl}/#website`,
        name: SERVICE_NAME,
        url: `${baseUrl}/`,
        description,
        publisher: { '@id': `${baseUrl}/#organization` },
      },
      { '@type': 'Organization', '@id': `${baseUrl}/#organization`, name: SERVICE_NAME, url: `${baseUrl}/` },
    ],
  }
  return (
    <Layout
      meta={{
        title: `${SERVICE_NAME}: how ready is your site for AI agents?`,
        description,
        canonical: `${baseUrl}/`,
        nonce,
        jsonLd,
        markdown: HOME_MARKDOWN_PATH,
        script: true,
      }}
    >
      <h1>How ready is your site for AI agents?</h1>
      <p class="lead">{description}</p>
      <ScanForm />
      <section id="scan-progress" class="progress" aria-labelledby="progress-title" hidden>
        <h2 id="progress-title">Scanning</h2>
        <p id="progress-status" role="status" aria-live="polite"></p>
        <ul id="progress-layers" class="layers"></ul>
        <ol id="progress-checks" class="ticks"></ol>
      </section>
      <section aria-labelledby="layers-title">
        <h2 id="layers-title">What is measured</h2>
        <ul class="cards">
          {LAYERS.map((layer) => (
            <li>
              <h3 safe>{layer.name}</h3>
              <p class="muted">{`${layer.weight} of 100 points`}</p>
            </li>
          ))}
        </ul>
        <p>
          Every check is listed in the <a href="/checks">check catalog</a>; the best-scoring sites are on the{' '}
          <a href="/leaderboard">leaderboard</a>.
        </p>
      </section>
    </Layout>
  )
}
