// (bonus) An NLWeb /ask endpoint answers a natural-language query with JSON results (plain JSON or an SSE stream).
// Spec: https://github.com/nlweb-ai/NLWeb (REST /ask; protocol v0.54)
import { defineCheck, fail, pass } from '../../core/engine/check.ts'
import { pathOf, statusOf } from '../../core/engine/lib/describe.ts'
import { jsonMessages } from '../../core/engine/lib/mcp-wire.ts'
import { isOk, isRecord, looksLikeHtml } from '../../core/engine/snapshot.ts'

/** The result lists in an NLWeb answer: `results` (list mode, v0.54) or streamed `content` batches. */
function resultLists(message: unknown): unknown[][] {
  if (!isRecord(message)) return []
  const lists: unknown[][] = []
  if (Array.isArray(message.results)) lists.push(message.results)
  if (Array.isArray(message.content) && ('_meta' in message || 'message_type' in message)) lists.push(message.content)
  return lists
}

export default defineCheck({
  meta: {
    id: 'nlweb-ask',
    name: 'NLWeb ask endpoint',
    description:
      'An NLWeb /ask endpoint lets an agent query the site in natural language and get schema.org-typed results back.',
    layer: 'discovery',
    applicability: 'domain-only',
    tier: 'emerging',
    maturity: 'emerging',
    bonus: true,
    draft: true,
    maxScore: 1,
    specUrl: 'https://github.com/nlweb-ai/NLWeb',
    recommendation: 'Optionally run NLWeb: GET /ask?query=… answering JSON {"results": [schema.org objects]}.',
    needs: ['nlweb'],
  },
  run({ nlweb }, { target }) {
    const where = pathOf(nlweb.url)
    const recommendation = `Optionally expose NLWeb at ${target.origin}/ask so that GET /ask?query=… answers JSON {"results": […]} with schema.org items.`
    if (!isOk(nlweb)) return fail(`${where} answered ${nlweb.status}: no NLWeb endpoint`, recommendation)
    if (looksLikeHtml(nlweb.body))
      return fail(`${where} answered ${nlweb.status} with an HTML page, not NLWeb JSON`, recommendation)
    const lists = jsonMessages(nlweb).flatMap(resultLists)
    if (lists.length === 0) {
      return fail(`${where} answered ${statusOf(nlweb)} without an NLWeb results list`, recommendation)
    }
    const count = lists.reduce((total, list) => total + list.length, 0)
    const streamed = nlweb.contentType === 'text/event-stream' ? ' (streamed)' : ''
    return pass(`${where} answers with NLWeb results${streamed}: ${count} item(s)`)
  },
})
