// WebMCP: the page registers tools for in-browser agents, imperatively (modelContext.registerTool) or declaratively
// (<form toolname tooldescription>). Spec: https://webmachinelearning.github.io/webmcp/
import type { CheerioAPI } from 'cheerio'
import { defineCheck, fail, pass } from '../../core/engine/check.ts'

const REGISTER_TOOL = /\bmodelContext\s*\.\s*registerTool\s*\(/

export default defineCheck({
  meta: {
    id: 'webmcp-tools',
    name: 'WebMCP tools declared',
    description:
      'WebMCP lets a page hand in-browser agents typed tools (search, add to cart, book) instead of making them click through the UI.',
    layer: 'usability',
    applicability: 'domain-only',
    tier: 'emerging',
    maturity: 'emerging',
    bonus: true,
    draft: true,
    maxScore: 2,
    specUrl: 'https://webmachinelearning.github.io/webmcp/',
    recommendation:
      'Register the page’s main actions as WebMCP tools: navigator.modelContext.registerTool({name, description, inputSchema, execute}), or add toolname and tooldescription attributes to its key forms.',
    needs: ['rendered', 'homepage'],
    deep: true,
  },
  run({ rendered, homepage }) {
    const runtime = rendered.webmcpTools
    const described = runtime.filter((tool) => tool.description?.trim())
    const forms = toolForms(homepage.$, rendered.$)
    const describedForms = forms.filter((form) => form.description)
    const scripted = [homepage.$, rendered.$].some(($) => inlineScripts($).some((code) => REGISTER_TOOL.test(code)))

    const found: string[] = []
    if (runtime.length > 0)
      found.push(
        `${runtime.length} tool(s) registered at runtime (${runtime
          .map((tool) => tool.name)
          .slice(0, 5)
          .join(', ')})`,
      )
    if (forms.length > 0)
      found.push(
        `${forms.length} form(s) with toolname (${forms
          .map((form) => form.name)
          .slice(0, 5)
          .join(', ')})`,
      )
    if (scripted) found.push('an inline script calling modelContext.registerTool(')

    if (described.length > 0 || describedForms.length > 0 || (scripted && runtime.length === 0)) {
      const undescribed = runtime.length - described.length + forms.length - describedForms.length
      const note = undescribed > 0 ? `; ${undescribed} tool(s) lack a description` : ''
      return pass(`WebMCP: ${found.join('; ')}${note}`)
    }
    if (found.length > 0) {
      return fail(
        `WebMCP tools found (${found.join('; ')}) but none has a description, so an agent cannot tell what they do`,
        `Add a description to ${[...runtime.map((tool) => `the "${tool.name}" tool`), ...forms.map((form) => `tooldescription to <form toolname="${form.name}">`)].slice(0, 3).join(', ')}.`,
      )
    }
    return fail(
      `No WebMCP tools on ${rendered.url}: nothing registered through modelContext during load, no <form toolname>, no registerTool call in inline scripts`,
      `Expose the homepage's main actions to in-browser agents: add toolname="…" and tooldescription="…" to its forms${homepage.$('form').length > 0 ? ` (it has ${homepage.$('form').length})` : ''}, or call navigator.modelContext.registerTool({name, description, inputSchema, execute}).`,
    )
  },
})

function toolForms(...documents: CheerioAPI[]): { name: string; description: string }[] {
  const forms = new Map<string, string>()
  for (const $ of documents) {
    $('form[toolname]').each((_, element) => {
      const name = $(element).attr('toolname')?.trim() ?? ''
      const description = $(element).attr('tooldescription')?.trim() ?? ''
      if (name && !forms.get(name)) forms.set(name, description)
    })
  }
  return [...forms].map(([name, description]) => ({ name, description }))
}

function inlineScripts($: CheerioAPI): string[] {
  return $('script:not([src])')
    .toArray()
    .map((element) => $(element).text())
}
