// A UI resource's _meta.ui is well-typed (csp origin lists, known permissions, boolean prefersBorder) and its CSP declares
// every external origin the HTML loads or connects to. Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx
import type { McpResource, McpServerArtifact } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, na, type Outcome, pass, warn } from '../../core/engine/check.ts'
import { listSome } from '../../core/engine/lib/describe.ts'
import { unreachable } from '../lib/outcomes.ts'
import { classifyUiMimeType } from '../../core/engine/lib/mcp-app.ts'
import {
  type DeclaredCsp,
  externalReferences,
  openaiWidgetCsp,
  undeclaredReferences,
  validateUiResourceMeta,
} from '../lib/mcp-app-csp.ts'
import { fixSentence, MCP_APPS_SPEC_URL, uiContentHtml } from '../lib/mcp-app-ui.ts'
import { describeExchange, settle, unfinished } from '../lib/mcp-checks.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

const EXAMPLE =
  '_meta: {"ui": {"csp": {"connectDomains": ["https://api.example.com"], "resourceDomains": ["https://cdn.example.com"]}, "prefersBorder": true}}'

interface Judged {
  uri: string
  errors: string[]
  warnings: string[]
  fixes: string[]
  origins: number
}

/** The read content of a UI resource that can be judged: a UI media type and HTML in it. */
function readableTemplate(resource: McpServerArtifact['uiResources'][number]) {
  if (resource.read.response?.error) return null
  const content = resource.contents.find((entry) => entry.uri === resource.uri) ?? resource.contents[0]
  if (!content || classifyUiMimeType(content.mimeType) === 'other') return null
  const html = uiContentHtml(content)
  return html && html.trim() ? { content, html } : null
}

function judge(resource: McpServerArtifact['uiResources'][number], listed: McpResource | undefined): Judged | null {
  const template = readableTemplate(resource)
  if (!template) return null
  const { uri } = resource
  const judged: Judged = { uri, errors: [], warnings: [], fixes: [], origins: 0 }
  // The read content's _meta is authoritative for the host; the resources/list entry may carry it too.
  const sources = [
    { where: `${uri} read _meta.ui`, meta: template.content._meta },
    { where: `${uri} list entry _meta.ui`, meta: listed?._meta },
  ].filter((source) => isRecord(source.meta) && source.meta.ui !== undefined)
  let csp: DeclaredCsp | null = null
  for (const source of sources) {
    const report = validateUiResourceMeta(source.meta!.ui, source.where)
    judged.errors.push(...report.errors)
    judged.warnings.push(...report.warnings)
    csp ??= report.csp
  }
  if (judged.errors.length > 0) judged.fixes.push(`give ${uri} a well-typed _meta.ui, e.g. ${EXAMPLE}`)
  else if (judged.warnings.length > 0) {
    judged.fixes.push(
      `keep _meta.ui of ${uri} to the spec's keys: csp (connectDomains, resourceDomains, frameDomains, baseUriDomains, each a list of origins), permissions (camera, microphone, geolocation, clipboardWrite), domain and prefersBorder`,
    )
  }

  const legacyCsp = csp ? null : (openaiWidgetCsp(template.content._meta) ?? openaiWidgetCsp(listed?._meta))
  const references = externalReferences(template.html)
  judged.origins = references.length
  const undeclared = undeclaredReferences(references, csp ?? legacyCsp)
  if (legacyCsp && references.length > 0) {
    judged.warnings.push(`${uri} declares its origins only in _meta["openai/widgetCSP"], which MCP Apps hosts ignore`)
    judged.fixes.push(`copy them to _meta.ui.csp of ${uri}`)
  }
  if (undeclared.length > 0) {
    const byList = new Map<string, string[]>()
    for (const reference of undeclared)
      byList.set(reference.directive, [...(byList.get(reference.directive) ?? []), reference.origin])
    const lists = [...byList].map(([directive, origins]) => `${directive}: ${listSome(origins)}`)
    judged.warnings.push(
      `${uri} reaches ${listSome(undeclared.map((reference) => `${reference.origin} (${reference.via})`))} without declaring ${undeclared.length === 1 ? 'it' : 'them'}, so the host's CSP will block ${undeclared.length === 1 ? 'it' : 'them'}`,
    )
    judged.fixes.push(`declare them in _meta.ui.csp of ${uri} (${lists.join('; ')})`)
  }
  return judged
}

export default defineCheck({
  meta: {
    id: 'mcp-app-ui-metadata',
    name: 'UI CSP/permissions metadata valid',
    description:
      'Hosts sandbox an MCP App view with a CSP built from its _meta.ui; undeclared origins are blocked and mistyped metadata is ignored, so the view breaks inside the agent’s host.',
    layer: 'usability',
    applicability: 'mcp-app',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 3,
    specUrl: MCP_APPS_SPEC_URL,
    recommendation: `Declare every external origin the view uses in _meta.ui.csp (connectDomains for fetch/WebSocket, resourceDomains for scripts, styles, images and fonts, frameDomains for iframes), e.g. ${EXAMPLE}.`,
    needs: ['mcp'],
  },
  run({ mcp }) {
    // A read that did not complete (timeout, transport failure, a body past the client's limit) leaves its metadata
    // unknown: that is the probe's failure, not an absence of metadata.
    const unfinishedReads: string[] = []
    const judged = mcp.uiResources.flatMap((resource) => {
      if (unfinished(resource.read)) {
        unfinishedReads.push(`resources/read of ${resource.uri} (${describeExchange(resource.read)})`)
        return []
      }
      const result = judge(
        resource,
        mcp.resources.items.find((item) => item.uri === resource.uri),
      )
      return result ? [result] : []
    })
    if (judged.length === 0) {
      if (unfinishedReads.length > 0)
        return unreachable(
          `${listSome(unfinishedReads)} did not complete, so the UI metadata cannot be judged; retry the scan`,
        )
      return na(
        mcp.uiResources.length === 0
          ? 'No UI resource was linked and read, so there is no UI metadata to judge (mcp-app-ui-resource reports why)'
          : 'No UI resource read back as an HTML template, so there is no UI metadata to judge (mcp-app-ui-resource reports why)',
      )
    }
    return settle(verdict(judged), unfinishedReads)
  },
})

function verdict(judged: readonly Judged[]): Outcome {
  const fixes = fixSentence(judged.flatMap((entry) => entry.fixes))
  const errors = judged.flatMap((entry) => entry.errors)
  const warnings = judged.flatMap((entry) => entry.warnings)
  const occurrences = judged.length
  if (errors.length > 0) {
    return fail(
      `UI metadata has the wrong types, so hosts cannot apply it: ${listSome(errors, 4)}${warnings.length > 0 ? `; also ${listSome(warnings, 2)}` : ''}`,
      fixes,
      { occurrences },
    )
  }
  if (warnings.length > 0) return warn(listSome(warnings, 4), fixes, { occurrences })
  const origins = judged.reduce((sum, entry) => sum + entry.origins, 0)
  return pass(
    origins > 0
      ? `${judged.length} UI resource(s) have well-typed _meta.ui and declare all ${origins} external origin(s) their HTML uses`
      : `${judged.length} UI resource(s) use no external origin, so the host's restrictive default CSP suffices; any _meta.ui is well-typed`,
    { occurrences },
  )
}
