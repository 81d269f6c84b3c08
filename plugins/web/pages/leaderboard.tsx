import { SCAN_KINDS } from '../../../core/engine/check.ts'
import { CATEGORIES } from '../../../core/engine/lib/categories.ts'
import type { LeaderboardResponse } from '../../leaderboard/public.ts'
import { categoryName, day, KIND_NAMES } from '../components.tsx'
import { Layout } from '../layout.tsx'

const KIND_LABELS: Record<string, string> = { domain: 'Websites', mcp: 'MCP servers', 'mcp-app': 'MCP Apps' }

/** `/leaderboard`: the public ranking, filtered by a plain GET form. */
export function LeaderboardPage({
  page,
  baseUrl,
  nonce,
}: {
  page: LeaderboardResponse
  baseUrl: string
  nonce: string
}): JSX.Element {
  const filters = new URLSearchParams()
  if (page.category) filters.set('category', page.category)
  if (page.kind) filters.set('kind', page.kind)
  const pageLink = (number: number) => {
    const query = new URLSearchParams(filters)
    query.set('page', String(number))
    return `/leaderboard?${query}`
  }
  return (
    <Layout
      meta={{
        title: 'Agent-readiness leaderboard',
        description: 'Websites and MCP servers ranked by how ready they are for AI agents.',
        canonical: `${baseUrl}/leaderboard`,
        nonce,
      }}
    >
      <h1>Leaderboard</h1>
      <form method="get" action="/leaderboard" class="filters">
        <label for="filter-category">Category</label>
        <select id="filter-category" name="category">
          <option value="">All categories</option>
          {CATEGORIES.map((category) => (
            <option value={category.slug} selected={category.slug === page.category}>
              {category.name}
            </option>
          ))}
        </select>
        <label for="filter-kind">Kind</label>
        <select id="filter-kind" name="kind">
          <option value="">All kinds</option>
          {SCAN_KINDS.map((kind) => (
            <option value={kind} selected={kind === page.kind}>
              {KIND_LABELS[kind] ?? kind}
            </option>
          ))}
        </select>
        <button type="submit">Filter</button>
      </form>
      {page.items.length === 0 ? (
        <p>No published results match these filters yet.</p>
      ) : (
        <table class="ranking">
          <caption>{`${page.total} ranked ${page.total === 1 ? 'result' : 'results'}`}</caption>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Site</th>
              <th scope="col">Category</th>
              <th scope="col">Kind</th>
              <th scope="col">Scanned</th>
              <th scope="col">Score</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((item) => (
              <tr>
                <td class="rank">{String(item.rank)}</td>
                <td class="site">
                  <a href={item.report} safe>
                    {item.target}
                  </a>
                  {item.name !== item.domain && item.name !== item.target ? (
                    <span class="muted" safe>
                      {` ${item.name}`}
                    </span>
                  ) : (
                    ''
                  )}
                </td>
                <td class="category" safe>
                  {categoryName(item.category)}
                </td>
                <td class="kind" safe>
                  {KIND_NAMES[item.urlKind] ?? item.urlKind}
                </td>
                <td class="date">
                  <time datetime={item.scannedAt}>{day(new Date(item.scannedAt))}</time>
                </td>
                <td class="score">
                  <strong>{String(item.score)}</strong> <span safe>{item.grade}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav aria-label="Pages" class="pager">
        {page.page > 1 ? <a href={pageLink(page.page - 1)}>Previous page</a> : ''}
        {page.nextPage ? <a href={pageLink(page.nextPage)}>Next page</a> : ''}
      </nav>
    </Layout>
  )
}
