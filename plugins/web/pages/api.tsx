import { CONTRACT_VERSION } from '../../../core/version.ts'
import { Layout } from '../layout.tsx'

/** `/api`: where programs start. */
export function ApiPage({ baseUrl, nonce }: { baseUrl: string; nonce: string }): JSX.Element {
  const links = [
    { href: '/swagger', label: 'Swagger UI', text: 'Browse and try every endpoint.' },
    { href: '/openapi.json', label: 'OpenAPI document', text: `The machine-readable description (contract ${CONTRACT_VERSION}).` },
    { href: '/api/mcp', label: 'MCP endpoint', text: 'Streamable HTTP MCP server with the scan_domain tool; POST JSON-RPC with Accept: application/json, text/event-stream.' },
    { href: '/.well-known/mcp/server-card.json', label: 'MCP server card', text: 'What the MCP server offers, for clients that discover it.' },
    { href: '/api/checks', label: 'Check catalog (JSON)', text: 'Every check with its layer, weight and specification.' },
    { href: '/.well-known/api-catalog', label: 'API catalog', text: 'RFC 9727 linkset listing the REST API and the MCP server with their descriptions and docs.' },
    { href: '/llms.txt', label: 'llms.txt', text: 'This site summarised for language models.' },
    { href: '/llms-full.txt', label: 'llms-full.txt', text: 'The documentation and every check in one Markdown file.' },
    { href: '/.well-known/agent-skills/index.json', label: 'Agent Skills index', text: 'A SKILL.md that teaches an agent to scan a site with this API and act on the report.' },
  ]
  return (
    <Layout meta={{ title: 'API and MCP server', description: 'The agent-readiness API: OpenAPI document, Swagger UI and the MCP endpoint.', canonical: `${baseUrl}/api`, nonce }}>
      <h1>API and MCP server</h1>
      <p>
        Everything on these pages is also available to programs. Reads are open; scans are rate-limited per IP, and operators issue keys for
        more. Every report page has a Markdown alternate at <code safe>{'/site/<domain>.md'}</code>.
      </p>
      <dl class="links">
        {links.map((link) => (
          <>
            <dt>
              <a href={link.href}>{link.label}</a>
            </dt>
            <dd>{link.text}</dd>
          </>
        ))}
      </dl>
      <h2>Scan from the command line</h2>
      <pre>
        <code safe>{`curl -X POST ${baseUrl}/api/scan -H 'content-type: application/json' -d '{"url":"example.com"}'`}</code>
      </pre>
    </Layout>
  )
}
