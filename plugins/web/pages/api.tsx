import { CONTRACT_VERSION } from '../../../core/version.ts'
import { Layout } from '../layout.tsx'

/** An MCP tool as its listing names and describes it. */
export interface ListedMcpTool {
  name: string
  description: string
}

/**
 * `/api`: where programs start. The MCP server is documented here rather than linked bare: its endpoint takes
 * JSON-RPC POSTs only, so a browser following a link to it gets 405. The tools are those the server lists.
 */
export function ApiPage({
  baseUrl,
  nonce,
  tools,
}: {
  baseUrl: string
  nonce: string
  tools: readonly ListedMcpTool[]
}): JSX.Element {
  const links = [
    { href: '/swagger', label: 'Swagger UI', text: 'Browse and try every endpoint.' },
    {
      href: '/openapi.json',
      label: 'OpenAPI document',
      text: `The machine-readable description (contract ${CONTRACT_VERSION}).`,
    },
    {
      href: '#mcp',
      label: 'MCP server',
      text: `Streamable HTTP MCP server at /api/mcp with ${tools.length} tools: how to connect, and what each tool does.`,
    },
    {
      href: '/.well-known/mcp/server-card.json',
      label: 'MCP server card',
      text: 'What the MCP server offers, for clients that discover it.',
    },
    {
      href: '/api/checks',
      label: 'Check catalog (JSON)',
      text: 'Every check with its layer, weight and specification.',
    },
    {
      href: '/.well-known/api-catalog',
      label: 'API catalog',
      text: 'RFC 9727 linkset listing the REST API and the MCP server with their descriptions and docs.',
    },
    { href: '/llms.txt', label: 'llms.txt', text: 'This site summarised for language models.' },
    { href: '/llms-full.txt', label: 'llms-full.txt', text: 'The documentation and every check in one Markdown file.' },
    {
      href: '/.well-known/agent-skills/index.json',
      label: 'Agent Skills index',
      text: 'A SKILL.md that teaches an agent to scan a site with this API and act on the report.',
    },
  ]
  return (
    <Layout
      meta={{
        title: 'API and MCP server',
        description: 'The agent-readiness API: OpenAPI document, Swagger UI and the MCP endpoint.',
        canonical: `${baseUrl}/api`,
        nonce,
      }}
    >
      <h1>API and MCP server</h1>
      <p>
        Everything on these pages is also available to programs. Reads are open; scans are rate-limited per IP, and
        operators issue keys for more. Every report page has a Markdown alternate at{' '}
        <code safe>{'/site/<domain>.md'}</code>.
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
        <code
          safe
        >{`curl -X POST ${baseUrl}/api/scan -H 'content-type: application/json' -d '{"url":"example.com"}'`}</code>
      </pre>
      <h2 id="mcp">MCP server</h2>
      <p>
        Point an MCP client at <code safe>{`${baseUrl}/api/mcp`}</code> (streamable HTTP, stateless: every request is a
        POST of JSON-RPC with <code>Accept: application/json, text/event-stream</code>; a GET answers 405). No
        authentication is needed; a scan key sent as <code>Authorization: Bearer</code> lifts the scan limits. The same
        endpoint is described in the <a href="/swagger">Swagger UI</a> under MCP.
      </p>
      <pre>
        <code
          safe
        >{`npx @modelcontextprotocol/inspector --cli ${baseUrl}/api/mcp --transport http --method tools/list`}</code>
      </pre>
      <table id="mcp-tools">
        <caption>{`The ${tools.length} tools`}</caption>
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">What it does</th>
          </tr>
        </thead>
        <tbody>
          {tools.map((tool) => (
            <tr>
              <td>
                <code safe>{tool.name}</code>
              </td>
              <td safe>{tool.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Layout>
  )
}
