// The negotiated MCP revision is current (2025-06-18 or later), the requested one is echoed when supported, and the
// MCP-Protocol-Version header is honoured: a correct one works, a bogus one gets 400.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#version-negotiation
import type { McpServerArtifact } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { unreachable } from '../lib/outcomes.ts'
import {
  CURRENT_VERSIONS,
  DEPRECATED_VERSIONS,
  describeExchange,
  discoverResult,
  is2xx,
  isModern,
  isVersionDate,
  MCP_SPEC,
  settle,
  unfinished,
} from '../lib/mcp-checks.ts'

export default defineCheck({
  meta: {
    id: 'mcp-protocol-version',
    name: 'Current protocol version negotiated',
    description:
      'Structured tool output, the mandatory version header and OAuth resource metadata arrived in 2025-06-18; an older revision, or a server that mishandles the version header, leaves agents on a weaker protocol.',
    layer: 'discovery',
    applicability: 'mcp',
    tier: 'required',
    maturity: 'verified',
    maxScore: 6,
    specUrl: `${MCP_SPEC}/basic/lifecycle#version-negotiation`,
    recommendation:
      'Support protocol version 2025-11-25 (or at least 2025-06-18), echo the version the client asks for when you support it, and answer 400 to an unsupported MCP-Protocol-Version header.',
    needs: ['mcp'],
  },
  run({ mcp }) {
    const handshakeExchange = isModern(mcp) ? mcp.discover : mcp.initialize
    if (!mcp.handshake) {
      if (unfinished(handshakeExchange))
        return unreachable(
          `The handshake did not complete (${describeExchange(handshakeExchange)}), so no version was negotiated`,
        )
      return fail(
        `The handshake failed (${describeExchange(handshakeExchange)}), so no protocol version was negotiated`,
        'Make initialize (or server/discover) succeed first; mcp-initialize says what is wrong.',
      )
    }
    const supported = supportedVersions(mcp)
    const version = mcp.handshake.protocolVersion ?? (isModern(mcp) ? supported.at(-1) : undefined)
    if (!isVersionDate(version)) {
      return fail(
        `The negotiated protocolVersion is ${JSON.stringify(version) ?? 'missing'}, not a YYYY-MM-DD revision`,
        `Return a dated revision such as "2025-11-25" in protocolVersion.`,
      )
    }

    const problems: string[] = []
    const fixes: string[] = []
    const pending: string[] = []
    if (DEPRECATED_VERSIONS.includes(version)) {
      problems.push(`${version} is a deprecated revision`)
      fixes.push(`Upgrade from ${version} to 2025-11-25 (update your MCP SDK).`)
    } else if (!CURRENT_VERSIONS.includes(version)) {
      problems.push(`${version} is not a published revision`)
      fixes.push(`Negotiate a published revision (${CURRENT_VERSIONS.join(', ')}).`)
    }
    if (!isModern(mcp) && version !== mcp.requestedVersion && supported.includes(mcp.requestedVersion)) {
      problems.push(
        `${mcp.requestedVersion} was requested and server/discover lists it as supported, yet initialize answered ${version}`,
      )
      fixes.push(`Echo the client's protocolVersion (${mcp.requestedVersion}) when you support it.`)
    }

    // The header was introduced with Streamable HTTP; an HTTP+SSE-only server is judged on the version alone. The
    // probes carry the session id, so when the session itself is refused they say nothing about the header.
    const notProbed = mcp.legacySseOnly
      ? 'the version header is not probed over HTTP+SSE'
      : sessionRefused(mcp)
        ? 'the version header could not be judged: requests carrying the session id are refused (mcp-session-handling)'
        : null
    if (!notProbed) {
      const { correctVersionHeader: correct, bogusVersionHeader: bogus } = mcp.probes
      if (unfinished(correct)) pending.push('the request with the negotiated MCP-Protocol-Version header')
      else if (!is2xx(correct) || correct.response === undefined) {
        // A JSON-RPC error inside a 2xx is about the method, not the header; header problems come back as HTTP 400.
        return fail(
          `A request carrying MCP-Protocol-Version: ${version} got ${describeExchange(correct)}: the server errors when the header is present`,
          `Accept the MCP-Protocol-Version header with the negotiated version (${version}) on every request after the handshake.`,
        )
      }
      if (unfinished(bogus)) pending.push('the request with MCP-Protocol-Version: 1999-01-01')
      else if (bogus.status !== 400) {
        problems.push(
          `a request carrying MCP-Protocol-Version: 1999-01-01 got ${describeExchange(bogus)}${is2xx(bogus) ? ' (not rejected)' : ''}, not 400`,
        )
        fixes.push('Answer 400 Bad Request to an invalid or unsupported MCP-Protocol-Version header.')
      }
    }

    const summary = `Negotiated ${version}${isModern(mcp) ? ' (stateless)' : ` for requested ${mcp.requestedVersion}`}`
    const outcome =
      problems.length === 0
        ? pass(`${summary}; ${notProbed ?? 'the version header is honoured and a bogus one gets 400'}`)
        : warn(`${summary}, but ${problems.join('; ')}${notProbed ? `; ${notProbed}` : ''}`, fixes.join(' '))
    return settle(outcome, pending)
  },
})

function supportedVersions(mcp: McpServerArtifact): string[] {
  const versions = discoverResult(mcp)?.supportedVersions
  return Array.isArray(versions) ? versions.filter(isVersionDate).sort() : []
}

function sessionRefused(mcp: McpServerArtifact): boolean {
  const probe = mcp.probes.withSession
  return (
    mcp.sessionId !== null && probe !== null && !unfinished(probe) && (!is2xx(probe) || probe.response === undefined)
  )
}
