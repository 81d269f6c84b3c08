import { CONTRACT_VERSION, SERVICE_NAME } from '../../core/version.ts'

/** A published report as the sitemap and llms.txt list it. */
export interface PublishedReport {
  label: string
  path: string
  scannedAt: Date
}

/** Pages listed in the sitemap and llms.txt besides the reports. */
export const STATIC_PAGES = [
  { path: '/', title: 'Scan a site', summary: 'Scan a domain, an MCP server or an MCP App server.' },
  {
    path: '/leaderboard',
    title: 'Leaderboard',
    summary: 'Sites ranked by agent-readiness score, by category and kind.',
  },
  {
    path: '/checks',
    title: 'Check catalog',
    summary: 'Every check with its layer, weight, recommendation and specification.',
  },
  {
    path: '/journeys',
    title: 'Agent journeys',
    summary: 'An AI agent attempts a curated task on a site, step by step.',
  },
  { path: '/api', title: 'API', summary: 'OpenAPI document, Swagger UI and the MCP endpoint.' },
] as const

/** Agents that fetch for a person, and AI search crawlers: welcome wherever people and search engines are. */
const AGENT_TOKENS = [
  'ChatGPT-User',
  'Claude-User',
  'Perplexity-User',
  'MistralAI-User',
  'OAI-SearchBot',
  'Claude-SearchBot',
  'PerplexityBot',
]
/** Crawlers that only collect training data (and the opt-out tokens for training): see the policy comment in robotsTxt. */
const TRAINING_TOKENS = [
  'GPTBot',
  'ClaudeBot',
  'Google-Extended',
  'Applebot-Extended',
  'CCBot',
  'meta-externalagent',
  'Bytespider',
]

/** Form targets start scans; a crawler following them would spend scan budgets for nothing. */
const CRAWL_RULES = ['Allow: /', 'Disallow: /scan', 'Disallow: /site/*/recheck']

/**
 * Our AI policy, stated in robots.txt (RFC 9309 groups plus a Content-Signal line, contentsignals.org):
 * - search=yes, ai-input=yes: reports exist to be found and read, by people and by agents answering for them.
 * - ai-train=no: most pages are point-in-time assessments of other people's sites; a model trained on them would
 *   repeat stale scores about third parties long after the sites changed. Agents should fetch the current report.
 * Named groups repeat the crawl rules, since a group naming an agent replaces the `*` group for it.
 */
export function robotsTxt(baseUrl: string): string {
  const signal = 'Content-Signal: search=yes, ai-input=yes, ai-train=no'
  return [
    '# Agents are welcome: reports are public, and each has a Markdown alternate (/site/<domain>.md).',
    '# Use for search and as input to answers: yes. Training: no; reports are point-in-time assessments of third-party',
    '# sites, so fetch the current one instead. See /llms.txt and /llms-full.txt.',
    'User-agent: *',
    signal,
    ...CRAWL_RULES,
    '',
    '# AI agents acting for a person, and AI search.',
    ...AGENT_TOKENS.map((token) => `User-agent: ${token}`),
    signal,
    ...CRAWL_RULES,
    '',
    '# Crawlers that collect training data only (ai-train=no above).',
    ...TRAINING_TOKENS.map((token) => `User-agent: ${token}`),
    'Disallow: /',
    '',
    `Sitemap: ${baseUrl}/sitemap.xml`,
    '',
  ].join('\n')
}

/**
 * Spawning's ai.txt (robots syntax, about AI training only): the same policy as robots.txt's Content-Signal line,
 * ai-train=no, for the tools that read this file instead.
 */
export function aiTxt(): string {
  return [
    '# AI training permissions (Spawning ai.txt). Not for training: reports are point-in-time assessments of',
    '# third-party sites. Reading pages to answer questions is welcome; see robots.txt (Content-Signal).',
    'User-Agent: *',
    'Disallow: /',
    '',
  ].join('\n')
}

export function llmsTxt(baseUrl: string, reports: readonly PublishedReport[]): string {
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
    `- [MCP server](${baseUrl}/api#mcp): streamable HTTP at ${baseUrl}/api/mcp; how to connect, and every tool`,
    `- [Check catalog](${baseUrl}/api/checks): JSON, every check's layer, weight and specification`,
    `- [API catalog](${baseUrl}/.well-known/api-catalog): RFC 9727 linkset of the REST API and the MCP server`,
    `- [Full text](${baseUrl}/llms-full.txt): this file's documentation and every check in one Markdown file`,
    `- [Agent skill](${baseUrl}/.well-known/agent-skills/agent-readiness-scan/SKILL.md): how to scan a site with this API and act on the report`,
    '',
    '## Pages',
    '',
    ...STATIC_PAGES.map((page) => `- [${page.title}](${baseUrl}${page.path}): ${page.summary}`),
    ...(reports.length === 0
      ? []
      : [
          '',
          '## Optional',
          '',
          ...reports.map(
            (report) => `- [${report.label}](${baseUrl}${report.path}.md): agent-readiness report in Markdown`,
          ),
        ]),
    '',
  ].join('\n')
}

const xml = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')

export function sitemapXml(baseUrl: string, reports: readonly PublishedReport[]): string {
  const urls = [
    ...STATIC_PAGES.map((page) => `  <url><loc>${xml(`${baseUrl}${page.path}`)}</loc></url>`),
    ...reports.map(
      (entry) =>
        `  <url><loc>${xml(`${baseUrl}${entry.path}`)}</loc><lastmod>${entry.scannedAt.toISOString()}</lastmod></url>`,
    ),
  ]
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`
}
