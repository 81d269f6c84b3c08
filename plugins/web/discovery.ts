import { CONTRACT_VERSION, SERVICE_NAME } from '../../core/version.ts'
import type { CheckCatalog } from '../../core/engine/catalog.ts'
import { LAYERS } from '../../core/engine/check.ts'
import { STATIC_PAGES } from './site-files.ts'

/**
 * What our own site publishes so that agents find the API and readable text without guessing: the RFC 8288 Link
 * header of the homepage, the RFC 9727 API catalog, the homepage in Markdown and llms-full.txt. Everything here
 * describes routes that exist (the OpenAPI document, Swagger UI, the MCP endpoint, /healthz), nothing more.
 */

export const OPENAPI_PATH = '/openapi.json'
export const API_CATALOG_PATH = '/.well-known/api-catalog'
export const MCP_PATH = '/api/mcp'
export const HOME_MARKDOWN_PATH = '/index.md'
export const OG_IMAGE = {
  path: '/assets/og.png',
  type: 'image/png',
  width: 1200,
  height: 630,
  alt: `${SERVICE_NAME}: agent-readiness score and grade`,
} as const

/** RFC 9727 §3: the catalog's media type carries the RFC's profile. */
export const API_CATALOG_TYPE = 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"'

/** Public documents anyone may read from a browser-based agent on another origin: no credentials, no secrets. */
export const PUBLIC_CORS = { 'access-control-allow-origin': '*' } as const

/** The Link header of the homepage (RFC 8288): the API catalog, the API description and docs, the Markdown twin, the sitemap. */
export function homeLinkHeader(baseUrl: string): string {
  return [
    `<${baseUrl}${API_CATALOG_PATH}>; rel="api-catalog"; type="application/linkset+json"`,
    `<${baseUrl}${OPENAPI_PATH}>; rel="service-desc"; type="application/openapi+json"`,
    `<${baseUrl}/api>; rel="service-doc"; type="text/html"`,
    `<${baseUrl}/llms.txt>; rel="describedby"; type="text/markdown"`,
    `<${baseUrl}${HOME_MARKDOWN_PATH}>; rel="alternate"; type="text/markdown"`,
    `<${baseUrl}/sitemap.xml>; rel="sitemap"; type="application/xml"`,
  ].join(', ')
}

/**
 * The API catalog (RFC 9727, an RFC 9264 linkset): the REST API, described by the OpenAPI document and documented
 * by Swagger UI and the /api page, with its health endpoint; and the MCP server, described by its server card.
 */
export function apiCatalog(baseUrl: string) {
  return {
    linkset: [
      {
        anchor: `${baseUrl}/api`,
        'service-desc': [{ href: `${baseUrl}${OPENAPI_PATH}`, type: 'application/openapi+json' }],
        'service-doc': [
          { href: `${baseUrl}/swagger`, type: 'text/html', title: 'Swagger UI' },
          { href: `${baseUrl}/api`, type: 'text/html', title: 'API overview' },
        ],
        status: [{ href: `${baseUrl}/healthz`, type: 'application/json' }],
      },
      {
        anchor: `${baseUrl}${MCP_PATH}`,
        'service-desc': [
          {
            href: `${baseUrl}${MCP_PATH}/server-card`,
            type: 'application/mcp-server-card+json',
            title: 'MCP server card',
          },
        ],
        'service-doc': [{ href: `${baseUrl}/api`, type: 'text/html', title: 'API overview' }],
      },
    ],
  }
}

