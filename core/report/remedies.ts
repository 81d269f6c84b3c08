import { AI_AGENTS } from '../engine/lib/ai-agents.ts'
import { SERVER_CARD_SCHEMA } from '../engine/lib/server-card.ts'
import { SKILLS_V02_SCHEMA } from '../engine/lib/skills-index.ts'

/**
 * Copy-ready fixes keyed by check id: the exact text to publish (a snippet) and, where the fix is a server
 * setting, how to apply it on common servers (recipes). They are advice for people reading a report, not catalog
 * metadata, so they live here and never reach /api/checks. A check without an entry has only its prose
 * recommendation; every key must be a real check id (core/report/remedies.test.ts).
 */

/** What a snippet is written in, for the code block's label and the Markdown fence. */
export type SnippetLanguage =
  | 'text'
  | 'http'
  | 'json'
  | 'html'
  | 'xml'
  | 'markdown'
  | 'nginx'
  | 'apache'
  | 'caddy'
  | 'javascript'

export interface Snippet {
  /** What the block is, e.g. "Add to /robots.txt". */
  label: string
  language: SnippetLanguage
  code: string
}

export interface Recipe {
  /** Display name: nginx, Apache, Caddy, Cloudflare, Express, Next.js. */
  server: string
  language: SnippetLanguage
  code: string
}

export interface Remedy {
  snippet: Snippet
  /** Empty when the fix is a document to publish wherever the site's files live. */
  recipes: Recipe[]
}

/** The site a remedy is written for: snippets name its own URLs. */
export interface RemedySite {
  domain: string
  /** e.g. https://example.com, no trailing slash. */
  origin: string
}

type RemedyFactory = (site: RemedySite) => Remedy

/** The agents that fetch for a person or for an AI search index: the ones a site should let in. */
const WELCOME_AGENTS = AI_AGENTS.filter(
  (agent) => agent.purpose !== 'training' && !agent.tokenOnly && !agent.deprecated,
).map((agent) => agent.token)

const agentGroup = () => [...WELCOME_AGENTS.map((token) => `User-agent: ${token}`), 'Allow: /'].join('\n')

const CONTENT_SIGNAL = 'Content-Signal: search=yes, ai-input=yes, ai-train=no'

/** One response header on one path (the homepage by default), for each server. */
function headerRecipes(name: string, value: string, path = '/'): Recipe[] {
  const quoted = value.replaceAll('"', '\\"')
  const single = value.replaceAll("'", "\\'")
  return [
    {
      server: 'nginx',
      language: 'nginx',
      code: `location = ${path} {\n    add_header ${name} "${quoted}" always;\n    # keep your existing try_files / proxy_pass here\n}`,
    },
    {
      server: 'Apache',
      language: 'apache',
      code: `<Location "${path}">\n    Header always set ${name} "${quoted}"\n</Location>`,
    },
    { server: 'Caddy', language: 'caddy', code: `@page path ${path}\nheader @page ${name} "${quoted}"` },
    {
      server: 'Cloudflare',
      language: 'text',
      code: `Rules > Transform Rules > Modify Response Header > Create rule\n  When: URI Path equals "${path}"\n  Then: Set static header "${name}" = ${value}`,
    },
    {
      server: 'Express',
      language: 'javascript',
      code: `app.use((req, res, next) => {\n  if (req.path === '${path}') res.set('${name}', '${single}')\n  next()\n})`,
    },
    {
      server: 'Next.js',
      language: 'javascript',
      code: `// next.config.js\nmodule.exports = {\n  async headers() {\n    return [{ source: '${path}', headers: [{ key: '${name}', value: '${single}' }] }]\n  },\n}`,
    },
  ]
}

/** A media type with parameters (`; charset=…`, `; profile="…"`) quoted for configs that split on spaces. */
const singleQuoted = (value: string) => `'${value}'`
const caddyQuoted = (value: string) => (value.includes('"') ? `\`${value}\`` : `"${value}"`)

