// _meta.ui.visibility is a non-empty subset of ["model","app"], and at least one UI tool stays visible to the model.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx (Visibility)
import { defineCheck, fail, na, pass, warn } from '../../core/engine/check.ts'
import { listSome } from '../../core/engine/lib/describe.ts'
import { uiLinks } from '../../core/engine/lib/mcp-app.ts'
import { MCP_APPS_SPEC_URL, toolVisibility } from '../lib/mcp-app-ui.ts'
import { listedTools, quoted } from '../lib/mcp-checks.ts'

export default defineCheck({
  meta: {
    id: 'mcp-app-tool-visibility',
    name: 'UI tool visibility sane',
    description:
      'Hosts hide tools whose visibility leaves out "model" from the agent; if every UI tool is app-only, the agent can never open the view in the first place.',
    layer: 'usability',
    applicability: 'mcp-app',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 2,
    specUrl: MCP_APPS_SPEC_URL,
    recommendation:
      'Set _meta.ui.visibility to ["model","app"] (the default) on the tools that open a view, and ["app"] only on helpers the view itself calls.',
    needs: ['mcp'],
  },
  run({ mcp }) {
    const listed = listedTools(mcp)
    if ('outcome' in listed) return listed.outcome
    const links = uiLinks(listed.tools)
    if (links.length === 0)
      return na(
        'No tool links a UI resource, so there is no UI tool visibility to judge (mcp-app-ui-resource reports this)',
      )
    const problems = listed.tools.flatMap((tool) =>
      toolVisibility(tool).problems.map((problem) => `${tool.name}: ${problem}`),
    )
    const uiTools = links.map((link) => ({ name: link.tool.name, visibility: toolVisibility(link.tool) }))
    const modelVisible = uiTools.filter((tool) => tool.visibility.modelVisible)
    const appOnly = uiTools.filter((tool) => !tool.visibility.modelVisible).map((tool) => tool.name)
    const occurrences = uiTools.length
    if (modelVisible.length === 0) {
      return fail(
        `Every UI tool (${quoted(appOnly)}) leaves "model" out of its visibility, so hosts hide them all from the agent and no view can be opened${problems.length > 0 ? `; also ${listSome(problems, 2)}` : ''}`,
        `Make the tool that opens the view model-visible: _meta.ui.visibility ["model","app"] on ${quoted(appOnly, 1)} (or omit visibility for that default).`,
        { occurrences },
      )
    }
    const summary = `${modelVisible.length} of ${uiTools.length} UI tool(s) visible to the model${appOnly.length > 0 ? `, app-only: ${quoted(appOnly)}` : ''}`
    if (problems.length > 0) {
      return warn(
        `${summary}; but ${listSome(problems, 3)}`,
        'Write visibility as a non-empty array of "model" and/or "app" only; hosts ignore or reject other values.',
        { occurrences },
      )
    }
    return pass(summary, { occurrences })
  },
})
