// Markdown versions of pages are advertised (<link rel="alternate" type="text/markdown">, a Link header) or sit at
// <page>.md: llmstxt.org v2 (August 2026) takes `page.md` in place of the extension as well as `page.html.md`, and
// `index.html.md` or `index.md` for a directory URL; the collector probes each. Spec: https://llmstxt.org/#proposal
// (and RFC 8288 for the Link header)
import { markdownServed } from '../../core/engine/collectors/markdown.ts'
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { noProbeAnswered, unreachable } from '../lib/outcomes.ts'
import { pageLabel } from '../lib/page-label.ts'

const VIA = {
  'link-element': '<link rel="alternate" type="text/markdown">',
  'link-header': 'a Link header',
  conventional: 'the conventional path',
} as const

export default defineCheck({
  meta: {
    id: 'markdown-alternates',
    name: 'Markdown page variants advertised',
    description:
      'A markdown twin of each page (advertised with rel="alternate" type="text/markdown", or at <page>.md or <page>.html.md) lets agents read clean text without parsing HTML.',
    layer: 'accessibility',
    applicability: 'domain-only',
    tier: 'recommended',
    maturity: 'verified',
    maxScore: 3,
    specUrl: 'https://llmstxt.org/#proposal',
    recommendation:
      'Publish a markdown version of each page at <page>.md or <page>.html.md (/index.html.md or /index.md for the homepage) and advertise it with <link rel="alternate" type="text/markdown" href="…"> in <head>.',
    scope: 'page',
    needs: ['markdownVariants'],
  },
  run({ markdownVariants }, context) {
    const { advertised, probes } = markdownVariants
    const outcome = (probe: (typeof probes)[number]) =>
      probe.response
        ? `${probe.response.status} ${probe.response.contentType || 'no content type'}`
        : `failed (${probe.error ?? 'no response'})`
    const working = probes.filter((probe) => probe.response && markdownServed(probe.response))
    const brokenAdvertised = probes.filter((probe) => probe.via !== 'conventional' && !working.includes(probe))
    const path = (url: string) => new URL(url).pathname
    if (working.length && !brokenAdvertised.length) {
      const first = working[0]!
      const more =
        working.length > 1
          ? ` (also ${working
              .slice(1)
              .map((probe) => path(probe.url))
              .join(', ')})`
          : ''
      return pass(`Markdown at ${path(first.url)} via ${VIA[first.via]}: ${outcome(first)}${more}`)
    }
    if (brokenAdvertised.length) {
      const broken = brokenAdvertised
        .map((probe) => `${probe.url} (via ${VIA[probe.via]}) answered ${outcome(probe)}`)
        .join('; ')
      const alsoWorking = working.length
        ? `; markdown does exist at ${working.map((probe) => path(probe.url)).join(', ')}`
        : ''
      return warn(
        `The advertised markdown alternate does not serve markdown: ${broken}${alsoWorking}`,
        `Make ${brokenAdvertised.map((probe) => probe.url).join(', ')} return the page as markdown (200, Content-Type: text/markdown), or point the alternate link at a URL that does.`,
      )
    }
    if (noProbeAnswered(probes)) {
      return unreachable(
        `No markdown probe completed: ${probes.map((probe) => `${path(probe.url)} ${outcome(probe)}`).join(', ')}`,
      )
    }
    const tried = probes.map((probe) => `${path(probe.url)} ${outcome(probe)}`).join(', ')
    return fail(
      `No markdown alternate: ${advertised.length ? '' : 'none advertised in <head> or the Link header; '}tried ${tried || 'nothing'}`,
      context.page === undefined
        ? 'Serve the homepage as markdown at /index.html.md (and each page at <page>.md), and add <link rel="alternate" type="text/markdown" href="/index.html.md"> to the <head>.'
        : `Serve the ${pageLabel(context)} as markdown at its own URL plus .md (and each page at <page>.md), and add <link rel="alternate" type="text/markdown" href="…"> to its <head>.`,
    )
  },
})
