import type { CheckCatalog } from '../../../core/engine/catalog.ts'
import { isWebUrl } from '../components.tsx'
import { Layout } from '../layout.tsx'

/** Case-insensitive substring search over what a reader would search for. */
export function matchingChecks(catalog: CheckCatalog, query: string | undefined): CheckCatalog['checks'] {
  const needle = query?.trim().toLowerCase()
  if (!needle) return catalog.checks
  return catalog.checks.filter((check) => [check.id, check.name, check.description, check.layer].some((text) => text.toLowerCase().includes(needle)))
}

/** `/checks`: the catalog by layer, one anchor per check id, searchable with a GET form. */
export function ChecksPage({ catalog, query, baseUrl, nonce }: { catalog: CheckCatalog; query: string | undefined; baseUrl: string; nonce: string }): JSX.Element {
  const checks = matchingChecks(catalog, query)
  return (
    <Layout meta={{ title: 'Check catalog', description: `The ${catalog.checks.length} checks behind every agent-readiness score, by layer.`, canonical: `${baseUrl}/checks`, nonce }}>
      <h1>Check catalog</h1>
      <form method="get" action="/checks" role="search" class="filters">
        <label for="check-search">Search checks</label>
        <input id="check-search" type="search" name="q" maxlength="200" value={query ?? ''} />
        <button type="submit">Search</button>
      </form>
      <p role="status">{`${checks.length} of ${catalog.checks.length} checks · contract ${catalog.contractVersion}`}</p>
      {catalog.layers.map((layer) => {
        const inLayer = checks.filter((check) => check.layer === layer.id)
        if (inLayer.length === 0) return ''
        return (
          <section aria-labelledby={`layer-${layer.id}`}>
            <h2 id={`layer-${layer.id}`}>{`${layer.name} (${layer.weight} points)`}</h2>
            {inLayer.map((check) => (
              <article class="check" id={check.id} aria-labelledby={`${check.id}-title`}>
                <header>
                  <h3 id={`${check.id}-title`} safe>
                    {check.name}
                  </h3>
                  <code safe>{check.id}</code>
                </header>
                <p safe>{check.description}</p>
                <p class="muted">{`Applies to ${check.appliesTo.join(', ')} · ${check.tier} · ${check.maturity}${check.bonus ? ' · bonus' : ''} · up to ${check.maxScore} points`}</p>
                {check.recommendation ? <p safe>{check.recommendation}</p> : ''}
                {isWebUrl(check.specUrl) ? (
                  <a href={check.specUrl}>
                    Specification<span class="visually-hidden" safe>{` for ${check.name}`}</span>
                  </a>
                ) : (
                  ''
                )}
              </article>
            ))}
          </section>
        )
      })}
    </Layout>
  )
}
