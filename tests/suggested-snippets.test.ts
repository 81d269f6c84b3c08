/**
 * Every snippet and template the service suggests, applied verbatim to a fixture site and scanned by the check it is
 * meant to fix (issue 27, "content over presence"). A complete snippet (robots.txt lines, response headers, a
 * document that says everything it needs to) must make its check pass; a template that still carries placeholders
 * ("One sentence on what … offers", "(the full text of each documentation page…)", "<site name>", "[title](url)")
 * must not, however well-formed it is. Each suggestion is either applied here or listed with the reason it cannot be
 * applied to a site's files (a setting at the edge, a command to run), so a new remedy cannot slip past the test.
 */
import { describe, expect, test } from 'bun:test'
import { REGISTERED_CHECKS } from '../checks/index.ts'
import { Collection, runCheck } from '../core/engine/runner.ts'
import type { CheckStatus } from '../core/engine/check.ts'
import { REMEDIES, type Remedy } from '../core/report/remedies.ts'
import { collectorConfig, localTarget, recordingSite, scanSession } from './support/collector.ts'

const site = recordingSite()
const { origin, routes } = site
const remedySite = { domain: '127.0.0.1', origin }

const HOME_BODY = `<header><nav aria-label="Main"><a href="/">Home</a> <a href="/about">About</a></nav></header>
<main><h1>Anvil Works</h1>
<p>Anvil Works forges steel anvils for smiths and schools, and ships them across Europe within a week.</p>
<p>Every anvil is drop-forged from one piece of tool steel, hardened, and tested before it leaves the forge.</p>
<p>Our catalogue lists twelve sizes, from a 2 kg jeweller's anvil to a 150 kg farrier's anvil.</p></main>
<footer><p>Anvil Works, Forge Lane 1, Sheffield</p></footer>`