/**
 * A static file served with its media type and, for metadata agents read from browsers, CORS; `headers` are further
 * response headers the standard asks of the file (RFC 9727's `Link: rel="api-catalog"` on the catalog itself).
 */
function fileRecipes(path: string, type: string, source: string, headers: Record<string, string> = {}): Recipe[] {
  const all: [string, string][] = [['Access-Control-Allow-Origin', '*'], ...Object.entries(headers)]
  const quoted = (value: string) => value.replaceAll('"', '\\"')
  const single = (value: string) => value.replaceAll("'", "\\'")
  return [
    {
      server: 'nginx',
      language: 'nginx',
      code: `location = ${path} {\n    alias /var/www/site${path};\n    default_type ${singleQuoted(type)};\n${all.map(([name, value]) => `    add_header ${name} "${quoted(value)}" always;\n`).join('')}}`,
    },
    {
      server: 'Apache',
      language: 'apache',
      code: `# file at DocumentRoot${path}\n<Location "${path}">\n    Header always set Content-Type ${singleQuoted(type)}\n${all.map(([name, value]) => `    Header always set ${name} "${quoted(value)}"\n`).join('')}</Location>`,
    },
    {
      server: 'Caddy',
      language: 'caddy',
      code: `@doc path ${path}\nheader @doc Content-Type ${caddyQuoted(type)}${all.map(([name, value]) => `\nheader @doc ${name} ${caddyQuoted(value)}`).join('')}`,
    },
    {
      server: 'Cloudflare',
      language: 'text',
      code: `Publish the file at ${path} on your origin (or Pages: public${path}), then\nRules > Transform Rules > Modify Response Header\n  When: URI Path equals "${path}"\n  Then: Set static "Content-Type" = ${type}${all.map(([name, value]) => ` and "${name}" = ${value}`).join('')}`,
    },
    {
      server: 'Express',
      language: 'javascript',
      code: `app.get('${path}', (req, res) => {\n${all.map(([name, value]) => `  res.set('${name}', '${single(value)}')\n`).join('')}  res.type('${type}').sendFile(path.join(__dirname, '${source}'))\n})`,
    },
    {
      server: 'Next.js',
      language: 'javascript',
      code: `// put the file at public${path}, then in next.config.js:\nmodule.exports = {\n  async headers() {\n    return [{ source: '${path}', headers: [\n      { key: 'Content-Type', value: '${type}' },\n${all.map(([name, value]) => `      { key: '${name}', value: '${single(value)}' },\n`).join('')}    ] }]\n  },\n}`,
    },
  ]
}

/** robots.txt is a file everywhere but also a switch at Cloudflare and a route in Next.js. */
function robotsRecipes(body: string, origin: string): Recipe[] {
  return [
    {
      server: 'nginx',
      language: 'nginx',
      code: `location = /robots.txt {\n    default_type text/plain;\n    alias /var/www/site/robots.txt;\n}`,
    },
    {
      server: 'Apache',
      language: 'apache',
      code: `# the file at DocumentRoot/robots.txt is served as text/plain by default;\n# make sure no rewrite rule sends /robots.txt to your app\nRewriteRule ^robots\\.txt$ - [L]`,
    },
    { server: 'Caddy', language: 'caddy', code: `handle /robots.txt {\n    root * /var/www/site\n    file_server\n}` },
    {
      server: 'Cloudflare',
      language: 'text',
      code: `AI Crawl Control (or Security > Bots): allow the AI assistants and search crawlers you want,\nand turn "Managed robots.txt" off if it adds Disallow lines for them.\nCheck the served file: curl -s ${origin}/robots.txt`,
    },
    {
      server: 'Express',
      language: 'javascript',
      code: `app.get('/robots.txt', (req, res) => {\n  res.type('text/plain').send(${JSON.stringify(body)})\n})`,
    },
    {
      server: 'Next.js',
      language: 'javascript',
      code: `// commit the lines above as public/robots.txt (served as is), and delete app/robots.ts\n// if you have one: it would answer /robots.txt instead of the file`,
    },
  ]
}

const json = (value: unknown) => JSON.stringify(value, null, 2)

