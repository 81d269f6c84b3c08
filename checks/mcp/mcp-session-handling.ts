// Session ids, when a server issues them, are visible ASCII and hard to guess, accepted on the next request, and
// ended by DELETE (or 405). Stateless servers pass; a 2026-07-28-only server that still mints one warns.
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#session-management, 2026-07-28 basic/transports/streamable-http
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { describeExchange, is2xx, isModern, MCP_SPEC, settle, unfinished } from '../lib/mcp-checks.ts'

const MIN_LENGTH = 16

export default defineCheck({
  meta: {
    id: 'mcp-session-handling',
    name: 'Session id handling',
    description:
      'A client echoes the Mcp-Session-Id it was given on every request; a server that then rejects it, or hands out guessable ids, breaks every conversation after the handshake.',
    layer: 'accessibility',
    applicability: 'mcp',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 4,
    specUrl: `${MCP_SPEC}/basic/transports#session-management`,
    recommendation:
      'Either run stateless (issue no Mcp-Session-Id), or issue a random id of 16+ visible ASCII characters, accept it on later requests, answer 400 when it is missing and 2xx or 405 to DELETE.',
    needs: ['mcp'],
  },
  run({ mcp }) {
    if (isModern(mcp)) {
      // 2026-07-28 (streamable-http, "Earlier Streamable HTTP Revisions"): a server speaking only this revision SHOULD NOT mint or echo session ids.
      const exchanges = [
        mcp.initialize,
        mcp.discover,
        mcp.resourceRead,
        mcp.resourceTemplates,
        ...Object.values(mcp.probes),
      ]
      const minted = exchanges.find((exchange) => exchange?.headers['mcp-session-id'] !== undefined)
      if (minted) {
        return warn(
          `The server speaks only MCP 2026-07-28, which has no sessions, yet it sends Mcp-Session-Id "${minted.headers['mcp-session-id']}"`,
          'Stop minting Mcp-Session-Id on a 2026-07-28-only server: ignore the header on requests and never send it back.',
        )
      }
      return pass('Stateless: MCP 2026-07-28 has no sessions, so any instance can answer any request')
    }
    if (mcp.legacySseOnly)
      return na(
        'Only the HTTP+SSE transport answered: its session lives in the endpoint URL, so Streamable HTTP session ids do not apply',
      )
    const id = mcp.sessionId
    if (id === null) return pass('Stateless: no Mcp-Session-Id is issued, so every request stands alone')

    const { withSession, withoutSession, deleteSession } = mcp.probes
    const failures: string[] = []
    const problems: string[] = []
    const fixes: string[] = []
    const pending: string[] = []
    if (!/^[\x21-\x7e]+$/.test(id)) {
      failures.push('the Mcp-Session-Id contains characters outside visible ASCII (0x21 to 0x7E)')
      fixes.push('Issue session ids of visible ASCII only, e.g. a UUID or base64url of 16 random bytes.')
    } else if (id.length < MIN_LENGTH) {
      problems.push(`the Mcp-Session-Id "${id}" has ${id.length} characters, too short to be unguessable`)
      fixes.push(
        `Issue cryptographically random session ids of at least ${MIN_LENGTH} characters (e.g. crypto.randomUUID()).`,
      )
    }
    if (withSession) {
      if (unfinished(withSession)) pending.push('the request carrying the session id')
      else if (!is2xx(withSession) || withSession.response === undefined) {
        failures.push(`the next request carrying the issued Mcp-Session-Id got ${describeExchange(withSession)}`)
        fixes.push(
          'Accept the Mcp-Session-Id you issued on the requests that follow (keep sessions in a store shared by every instance, or go stateless).',
        )
      }
    }
    if (withoutSession) {
      if (unfinished(withoutSession)) pending.push('the request without the session id')
      else if (withoutSession.status !== 400 && !is2xx(withoutSession)) {
        problems.push(`a request without the Mcp-Session-Id got ${describeExchange(withoutSession)}, not 400`)
        fixes.push('Answer a request that lacks the required Mcp-Session-Id with 400 Bad Request.')
      }
    }
    if (deleteSession) {
      if (unfinished(deleteSession)) pending.push('DELETE with the session id')
      else if (deleteSession.status !== 405 && !is2xx(deleteSession)) {
        problems.push(`DELETE with the Mcp-Session-Id got ${describeExchange(deleteSession)}, not 2xx or 405`)
        fixes.push(
          'Answer DELETE with the session id by ending the session (200/204), or 405 if clients may not end sessions.',
        )
      }
    }
    const summary = `The server issues a ${id.length}-character Mcp-Session-Id`
    if (failures.length > 0)
      return settle(fail(`${summary}, but ${[...failures, ...problems].join('; ')}`, fixes.join(' ')), pending)
    const outcome =
      problems.length > 0
        ? warn(`${summary}, but ${problems.join('; ')}`, fixes.join(' '))
        : pass(
            `${summary}; it is accepted on the next request${withoutSession?.status === 400 ? ', a request without it gets 400' : ''}${deleteSession ? ', DELETE is handled' : ''}`,
          )
    return settle(outcome, pending)
  },
})