/** The homepage as Markdown (`/index.md`, or `/` asked for with `Accept: text/markdown`): same content, no markup. */
export function homeMarkdown(baseUrl: string): string {
  return [
    '# How ready is your site for AI agents?',
    '',
    `> ${SERVICE_NAME} scans a website, an MCP server or an MCP App server and says how ready it is for AI agents: a 0-100 score, a letter grade and the fixes that matter most.`,
    '',
    '## Scan',
    '',
    `- In a browser: the form at ${baseUrl}/ (a domain, an MCP server URL or an MCP App URL).`,
    `- Over HTTP: \`POST ${baseUrl}/api/scan\` with the JSON body \`{"url": "example.com"}\`; read a stored score with \`GET ${baseUrl}/api/score/example.com\`.`,
    `- Over MCP: the \`scan_domain\` tool of the server at ${baseUrl}${MCP_PATH} (streamable HTTP).`,
    `- Each report is at ${baseUrl}/site/<domain>, and in Markdown at ${baseUrl}/site/<domain>.md.`,
    '',
    '## What is measured',
    '',
    ...LAYERS.map((layer) => `- ${layer.name}: ${layer.weight} of 100 points`),
    '',
    `Every check is in the [check catalog](${baseUrl}/checks); the best-scoring sites are on the [leaderboard](${baseUrl}/leaderboard).`,
    '',
    '## More',
    '',
    ...STATIC_PAGES.filter((page) => page.path !== '/').map(
      (page) => `- [${page.title}](${baseUrl}${page.path}): ${page.summary}`,
    ),
    `- [OpenAPI document](${baseUrl}${OPENAPI_PATH}) and [API catalog](${baseUrl}${API_CATALOG_PATH})`,
    `- [llms.txt](${baseUrl}/llms.txt) and the full text in [llms-full.txt](${baseUrl}/llms-full.txt)`,
    '',
  ].join('\n')
}

/** One line of catalog text: no line breaks, no stray Markdown structure. */
const line = (value: string | undefined) => (value ?? '').replace(/\s+/g, ' ').trim()

/**
 * llms-full.txt: the documentation in one Markdown file (llmstxt.org): how to use the service, then every check
 * with what it measures, its weight, the recommendation and the specification, so an agent can explain a report
 * without fetching the catalog page by page.
 */
export function llmsFullTxt(baseUrl: string, catalog: CheckCatalog): string {
  const lines = [
    `# ${SERVICE_NAME}`,
    '',
    '> Measures how ready a website, an MCP server or an MCP App server is for AI agents: a 0-100 score, a letter grade, per-layer results and ranked fixes.',
    '',
    '## Using the service',
    '',
    `- \`POST ${baseUrl}/api/scan\` with \`{"url": "<domain or MCP URL>"}\` scans a target and answers the report (JSON). Scans are rate-limited per IP; operators issue keys (\`Authorization: Bearer <key>\`) for more.`,
    `- \`GET ${baseUrl}/api/score/<domain>\` reads the stored score of a domain; \`GET ${baseUrl}/api/checks\` is this catalog in JSON.`,
    `- The MCP server at ${baseUrl}${MCP_PATH} (streamable HTTP) offers tools to scan, read scores, re-run checks, run agent journeys and discover products (each listed at ${baseUrl}/api#mcp); its server card is at ${baseUrl}${MCP_PATH}/server-card.`,
    `- Every endpoint, with schemas, is in the OpenAPI document at ${baseUrl}${OPENAPI_PATH} (Swagger UI at ${baseUrl}/swagger); ${baseUrl}${API_CATALOG_PATH} lists the APIs (RFC 9727).`,
    `- Reports for people are at ${baseUrl}/site/<domain>; the same report in Markdown at ${baseUrl}/site/<domain>.md or with \`Accept: text/markdown\`.`,
    `- Contract version ${CONTRACT_VERSION}.`,
    '',
    '## Scoring',
    '',
    "Each check scores points within its layer; a layer's points are scaled to its weight, and the weights add up to 100. Bonus checks only add points; checks that do not apply to a target are left out of its score.",
    '',
    ...catalog.layers.map((layer) => `- ${layer.name} (\`${layer.id}\`): ${layer.weight} points`),
  ]
  for (const layer of catalog.layers) {
    const checks = catalog.checks.filter((check) => check.layer === layer.id)
    if (checks.length === 0) continue
    lines.push('', `## ${layer.name} checks`)
    for (const check of checks) {
      const facts = [
        `${check.maxScore} point${check.maxScore === 1 ? '' : 's'}${check.bonus ? ' (bonus)' : ''}`,
        `tier ${check.tier}`,
        `applies to ${check.appliesTo.join(', ')}`,
      ]
      if (check.draft) facts.push('draft specification')
      lines.push(
        '',
        `### ${line(check.name)} (\`${check.id}\`)`,
        '',
        line(check.description),
        '',
        `- ${facts.join('; ')}`,
      )
      if (check.recommendation) lines.push(`- Recommendation: ${line(check.recommendation)}`)
      if (check.specUrl) lines.push(`- Specification: ${check.specUrl}`)
    }
  }
  return `${lines.join('\n')}\n`
}
