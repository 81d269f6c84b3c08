import { SCAN_KINDS, TIERS } from '../../../core/engine/check.ts'
import type { CheckCatalog } from '../../../core/engine/catalog.ts'
import { isWebUrl } from '../components.tsx'
import { Layout } from '../layout.tsx'
import { CHECK_SCORING, type ChecksPageQuery } from '../model.ts'

const KIND_NAMES: Record<string, string> = { domain: 'Websites', mcp: 'MCP servers', 'mcp-app': 'MCP Apps' }
const TIER_NAMES: Record<string, string> = { required: 'Required', recommended: 'Recommended', emerging: 'Emerging' }
const SCORING_NAMES: Record<(typeof CHECK_SCORING)[number], string> = { scored: 'Scored checks', bonus: 'Bonus extras' }

/** Case-insensitive substring search over what a reader would search for, narrowed by layer, tier, kind and scoring. */
export function matchingChecks(catalog: CheckCatalog, query: ChecksPageQuery): CheckCatalog['checks'] {
  const needle = query.q?.trim().toLowerCase()
  return catalog.checks.filter(
    (check) =>
      (!needle ||
        [check.id, check.name, check.description, check.layer].some((text) => text.toLowerCase().includes(needle))) &&
      (!query.layer || check.layer === query.layer) &&
      (!query.tier || check.tier === query.tier) &&
      (!query.kind || check.appliesTo.includes(query.kind)) &&
      (!query.scoring || check.bonus === (query.scoring === 'bonus')),
  )
}

/** `/checks`: the catalog by layer with a table of contents, one anchor per check id, filtered with a GET form. */
export function ChecksPage({
  catalog,
  query,
  baseUrl,
  nonce,
}: {
  catalog: CheckCatalog
  query: ChecksPageQuery
  baseUrl: string
  nonce: string
}): JSX.Element {
  const checks = matchingChecks(catalog, query)
  const layers = catalog.layers
    .map((layer) => ({ ...layer, checks: checks.filter((check) => check.layer === layer.id) }))
    .filter((layer) => layer.checks.length > 0)
  return (
    <Layout
      meta={{
        title: 'Check catalog',
        description: `The ${catalog.checks.length} checks behind every agent-readiness score, by layer.`,
        canonical: `${baseUrl}/checks`,
        nonce,
      }}
    >
      <h1>Check catalog</h1>
      <form method="get" action="/checks" role="search" class="filters">
        <div>
          <label for="check-search">Search</label>
          <input id="check-search" type="search" name="q" maxlength="200" value={query.q ?? ''} />
        </div>
        <div>
          <label for="check-layer">Layer</label>
          <select id="check-layer" name="layer">
            <option value="">All layers</option>
            {catalog.layers.map((layer) => (
              <option value={layer.id} selected={layer.id === query.layer} safe>
                {layer.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="check-tier">Tier</label>
          <select id="check-tier" name="tier">
            <option value="">All tiers</option>
            {TIERS.map((tier) => (
              <option value={tier} selected={tier === query.tier}>
                {TIER_NAMES[tier] ?? tier}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="check-kind">Applies to</label>
          <select id="check-kind" name="kind">
            <option value="">All kinds</option>
            {SCAN_KINDS.map((kind) => (
              <option value={kind} selected={kind === query.kind}>
                {KIND_NAMES[kind] ?? kind}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="check-scoring">Scoring</label>
          <select id="check-scoring" name="scoring">
            <option value="">Scored and bonus</option>
            {CHECK_SCORING.map((scoring) => (
              <option value={scoring} selected={scoring === query.scoring}>
                {SCORING_NAMES[scoring]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">Filter</button>
      </form>
      <p role="status">{`${checks.length} of ${catalog.checks.length} checks · contract ${catalog.contractVersion}`}</p>
      {layers.length > 0 ? (
        <nav class="toc" aria-labelledby="toc-title">
          <h2 id="toc-title">Contents</h2>
          <ul>
            {layers.map((layer) => (
              <li>
                <a href={`#layer-${layer.id}`} safe>
                  {`${layer.name} (${layer.checks.length})`}
                </a>
                <ul>
                  {layer.checks.map((check) => (
                    <li>
                      <a href={`#${check.id}`} safe>
                        {check.name}
                      </a>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </nav>
      ) : (
        <p>No check matches these filters.</p>
      )}
      {layers.map((layer) => (
        <section aria-labelledby={`layer-${layer.id}`}>
          <h2 id={`layer-${layer.id}`}>{`${layer.name} (${layer.weight} points)`}</h2>
          {layer.checks.map((check) => (
            <article class="check" id={check.id} aria-labelledby={`${check.id}-title`}>
              <header>
                <h3 id={`${check.id}-title`} safe>
                  {check.name}
                </h3>
                <code safe>{check.id}</code>
                {check.tier === 'required' ? <span class="tag tag-required">Required</span> : ''}
                {check.bonus ? <span class="tag tag-bonus">Bonus</span> : ''}
              </header>
              <p safe>{check.description}</p>
              <p class="muted">{`Applies to ${check.appliesTo.map((kind) => KIND_NAMES[kind] ?? kind).join(', ')} · ${TIER_NAMES[check.tier] ?? check.tier} · ${check.maturity}${check.bonus ? ' · bonus' : ''} · up to ${check.maxScore} points`}</p>
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
      ))}
    </Layout>
  )
}
