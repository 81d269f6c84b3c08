// The server introduces itself: serverInfo with name, version and a title or description, plus instructions an
// agent can read. Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/lifecycle#initialization
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { unreachable } from '../lib/outcomes.ts'
import { clip } from '../../core/engine/lib/describe.ts'
import { describeExchange, isModern, MCP_SPEC, text, unfinished } from '../lib/mcp-checks.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

const MIN_INSTRUCTIONS = 20

export default defineCheck({
  meta: {
    id: 'mcp-server-info',
    name: 'Server identity and instructions',
    description:
      'Agents show serverInfo to users and put the instructions in the model context; a bare name tells neither what the server is for nor how to use its tools together.',
    layer: 'discovery',
    applicability: 'mcp',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 4,
    specUrl: `${MCP_SPEC}/basic/lifecycle#initialization`,
    recommendation:
      'Return serverInfo with name, version, title and description, and an instructions string explaining what the server does and how its tools fit together.',
    needs: ['mcp'],
  },
  run({ mcp }) {
    const where = isModern(mcp) ? 'the server/discover result' : 'the InitializeResult'
    if (!mcp.handshake) {
      const exchange = isModern(mcp) ? mcp.discover : mcp.initialize
      if (unfinished(exchange))
        return unreachable(`The handshake did not complete (${describeExchange(exchange)}), so serverInfo is unknown`)
      return fail(
        `The handshake failed (${describeExchange(exchange)}), so there is no serverInfo`,
        'Make initialize (or server/discover) succeed first; mcp-initialize says what is wrong.',
      )
    }
    const info = isRecord(mcp.handshake.serverInfo) ? mcp.handshake.serverInfo : {}
    const name = text(info.name)
    if (!name)
      return fail(
        `serverInfo.name is missing from ${where}`,
        `Add serverInfo {"name": "your-server", "version": "1.0.0", "title": "Your Server"} to ${where}.`,
      )

    const instructions = text(mcp.handshake.instructions)
    const missing: string[] = []
    const fixes: string[] = []
    if (!text(info.version)) {
      missing.push('serverInfo.version')
      fixes.push('add serverInfo.version (e.g. "1.0.0")')
    }
    if (!text(info.title) && !text(info.description)) {
      missing.push('serverInfo.title or description')
      fixes.push(`add serverInfo.title (a display name such as "${name}") or a one-line serverInfo.description`)
    }
    if (instructions.length < MIN_INSTRUCTIONS) {
      missing.push(
        instructions
          ? `useful instructions ("${clip(instructions, 40)}" is under ${MIN_INSTRUCTIONS} characters)`
          : 'instructions',
      )
      fixes.push('add an instructions string saying what the server is for and which tools to call first')
    }
    const identity = `serverInfo "${name}"${text(info.version) ? ` ${text(info.version)}` : ''}${text(info.title) ? ` ("${text(info.title)}")` : ''}`
    if (missing.length === 0)
      return pass(
        `${identity} with ${text(info.description) ? 'a description' : 'a title'} and ${instructions.length} characters of instructions`,
      )
    return warn(`${identity}, but ${where} lacks ${missing.join(', ')}`, `In ${where}: ${fixes.join('; ')}.`)
  },
})
