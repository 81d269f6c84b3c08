import { CONTRACT_VERSION, SERVICE_NAME } from '../../core/contract.ts'
import { reportPath } from './pages/report.tsx'

/** Pages listed in the sitemap and llms.txt besides the reports. */
export const STATIC_PAGES = [
  { path: '/', title: 'Scan a site', summary: 'Scan a domain, an MCP server or an MCP App server.' },
  { path: '/leaderboard', title: 'Leaderboard', summary: 'Sites ranked by agent-readiness score, by category and kind.' },
  { path: '/checks', title: 'Check catalog', summary: 'Every check with its layer, weight, recommendation and specification.' },
  { path: '/journeys', title: 'Agent journeys', summary: 'An AI agent attempts a curated task on a site, step by step.' },
  { path: '/api', title: 'API', summary: 'OpenAPI document, Swagger UI and the MCP endpoint.' },
] as const

export function robotsTxt(baseUrl: string): string {
  return [
    '# Agents are welcome: reports are public, and each has a Markdown alternate (/site/<domain>.md).',
    'User-agent: *',
    'Allow: /',
    // Form targets start scans; a crawler following them would spend scan budgets for nothing.
    'Disallow: /scan',
    'Disallow: /site/*/recheck',
    '',
    `Sitemap: ${baseUrl}/sitemap.xml`,
    '',
  ].join('\n')
}

export function llmsTxt(baseUrl: string, domains: readonly string[]): string {
  return [
    `# ${SERVICE_NAME}`,
    '',
    '> Measures how ready a website, an MCP server or an MCP App server is for AI agents: a 0-100 score, a letter grade, per-layer results (discovery, access, usability, payments) and ranked fixes.',
    '',
    `Scan with \`POST ${baseUrl}/api/scan\` (JSON body \`{"url": "<domain>"}\`) or the \`scan_domain\` tool of the MCP server at ${baseUrl}/api/mcp. Read a stored score with \`GET ${baseUrl}/api/score/<domain>\`. Contract version ${CONTRACT_VERSION}.`,
    '',
    '## Docs',
    '',
    `- [OpenAPI document](${baseUrl}/openapi.json): every endpoint, with schemas`,
    `- [API reference](${baseUrl}/swagger): Swagger UI`,
    `- [MCP endpoint](${baseUrl}/api/mcp): streamable HTTP, tools scan_domain and get_verification_challenge`,
    `- [Check catalog](${baseUrl}/api/checks): JSON, every check's layer, weight and specification`,
    '',
    '## Pages',
    '',
    ...STATIC_PAGES.map((page) => `- [${page.title}](${baseUrl}${page.path}): ${page.summary}`),
    ...(domains.length === 0
      ? []
      : ['', '## Optional', '', ...domains.map((domain) => `- [${domain}](${baseUrl}${reportPath(domain)}.md): agent-readiness report in Markdown`)]),
    '',
  ].join('\n')
}

const xml = (value: string) => value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')

export function sitemapXml(baseUrl: string, reports: readonly { domain: string; scannedAt: Date }[]): string {
  const urls = [
    ...STATIC_PAGES.map((page) => `  <url><loc>${xml(`${baseUrl}${page.path}`)}</loc></url>`),
    ...reports.map(
      (entry) => `  <url><loc>${xml(`${baseUrl}${reportPath(entry.domain)}`)}</loc><lastmod>${entry.scannedAt.toISOString()}</lastmod></url>`,
    ),
  ]
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}
