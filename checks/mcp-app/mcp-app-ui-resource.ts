// Every UI template a tool links is a ui:// resource that reads back as text/html;profile=mcp-app with a complete HTML document.
// Spec: https://github.com/modelcontextprotocol/ext-apps/blob/main/specification/2026-01-26/apps.mdx (UI Resource Format)
import type { McpServerArtifact } from '../../core/engine/collectors/mcp.ts'
import { defineCheck, fail, type Outcome, pass, warn } from '../../core/engine/check.ts'
import { listSome } from '../../core/engine/lib/describe.ts'
import { unreachable } from '../lib/outcomes.ts'
import {
  classifyUiMimeType,
  MCP_APP_MIME_TYPE,
  SKYBRIDGE_MIME_TYPE,
  uiLinks,
  type UiToolLink,
} from '../../core/engine/lib/mcp-app.ts'
import {
  describeLinkSource,
  fixSentence,
  htmlShape,
  linksByUri,
  MCP_APPS_SPEC_URL,
  uiContentHtml,
} from '../lib/mcp-app-ui.ts'
import { describeExchange, listedTools, quoted, settle, unfinished } from '../lib/mcp-checks.ts'

const REGISTER = `register the template with registerAppResource (mimeType ${MCP_APP_MIME_TYPE}) and link it with registerAppTool (_meta.ui.resourceUri), from @modelcontextprotocol/ext-apps/server`

interface Judged {
  uri: string
  /** The resource cannot be rendered: hosts show nothing. */
  failures: string[]
  /** Renders, but through a legacy or loose form. */
  warnings: string[]
  fixes: string[]
}

/** Judges one linked URI against what `resources/read` returned; null when the scanner did not read it or the read did not complete. */
function judge(
  uri: string,
  links: readonly UiToolLink[],
  read: McpServerArtifact['uiResources'][number] | undefined,
): Judged | null {
  const judged: Judged = { uri, failures: [], warnings: [], fixes: [] }
  const tools = quoted(links.map((link) => link.tool.name))
  if (!uri.startsWith('ui://')) {
    judged.failures.push(`${uri} (linked by ${tools}) is not a ui:// URI`)
    judged.fixes.push(`serve the template of ${tools} under a ui:// URI`)
  }
  const sources = new Set(links.map((link) => link.source))
  if (!sources.has('ui')) {
    const legacy = [...sources].map(describeLinkSource).join(' and ')
    judged.warnings.push(`${tools} link ${uri} only through ${legacy}`)
    judged.fixes.push(`set _meta.ui.resourceUri on ${tools} (keep the old key for older hosts if you like)`)
  }
  const conflicts = links.flatMap((link) =>
    link.conflicts.map(
      (conflict) => `${link.tool.name} names ${conflict.uri} in ${describeLinkSource(conflict.source)}`,
    ),
  )
  if (conflicts.length > 0) {
    judged.warnings.push(`link keys disagree: ${listSome(conflicts, 2)}`)
    judged.fixes.push('make every link key of a tool name the same template')
  }
  if (!uri.startsWith('ui://')) return judged
  if (!read || unfinished(read.read)) return null

  const error = read.read.response?.error
  if (error || read.contents.length === 0) {
    judged.failures.push(
      `resources/read of ${uri} ${error ? `answered JSON-RPC error ${error.code} "${error.message}"` : `returned no contents (${describeExchange(read.read)})`}`,
    )
    judged.fixes.push(
      `serve ${uri} through resources/read (the resource MUST exist; it may stay out of resources/list)`,
    )
    return judged
  }
  const content = read.contents.find((entry) => entry.uri === uri) ?? read.contents[0]!
  if (content.uri !== uri) {
    judged.warnings.push(`resources/read of ${uri} returned contents for ${content.uri ?? 'no uri'}`)
    judged.fixes.push(`return contents[0].uri = "${uri}"`)
  }
  // The read content's mimeType is what a host renders by (apps.mdx, UI Resource Format: it MUST be
  // text/html;profile=mcp-app); the resources/list entry's mimeType is advisory and not judged here.
  const mime = classifyUiMimeType(content.mimeType)
  if (mime === 'missing' || mime === 'other') {
    judged.failures.push(`${uri} is served as ${content.mimeType ?? 'no mimeType'}, not ${MCP_APP_MIME_TYPE}`)
    judged.fixes.push(`set mimeType "${MCP_APP_MIME_TYPE}" on ${uri}`)
  } else if (mime === 'variant') {
    judged.warnings.push(
      `${uri} is served as "${content.mimeType}"; hosts compare the exact string "${MCP_APP_MIME_TYPE}"`,
    )
    judged.fixes.push(`write the mimeType exactly "${MCP_APP_MIME_TYPE}"`)
  } else if (mime === 'skybridge') {
    judged.failures.push(
      `${uri} is served as the OpenAI Apps SDK type ${SKYBRIDGE_MIME_TYPE}, which MCP Apps hosts do not render`,
    )
    judged.fixes.push(`serve ${uri} as ${MCP_APP_MIME_TYPE} (ChatGPT accepts it too)`)
  }
  const html = uiContentHtml(content)
  const shape = html === null ? null : htmlShape(html)
  if (!shape || shape.empty) {
    judged.failures.push(`${uri} has ${shape ? 'an empty' : 'no'} text or blob`)
    judged.fixes.push(`return the HTML document of ${uri} in contents[0].text (or base64 in blob)`)
  } else if (!shape.markup) {
    judged.failures.push(`${uri} does not contain HTML`)
    judged.fixes.push(`return an HTML5 document for ${uri}`)
  } else if (!shape.htmlElement || !shape.doctype) {
    const missing = [!shape.doctype && '<!doctype html>', !shape.htmlElement && 'an <html> element']
      .filter(Boolean)
      .join(' and ')
    judged.warnings.push(
      `${uri} lacks ${missing} (the spec asks for a valid HTML5 document; without a doctype browsers use quirks mode)`,
    )
    judged.fixes.push(`return a complete document for ${uri}: <!doctype html><html>…</html>`)
  }
  return judged
}