/**
 * A SEP-2127 server card naming the site's MCP endpoint, listed inline in the host's AI catalog. The card's reserved
 * place is `<mcp-url>/server-card`, served by the MCP server itself; a website learns of it from its catalog, and a
 * card under /.well-known/mcp/ is one the server-card extension advises against. One file fixes both discovery checks.
 */
const serverCard = (label: string, { domain, origin }: RemedySite): Remedy => {
  const name = `${domain.split('.').reverse().join('.')}/mcp`
  const card = {
    $schema: SERVER_CARD_SCHEMA,
    name,
    version: '1.0.0',
    description: `The ${domain} MCP server`,
    remotes: [{ type: 'streamable-http', url: `${origin}/mcp` }],
  }
  return {
    snippet: {
      label,
      language: 'json',
      code: json({
        specVersion: '1.0',
        entries: [{ identifier: `urn:air:${domain}:mcp`, type: 'application/mcp-server-card+json', data: card }],
      }),
    },
    recipes: fileRecipes('/.well-known/ai-catalog.json', 'application/ai-catalog+json', 'ai-catalog.json'),
  }
}

export const REMEDIES: Readonly<Record<string, RemedyFactory>> = {
  'robots-txt': ({ origin }) => {
    const body = `User-agent: *\nAllow: /\n${CONTENT_SIGNAL}\n\nSitemap: ${origin}/sitemap.xml`
    return {
      snippet: { label: 'Publish as /robots.txt', language: 'text', code: body },
      recipes: robotsRecipes(body, origin),
    }
  },
  'robots-ai-agents-allowed': ({ origin }) => {
    const body = `${agentGroup()}\n\nSitemap: ${origin}/sitemap.xml`
    return {
      snippet: { label: 'Add to /robots.txt, before other groups', language: 'text', code: agentGroup() },
      recipes: robotsRecipes(body, origin),
    }
  },
  'robots-ai-rules-explicit': () => ({
    snippet: {
      label: 'Add to /robots.txt',
      language: 'text',
      code: `User-agent: *\n${CONTENT_SIGNAL}\n\n${agentGroup()}`,
    },
    recipes: [],
  }),
  'content-signals': () => ({
    snippet: {
      label: 'Add to the "User-agent: *" group of /robots.txt',
      language: 'text',
      code: `User-agent: *\n${CONTENT_SIGNAL}\nAllow: /`,
    },
    recipes: [],
  }),
  'bot-challenge-free': () => ({
    snippet: {
      label: 'Let AI assistants through your bot protection (Cloudflare WAF custom rule, action Skip)',
      language: 'text',
      code: `(cf.verified_bot_category eq "AI Assistant") or (cf.verified_bot_category eq "AI Search")\n  -> Skip: Super Bot Fight Mode, managed challenges, rate limiting rules`,
    },
    recipes: [
      {
        server: 'nginx',
        language: 'nginx',
        code: `# remove user-agent blocks such as\n#   if ($http_user_agent ~* "(GPTBot|ChatGPT-User|ClaudeBot|PerplexityBot)") { return 403; }\n# and exempt assistants from limit_req / challenge modules:\nmap $http_user_agent $ai_assistant {\n    default 0;\n    "~*(${WELCOME_AGENTS.join('|')})" 1;\n}`,
      },
      {
        server: 'Apache',
        language: 'apache',
        code: `# remove rules such as\n#   RewriteCond %{HTTP_USER_AGENT} (GPTBot|ChatGPT-User|ClaudeBot) [NC]\n#   RewriteRule .* - [F]\n# and exclude these agents from mod_security / mod_evasive challenges`,
      },
      {
        server: 'Caddy',
        language: 'caddy',
        code: `# remove matchers that answer AI agents with 403, e.g.\n#   @ai header_regexp User-Agent (GPTBot|ChatGPT-User|ClaudeBot)\n#   respond @ai 403`,
      },
      {
        server: 'Cloudflare',
        language: 'text',
        code: 'Security > Bots: turn off "Block AI bots" for assistants, or in AI Crawl Control set\nChatGPT-User, Claude-User and Perplexity-User to Allow; Security > WAF: add the Skip rule above.',
      },
      {
        server: 'Express',
        language: 'javascript',
        code: `// bot-protection middleware: let declared assistants pass\nconst ASSISTANTS = /${WELCOME_AGENTS.join('|')}/i\napp.use((req, res, next) => ASSISTANTS.test(req.get('user-agent') ?? '') ? next() : botGuard(req, res, next))`,
      },
      {
        server: 'Next.js',
        language: 'javascript',
        code: `// middleware.ts: skip the challenge for declared assistants\nconst ASSISTANTS = /${WELCOME_AGENTS.join('|')}/i\nexport function middleware(request) {\n  if (ASSISTANTS.test(request.headers.get('user-agent') ?? '')) return NextResponse.next()\n  return challenge(request)\n}`,
      },
    ],
  }),
  'llms-txt': ({ domain, origin }) => ({
    snippet: {
      label:
        'Write your own sentence and links in place of the placeholders, then publish as /llms.txt (text/markdown)',
      language: 'markdown',
      code: `# ${domain}\n\n> One sentence on what ${domain} offers and who it is for.\n\n## Docs\n\n- [Getting started](${origin}/docs/): where to begin\n- [Pricing](${origin}/pricing): plans and limits\n\n## Optional\n\n- [About](${origin}/about): the company`,
    },
    recipes: fileRecipes('/llms.txt', 'text/markdown; charset=utf-8', 'llms.txt'),
  }),
  'llms-full-txt': ({ domain }) => ({
    snippet: {
      label: 'Replace the placeholders with your docs, then publish as /llms-full.txt (one Markdown file)',
      language: 'markdown',
      code: `# ${domain}\n\n> One sentence on what ${domain} offers.\n\n## Getting started\n\n(the full text of each documentation page, in order)`,
    },
    recipes: fileRecipes('/llms-full.txt', 'text/markdown; charset=utf-8', 'llms-full.txt'),
  }),
  'sitemap-xml': ({ origin }) => ({
    snippet: {
      label: 'Publish as /sitemap.xml and name it in robots.txt ("Sitemap: …/sitemap.xml")',
      language: 'xml',
      code: `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <url><loc>${origin}/</loc></url>\n  <url><loc>${origin}/docs/</loc></url>\n</urlset>`,
    },
    recipes: fileRecipes('/sitemap.xml', 'application/xml', 'sitemap.xml'),
  }),
  'link-headers': () => {
    const value = '</llms.txt>; rel="describedby"; type="text/markdown", </.well-known/api-catalog>; rel="api-catalog"'
    return {
      snippet: {
        label: 'Send on the homepage response (drop api-catalog if you have no API)',
        language: 'http',
        code: `Link: ${value}`,
      },
      recipes: headerRecipes('Link', value),
    }
  },
  'openapi-description': () => {
    const value = '</openapi.json>; rel="service-desc"; type="application/json"'
    return {
      snippet: {
        label: 'Publish /openapi.json and send on the homepage response',
        language: 'http',
        code: `Link: ${value}`,
      },
      recipes: headerRecipes('Link', value),
    }
  },
  'api-catalog': ({ origin }) => ({
    snippet: {
      label: 'Publish as /.well-known/api-catalog (application/linkset+json)',
      language: 'json',
      code: json({
        linkset: [
          {
            anchor: `${origin}/api`,
            'service-desc': [{ href: `${origin}/openapi.json`, type: 'application/json' }],
            'service-doc': [{ href: `${origin}/docs/api`, type: 'text/html' }],
          },
        ],
      }),
    },
    recipes: fileRecipes(
      '/.well-known/api-catalog',
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
      'api-catalog.json',
      {
        Link: '</.well-known/api-catalog>; rel="api-catalog"',
      },
    ),
  }),
  'cors-public-metadata': () => ({
    snippet: {
      label: 'Send on /llms.txt, /openapi.json and /.well-known/* responses',
      language: 'http',
      code: 'Access-Control-Allow-Origin: *',
    },
    recipes: headerRecipes('Access-Control-Allow-Origin', '*', '/llms.txt'),
  }),
  'markdown-negotiation': () => ({
    snippet: {
      label: 'Answer a request that prefers Markdown (Accept: text/markdown) with these headers and a Markdown body',
      language: 'http',
      code: 'Content-Type: text/markdown; charset=utf-8\nVary: Accept',
    },
    recipes: [
      {
        server: 'nginx',
        language: 'nginx',
        code: `map $http_accept $page_suffix {\n    default "";\n    "~*^text/markdown" ".md";\n}\nlocation / {\n    add_header Vary Accept always;\n    try_files $uri$page_suffix $uri $uri/index.html$page_suffix $uri/ =404;\n}\ntypes { text/markdown md; }`,
      },
      {
        server: 'Apache',
        language: 'apache',
        code: `AddType "text/markdown; charset=utf-8" .md\nHeader append Vary Accept\nRewriteEngine On\nRewriteCond %{HTTP_ACCEPT} ^text/markdown\nRewriteCond %{REQUEST_FILENAME}.md -f\nRewriteRule ^(.*)$ $1.md [L]`,
      },
      {
        server: 'Caddy',
        language: 'caddy',
        code: `@md header_regexp Accept ^text/markdown\nheader Vary Accept\nrewrite @md {path}.md\nheader *.md Content-Type "text/markdown; charset=utf-8"`,
      },
      {
        server: 'Cloudflare',
        language: 'text',
        code: 'AI Crawl Control > "Markdown for Agents": on (converts HTML to Markdown\nfor requests with Accept: text/markdown), or a Worker that serves your .md files.',
      },
      {
        server: 'Express',
        language: 'javascript',
        code: `app.get('*', (req, res, next) => {\n  res.vary('Accept')\n  if (req.accepts(['text/html', 'text/markdown']) !== 'text/markdown') return next()\n  res.type('text/markdown; charset=utf-8').send(markdownFor(req.path))\n})`,
      },
      {
        server: 'Next.js',
        language: 'javascript',
        code: `// middleware.ts\nexport function middleware(request) {\n  if (request.headers.get('accept')?.startsWith('text/markdown')) {\n    return NextResponse.rewrite(new URL(\`/md\${request.nextUrl.pathname}\`, request.url))\n  }\n}`,
      },
    ],
  }),
  'markdown-alternates': () => ({
    snippet: {
      label: 'Publish /index.html.md and name it in the <head> of the homepage',
      language: 'html',
      code: '<link rel="alternate" type="text/markdown" href="/index.html.md">',
    },
    recipes: [],
  }),
  'mcp-endpoint-advertised': (site) =>
    serverCard(
      'If you run an MCP server: publish as /.well-known/ai-catalog.json, its server card inline (or serve the card at <mcp-url>/server-card)',
      site,
    ),
  'mcp-server-card': (site) =>
    serverCard(
      'Publish as /.well-known/ai-catalog.json (application/ai-catalog+json), the card inline (or serve it at <mcp-url>/server-card)',
      site,
    ),
  'structured-data-jsonld': ({ domain, origin }) => ({
    snippet: {
      label: 'Add to the <head> of the homepage',
      language: 'html',
      code: `<script type="application/ld+json">\n${json({ '@context': 'https://schema.org', '@type': 'Organization', name: domain, url: `${origin}/`, logo: `${origin}/logo.png` })}\n</script>`,
    },
    recipes: [],
  }),
  'opengraph-metadata': ({ domain, origin }) => ({
    snippet: {
      label: 'Add to the <head> of each page',
      language: 'html',
      code: `<meta property="og:title" content="${domain}">\n<meta property="og:description" content="One sentence on what the page offers.">\n<meta property="og:url" content="${origin}/">\n<meta property="og:type" content="website">\n<meta property="og:image" content="${origin}/og.png">`,
    },
    recipes: [],
  }),
  'http-error-semantics': () => ({
    snippet: {
      label: 'An unknown path answers 404 (JSON errors for API paths)',
      language: 'http',
      code: 'HTTP/1.1 404 Not Found\nContent-Type: application/problem+json\n\n{"type": "about:blank", "title": "Not Found", "status": 404}',
    },
    recipes: [
      {
        server: 'nginx',
        language: 'nginx',
        code: 'location / {\n    try_files $uri $uri/ =404;   # not /index.html for every path\n}\nerror_page 404 /404.html;',
      },
      {
        server: 'Apache',
        language: 'apache',
        code: 'ErrorDocument 404 /404.html\n# a catch-all rewrite to index.html must skip unknown paths, or let the app answer 404',
      },
      { server: 'Caddy', language: 'caddy', code: 'handle_errors {\n    rewrite * /404.html\n    file_server\n}' },
      {
        server: 'Cloudflare',
        language: 'text',
        code: 'Pages: add a 404.html at the root of the output (without it Pages serves index.html with 200 for every path).',
      },
      {
        server: 'Express',
        language: 'javascript',
        code: `// after every route\napp.use((req, res) => {\n  res.status(404)\n  if (req.path.startsWith('/api/')) return res.type('application/problem+json').send({ title: 'Not Found', status: 404 })\n  res.send('Not found')\n})`,
      },
      {
        server: 'Next.js',
        language: 'javascript',
        code: '// app/not-found.tsx: rendered with status 404 for unknown paths\nexport default function NotFound() {\n  return <h1>Not found</h1>\n}',
      },
    ],
  }),
  'agent-skills-index': ({ origin }) => ({
    snippet: {
      label: 'Publish as /.well-known/agent-skills/index.json',
      language: 'json',
      code: json({
        $schema: SKILLS_V02_SCHEMA,
        skills: [
          {
            name: 'use-our-api',
            type: 'skill-md',
            description: 'How an agent uses this site',
            url: `${origin}/.well-known/agent-skills/use-our-api/SKILL.md`,
          },
        ],
      }),
    },
    recipes: [],
  }),
  'content-without-js': ({ origin }) => ({
    snippet: {
      label: 'See what an agent receives (no JavaScript runs): the headline and main text should be in it',
      language: 'text',
      code: `curl -s ${origin}/ | grep -o '<h1[^>]*>[^<]*'\ncurl -s ${origin}/ | sed 's/<[^>]*>//g' | tr -s ' \\n' | head -c 600`,
    },
    recipes: [
      {
        server: 'Next.js',
        language: 'javascript',
        code: "// app/page.tsx: a server component renders on the server by default;\n// keep 'use client' for the interactive parts only\nexport default async function Page() {\n  const product = await getProduct()\n  return <main><h1>{product.name}</h1><p>{product.summary}</p></main>\n}",
      },
      {
        server: 'Express',
        language: 'javascript',
        code: "// render the page on the server; the client script then hydrates it\napp.get('/', (req, res) => {\n  res.send(layout({ title, body: renderToString(React.createElement(App)) }))\n})",
      },
      {
        server: 'Vite / React SPA',
        language: 'text',
        code: 'Prerender the public routes at build time (vike, react-snap, or Astro for the\nmarketing pages) so that /index.html already holds the text.',
      },
    ],
  }),
  'semantic-html': () => ({
    snippet: {
      label: 'Page landmarks agents navigate by',
      language: 'html',
      code: '<header><nav aria-label="Main">…</nav></header>\n<main>\n  <h1>What this page is</h1>\n  …\n</main>\n<footer>…</footer>',
    },
    recipes: [],
  }),
  'accessible-forms': () => ({
    snippet: {
      label: 'Every field named and labelled',
      language: 'html',
      code: '<label for="email">Email</label>\n<input id="email" name="email" type="email" autocomplete="email">\n<button type="submit">Subscribe</button>',
    },
    recipes: [],
  }),
}

/** The remedy for a check on this site, or null when the check has only its prose recommendation. */
export function remedyFor(checkId: string, site: RemedySite): Remedy | null {
  const factory = REMEDIES[checkId]
  return factory ? factory(site) : null
}