/** An HTML page titled "Anvil Works" with this head and body. */
function page(head: string, body = HOME_BODY, headers: Record<string, string> = {}) {
  return () =>
    new Response(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Anvil Works</title>${head}</head><body>${body}</body></html>`,
      {
        headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
      },
    )
}
/** The fixture site's homepage: its own description and canonical link, plus `head`. */
const homepage = (head = '', body = HOME_BODY, headers: Record<string, string> = {}) =>
  page(
    `<meta name="description" content="Steel anvils for smiths and schools."><link rel="canonical" href="${origin}/">${head}`,
    body,
    headers,
  )
const file = (body: string, type: string) => () => new Response(body, { headers: { 'content-type': type } })
/**
 * A document served the way the remedy's own nginx recipe serves it: its media type, and the CORS header the recipe
 * adds. Files with no recipe are served as `type`.
 */
function published(remedy: Remedy, type?: string) {
  const nginx = remedy.recipes.find((recipe) => recipe.server === 'nginx')?.code ?? ''
  const headers: Record<string, string> = {
    'content-type': /default_type '([^']+)'/.exec(nginx)?.[1] ?? type ?? 'text/plain',
  }
  for (const [, name, value] of nginx.matchAll(/add_header ([\w-]+) "((?:[^"\\]|\\.)*)"/g))
    headers[name!.toLowerCase()] = value!.replaceAll('\\"', '"')
  return () => new Response(remedy.snippet.code, { headers })
}
/** `Name: value` lines as headers. */
const headerLines = (code: string) =>
  Object.fromEntries(code.split('\n').map((line) => line.split(/:\s(.*)/s).slice(0, 2)))
const MARKDOWN_HOME = '# Anvil Works\n\nAnvil Works forges steel anvils for smiths and schools.\n\n- [About](/about)\n'

/**
 * How one remedy is applied to the fixture site, verbatim, and what its check must then report: `pass`, or a status
 * other than pass whose details match `notPass` (so that it does not pass for the reason the test means).
 */
type Application = { apply(remedy: Remedy): void; why: string } & (
  | { expected: 'pass' }
  | { expected: 'not pass'; notPass: RegExp }
)

const ROBOTS_BASE = 'User-agent: *\nDisallow: /private/\n'
const LLMS_TXT = `# Anvil Works\n\n> Anvil Works forges steel anvils for smiths and schools.\n\n- [About](${origin}/about)\n`

const APPLIED: Record<string, Application> = {
  'robots-txt': {
    apply: ({ snippet }) => (routes['/robots.txt'] = file(snippet.code, 'text/plain')),
    expected: 'pass',
    why: 'a complete robots.txt',
  },
  'robots-ai-agents-allowed': {
    apply: ({ snippet }) => (routes['/robots.txt'] = file(`${snippet.code}\n\n${ROBOTS_BASE}`, 'text/plain')),
    expected: 'pass',
    why: "robots.txt lines, added before the site's own group",
  },
  'robots-ai-rules-explicit': {
    apply: ({ snippet }) => (routes['/robots.txt'] = file(`${snippet.code}\n`, 'text/plain')),
    expected: 'pass',
    why: 'robots.txt lines',
  },
  'content-signals': {
    apply: ({ snippet }) => (routes['/robots.txt'] = file(`${snippet.code}\n`, 'text/plain')),
    expected: 'pass',
    why: 'robots.txt lines',
  },
  'llms-txt': {
    apply: (remedy) => (routes['/llms.txt'] = published(remedy)),
    expected: 'not pass',
    notPass: /template placeholder \("> One sentence on what 127\.0\.0\.1 offers/,
    why: 'a template: "One sentence on what … offers", and links to pages the site may not have',
  },
  'llms-full-txt': {
    apply: (remedy) => (routes['/llms-full.txt'] = published(remedy)),
    expected: 'not pass',
    notPass: /template placeholder/,
    why: 'a template: "(the full text of each documentation page, in order)"',
  },
  'sitemap-xml': {
    // The label says to name it in robots.txt as well.
    apply: (remedy) => {
      routes['/sitemap.xml'] = published(remedy)
      routes['/robots.txt'] = file(`${ROBOTS_BASE}\nSitemap: ${origin}/sitemap.xml\n`, 'text/plain')
    },
    expected: 'pass',
    why: 'a complete sitemap, named in robots.txt as its label says',
  },
  'link-headers': {
    // On a site that has the two documents the header names.
    apply: ({ snippet }) => {
      routes['/'] = homepage('', HOME_BODY, headerLines(snippet.code))
      routes['/llms.txt'] = file(LLMS_TXT, 'text/markdown')
      routes['/.well-known/api-catalog'] = published(REMEDIES['api-catalog']!(remedySite))
    },
    expected: 'pass',
    why: 'a response header naming documents the site has',
  },
  'openapi-description': {
    // On a site with an API (its catalog published), so the check looks for the description the header names.
    apply: ({ snippet }) => {
      routes['/'] = homepage('', HOME_BODY, headerLines(snippet.code))
      routes['/.well-known/api-catalog'] = published(REMEDIES['api-catalog']!(remedySite))
    },
    expected: 'not pass',
    notPass: /openapi\.json/,
    why: 'a header pointing at /openapi.json, which the site must still write',
  },
  'api-catalog': {
    apply: (remedy) => (routes['/.well-known/api-catalog'] = published(remedy)),
    expected: 'pass',
    why: 'a linkset served with its media type and the Link rel="api-catalog" its recipes add',
  },
  'cors-public-metadata': {
    apply: ({ snippet }) =>
      (routes['/llms.txt'] = () =>
        new Response(LLMS_TXT, { headers: { 'content-type': 'text/markdown', ...headerLines(snippet.code) } })),
    expected: 'pass',
    why: "a response header on the site's own llms.txt",
  },
  'markdown-negotiation': {
    apply: ({ snippet }) => {
      const headers = headerLines(snippet.code)
      const html = homepage()
      routes['/'] = (request) =>
        /text\/markdown/.test(request.headers.get('accept') ?? '') ? new Response(MARKDOWN_HOME, { headers }) : html()
    },
    expected: 'pass',
    why: 'headers for the markdown answer the site writes',
  },
  'markdown-alternates': {
    apply: ({ snippet }) => {
      routes['/'] = homepage(snippet.code)
      routes['/index.html.md'] = file(MARKDOWN_HOME, 'text/markdown; charset=utf-8')
    },
    expected: 'pass',
    why: 'a <link> naming the markdown twin the site publishes',
  },
  'mcp-endpoint-advertised': {
    apply: (remedy) => (routes['/.well-known/ai-catalog.json'] = published(remedy)),
    expected: 'not pass',
    notPass: /\/mcp \(via server-card\) answers 404/,
    why: 'a card naming /mcp: it fixes nothing without an MCP server there',
  },
  'mcp-server-card': {
    apply: (remedy) => (routes['/.well-known/ai-catalog.json'] = published(remedy)),
    expected: 'pass',
    why: 'a complete card, inline in the AI catalog the server-card extension points domains to',
  },
  'structured-data-jsonld': {
    apply: ({ snippet }) => (routes['/'] = homepage(snippet.code)),
    expected: 'pass',
    why: 'a complete Organization',
  },
  'opengraph-metadata': {
    apply: ({ snippet }) => (routes['/'] = homepage(snippet.code)),
    expected: 'not pass',
    notPass: /still a template placeholder: og:description/,
    why: 'a template: og:description is "One sentence on what the page offers."',
  },
  'http-error-semantics': {
    apply: ({ snippet }) => {
      const [head, body] = snippet.code.split('\n\n')
      const [, ...lines] = head!.split('\n')
      site.otherwise = () => new Response(body, { status: 404, headers: headerLines(lines.join('\n')) })
    },
    expected: 'pass',
    why: 'the 404 answer itself',
  },
  'agent-skills-index': {
    apply: (remedy) => (routes['/.well-known/agent-skills/index.json'] = published(remedy, 'application/json')),
    expected: 'not pass',
    notPass: /SKILL\.md answers 404/,
    why: 'names a SKILL.md the site must still write',
  },
  'semantic-html': {
    apply: ({ snippet }) => (routes['/'] = homepage('', snippet.code)),
    expected: 'pass',
    why: 'landmarks',
  },
  'accessible-forms': {
    apply: ({ snippet }) =>
      (routes['/'] = homepage('', `${HOME_BODY}<form action="/subscribe">${snippet.code}</form>`)),
    expected: 'pass',
    why: 'a complete form field',
  },
}

/** Suggestions that are settings or commands, not text a site serves: nothing to apply to a fixture's files. */
const NOT_APPLICABLE: Record<string, string> = {
  'bot-challenge-free': 'a rule in the bot protection at the edge, not a file of the site',
  'content-without-js': 'commands to run against the site, not text to publish',
}

/** The check's outcome on the fixture site as it now is, scanned with the real collectors. */
async function statusAfter(
  checkId: string,
): Promise<{ status: CheckStatus; details: string; recommendation?: string }> {
  const check = REGISTERED_CHECKS.find(({ definition }) => definition.meta.id === checkId)!.definition
  const options = {
    target: localTarget(origin),
    config: collectorConfig(),
    http: scanSession(),
    browser: null,
    phase: 'static' as const,
  }
  const { status, details, recommendation } = await runCheck(check, new Collection(options), options)
  return { status, details, recommendation }
}

describe('every snippet and template the service suggests, applied verbatim', () => {
  test('each remedy is applied or says why it cannot be', () => {
    expect(Object.keys(REMEDIES).filter((id) => !(id in APPLIED) && !(id in NOT_APPLICABLE))).toEqual([])
  })

  test.each(
    Object.entries(APPLIED).map(
      ([checkId, application]) =>
        [`${checkId} (${application.why}): ${application.expected}`, checkId, application] as const,
    ),
  )('%s', async (_name, checkId, application) => {
    routes['/'] = homepage()
    application.apply(REMEDIES[checkId]!(remedySite))
    const { status, details } = await statusAfter(checkId)
    if (application.expected === 'pass') {
      expect({ status, details }).toMatchObject({ status: 'pass' })
    } else {
      expect(status).not.toBe('pass')
      expect(details).toMatch(application.notPass)
    }
  })
})

describe('templates written into check recommendations, applied verbatim', () => {
  test('llms-txt: the skeleton its "no llms.txt" recommendation quotes does not pass', async () => {
    routes['/'] = homepage()
    const { recommendation } = await statusAfter('llms-txt')
    const skeleton = [...recommendation!.matchAll(/"([^"]+)"/g)].map((match) => match[1]).join('\n\n')
    expect(skeleton).toContain('# <site name>')
    routes['/llms.txt'] = file(`${skeleton}\n`, 'text/markdown')
    const after = await statusAfter('llms-txt')
    expect(after.status).toBe('fail')
    expect(after.details).toContain('template placeholder')
  })

  test('opengraph-metadata: the tags its recommendation writes, meta description included, do not pass', async () => {
    routes['/'] = page('')
    const { recommendation } = await statusAfter('opengraph-metadata')
    const tags = recommendation!.match(/<(?:meta|link) [^>]+>/g)!
    expect(tags).toHaveLength(6)
    routes['/'] = page(tags.join(''))
    const after = await statusAfter('opengraph-metadata')
    expect(after.status).not.toBe('pass')
    expect(after.details).toContain(
      'still a template placeholder: og:image "https://…/social-card.png", description "One sentence on what the site offers"',
    )
  })
})