export default defineCheck({
  meta: {
    id: 'mcp-app-ui-resource',
    name: 'UI resources valid (ui://, text/html;profile=mcp-app)',
    description:
      'A host renders a tool’s interactive view only if the ui:// template it links reads back with the exact MCP Apps media type and a real HTML document.',
    layer: 'usability',
    applicability: 'mcp-app',
    tier: 'required',
    maturity: 'verified',
    maxScore: 10,
    specUrl: MCP_APPS_SPEC_URL,
    recommendation: `Link each UI tool to a ui:// template with _meta.ui.resourceUri and serve that template through resources/read as ${MCP_APP_MIME_TYPE} with a complete HTML document; ${REGISTER}.`,
    needs: ['mcp'],
  },
  run({ mcp }) {
    const listed = listedTools(mcp)
    if ('outcome' in listed) return listed.outcome
    const links = uiLinks(listed.tools)
    if (links.length === 0) {
      const templates = mcp.resources.items.filter((resource) =>
        ['exact', 'variant', 'skybridge'].includes(classifyUiMimeType(resource.mimeType)),
      )
      const orphans =
        templates.length > 0
          ? `; resources/list has ${templates.length} UI template(s) (${listSome(templates.map((resource) => resource.uri))}) that no tool references`
          : ''
      return fail(
        `None of the ${listed.tools.length} tools links a UI resource through _meta.ui.resourceUri${orphans}, so a host has no view to render`,
        `Add _meta: {"ui": {"resourceUri": "ui://…"}} to the tools that have a view; ${REGISTER}.`,
      )
    }
    const judged: Judged[] = []
    const unfinishedReads: string[] = []
    // The scanner reads a bounded number of templates; the rest are left unjudged rather than held against the server.
    const skipped: string[] = []
    for (const [uri, uriLinks] of linksByUri(links)) {
      const read = mcp.uiResources.find((resource) => resource.uri === uri)
      const result = judge(uri, uriLinks, read)
      if (result) judged.push(result)
      else if (read) unfinishedReads.push(`resources/read of ${uri} (${describeExchange(read.read)})`)
      else skipped.push(uri)
    }
    if (judged.length === 0) {
      return unreachable(
        unfinishedReads.length > 0
          ? `${listSome(unfinishedReads)} did not complete`
          : `The scanner read none of the linked templates (${listSome(skipped)})`,
      )
    }
    const outcome = verdict(judged, links.length)
    const note = skipped.length > 0 ? `; not read by the scanner (over its limit): ${listSome(skipped)}` : ''
    return settle({ ...outcome, details: `${outcome.details}${note}` }, unfinishedReads)
  },
})

function verdict(judged: readonly Judged[], linked: number): Outcome {
  const failed = judged.filter((entry) => entry.failures.length > 0)
  const warned = judged.filter((entry) => entry.failures.length === 0 && entry.warnings.length > 0)
  const fixes = fixSentence(judged.flatMap((entry) => entry.fixes))
  const occurrences = judged.length
  if (failed.length > 0) {
    const also =
      warned.length > 0
        ? `; also ${listSome(
            warned.flatMap((entry) => entry.warnings),
            2,
          )}`
        : ''
    return fail(
      `${failed.length} of ${judged.length} UI resource(s) cannot be rendered: ${listSome(
        failed.flatMap((entry) => entry.failures),
        4,
      )}${also}`,
      fixes,
      { occurrences },
    )
  }
  if (warned.length > 0)
    return warn(
      `UI resources read back, but ${listSome(
        warned.flatMap((entry) => entry.warnings),
        4,
      )}`,
      fixes,
      { occurrences },
    )
  return pass(
    `${judged.length} UI resource(s) linked by ${linked} tool(s) read back as ${MCP_APP_MIME_TYPE} with a complete HTML document (${listSome(judged.map((entry) => entry.uri))})`,
    { occurrences },
  )
}
