// UI tools still work for an agent without a view: a real description, and (when the scan called one) text in content[].
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx (Graceful Degradation)
import type { McpServerArtifact, McpTool } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, na, type Outcome, pass, warn } from '../../core/engine/check.ts'
import { uiLinks } from '../../core/engine/lib/mcp-app.ts'
import { fixSentence, MCP_APPS_SPEC_URL } from '../lib/mcp-app-ui.ts'
import { describeExchange, listedTools, quoted, settle, text, unfinished } from '../lib/mcp-checks.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

const MIN_DESCRIPTION = 20

type CallVerdict = 'text' | 'other-content' | 'structured-only' | 'empty'

/** What a host without UI (and the model) gets from one tool result. */
function callVerdict(result: NonNullable<McpServerArtifact['toolCalls'][number]['result']>): CallVerdict {
  const content = Array.isArray(result.content) ? result.content : []
  if (content.some((item) => isRecord(item) && item.type === 'text' && text(item.text) !== '')) return 'text'
  if (content.length > 0) return 'other-content'
  return result.structuredContent !== undefined ? 'structured-only' : 'empty'
}

export default defineCheck({
  meta: {
    id: 'mcp-app-text-fallback',
    name: 'UI tools keep a text fallback',
    description:
      'Hosts without MCP Apps support, and the model itself, see only a UI tool’s description and its content[]; without text there the tool is a black box to the agent.',
    layer: 'usability',
    applicability: 'mcp-app',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 3,
    specUrl: MCP_APPS_SPEC_URL,
    recommendation:
      'Describe each UI tool in at least a sentence, and return a text summary in content[] alongside structuredContent (e.g. {"type": "text", "text": "3 anvils in stock: …"}).',
    needs: ['mcp'],
  },
  run({ mcp }) {
    const listed = listedTools(mcp)
    if ('outcome' in listed) return listed.outcome
    const uiTools = [...new Map(uiLinks(listed.tools).map((link) => [link.tool.name, link.tool])).values()]
    if (uiTools.length === 0)
      return na('No tool links a UI resource, so there is no UI tool to judge (mcp-app-ui-resource reports this)')
    // A call of a UI tool that did not complete leaves its result unknown: the verdict waits for it (error), unless
    // it is already a failure.
    const unfinishedCalls = mcp.toolCalls
      .filter((call) => uiTools.some((tool) => tool.name === call.name) && unfinished(call.exchange))
      .map((call) => `tools/call of ${call.name} (${describeExchange(call.exchange)})`)
    return settle(judgeUiTools(uiTools, mcp.toolCalls), unfinishedCalls)
  },
})

function judgeUiTools(uiTools: readonly McpTool[], toolCalls: McpServerArtifact['toolCalls']): Outcome {
  const names = new Set(uiTools.map((tool) => tool.name))
  const undescribed = uiTools.filter((tool) => text(tool.description).length < MIN_DESCRIPTION).map((tool) => tool.name)
  const calls = toolCalls.filter((call) => names.has(call.name) && call.result !== undefined)
  const judged = calls
    .filter((call) => call.result!.isError !== true)
    .map((call) => ({ name: call.name, verdict: callVerdict(call.result!) }))
  const errored = calls.filter((call) => call.result!.isError === true).map((call) => call.name)
  const by = (verdict: CallVerdict) => judged.filter((call) => call.verdict === verdict).map((call) => call.name)

  const evidence =
    judged.length > 0
      ? `evidence: a call of ${quoted(judged.map((call) => call.name))}`
      : `judged by descriptions only: no read-only UI tool without required arguments was called${errored.length > 0 ? ` successfully (${quoted(errored)} returned isError)` : ''}`
  const occurrences = uiTools.length
  const empty = by('empty')
  if (empty.length > 0) {
    return fail(
      `${quoted(empty)} returned an empty result when called: no content[] and no structuredContent, so a host without UI shows nothing`,
      `Return {"type": "text", "text": "<what the view shows, in a sentence or two>"} in content[] from ${quoted(empty)}; MCP Apps requires meaningful content even when a view exists.`,
      { occurrences },
    )
  }
  const issues: string[] = []
  const fixes: string[] = []
  const structuredOnly = by('structured-only')
  if (structuredOnly.length > 0) {
    issues.push(
      `${quoted(structuredOnly)} returned only structuredContent, which the model and text-only hosts do not read`,
    )
    fixes.push(`add a text summary to content[] of ${quoted(structuredOnly)}`)
  }
  const otherContent = by('other-content')
  if (otherContent.length > 0) {
    issues.push(`${quoted(otherContent)} returned content[] without any text item`)
    fixes.push(`add a {"type": "text"} item to content[] of ${quoted(otherContent)}`)
  }
  if (undescribed.length > 0) {
    issues.push(
      `${undescribed.length} of ${uiTools.length} UI tool(s) have a description under ${MIN_DESCRIPTION} characters (${quoted(undescribed)})`,
    )
    fixes.push(`describe ${quoted(undescribed)} in a sentence: what it shows and what the text result contains`)
  }
  if (issues.length > 0) return warn(`${issues.join('; ')}; ${evidence}`, fixSentence(fixes), { occurrences })
  const described = `${uiTools.length} UI tool(s) described`
  const texts = by('text')
  return pass(
    texts.length > 0 ? `${described}; ${quoted(texts)} returned text in content[]` : `${described}; ${evidence}`,
    { occurrences },
  )
}
