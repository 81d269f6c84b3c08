// An XML sitemap is discoverable (robots.txt Sitemap: line or a conventional path), well-formed, and its first URL resolves.
// Spec: https://www.sitemaps.org/protocol.html
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { listSome, pathOf } from '../../core/engine/lib/describe.ts'
import { unreachable } from '../lib/outcomes.ts'

/** Found only by guessing /sitemap.xml while robots.txt names no sitemap: a small deduction. */
const UNDECLARED_FRACTION = 0.75

export default defineCheck({
  meta: {
    id: 'sitemap-xml',
    name: 'XML sitemap discoverable',
    description:
      'A sitemap lists the pages an agent or crawler can fetch without spidering the site; robots.txt should point to it.',
    layer: 'discovery',
    applicability: 'domain-only',
    tier: 'required',
    maturity: 'verified',
    maxScore: 8,
    specUrl: 'https://www.sitemaps.org/protocol.html',
    recommendation:
      'Publish /sitemap.xml (a sitemaps.org 0.9 urlset or sitemapindex) and reference it with a "Sitemap:" line in robots.txt.',
    needs: ['sitemap'],
  },
  run({ sitemap }, { target }) {
    const attempts = (sitemap.attempts ?? []).map(
      (attempt) =>
        `${pathOf(attempt.url)} → ${attempt.status ?? 'unreachable'}${attempt.note ? ` (${attempt.note})` : ''}`,
    )
    const triedText = attempts.length > 0 ? listSome(attempts, 5) : listSome(sitemap.tried.map(pathOf), 5)
    if (!sitemap.url || !sitemap.response) {
      if (attempts.length > 0 && (sitemap.attempts ?? []).every((attempt) => attempt.status === null)) {
        return unreachable(`No sitemap candidate could be fetched: ${triedText}`)
      }
      return fail(
        `No sitemap found; tried ${triedText}`,
        `Publish ${target.origin}/sitemap.xml listing your public pages and add "Sitemap: ${target.origin}/sitemap.xml" to robots.txt.`,
      )
    }
    const where = pathOf(sitemap.url)
    const via = sitemap.source === 'robots' ? 'declared in robots.txt' : 'found at a conventional path'
    if (sitemap.compressed) {
      return warn(
        `Sitemap ${sitemap.url} (${via}) is gzip-compressed; its content could not be inspected, so its URLs were not verified`,
        `Also serve an uncompressed ${target.origin}/sitemap.xml (or a sitemap index), so agents that do not decompress can read it.`,
      )
    }
    const parsed = sitemap.parsed
    if (!parsed || (!parsed.wellFormed && !parsed.plainText)) {
      return fail(
        `Sitemap ${where} (${via}) answered ${sitemap.response.status} but is not well-formed XML`,
        `Fix ${where}: it must be XML with a <urlset> or <sitemapindex> root in the http://www.sitemaps.org/schemas/sitemap/0.9 namespace, with & escaped as &amp;.`,
      )
    }
    if (!parsed.plainText && parsed.root === 'other') {
      return fail(
        `Sitemap ${where} is XML but its root element is neither <urlset> nor <sitemapindex>`,
        `Make ${where} a sitemaps.org document: <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"> with <url><loc> entries.`,
      )
    }
    if (parsed.locs.length === 0) {
      return fail(
        `Sitemap ${where} (${via}) lists no <loc> URL`,
        `Add your public pages to ${where} as <url><loc>…</loc></url> entries.`,
      )
    }

    const kind = parsed.plainText ? 'plain-text sitemap' : parsed.root === 'sitemapindex' ? 'sitemap index' : 'urlset'
    const summary = `${kind} at ${where} (${via}) with ${parsed.locs.length}${parsed.overLimits ? '+' : ''} <loc> entr${parsed.locs.length === 1 ? 'y' : 'ies'}`
    const problems: string[] = []
    const fixes: string[] = []
    if (parsed.plainText) {
      problems.push('it is a plain-text list, which carries no lastmod or index structure')
      fixes.push('serve an XML urlset instead of a text list')
    } else if (!parsed.namespaceOk) {
      problems.push('the root lacks the sitemaps.org 0.9 namespace')
      fixes.push('add xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" to the root element')
    }
    const foreign = foreignLocs(parsed.locs, sitemap.url, sitemap.source === 'robots' ? target.origin : null)
    if (foreign.length > 0) {
      problems.push(`${foreign.length} <loc> on another host (e.g. ${foreign[0]})`)
      fixes.push('list only URLs on the sitemap’s own host')
    }
    if (parsed.invalidLastmod > 0) {
      problems.push(`${parsed.invalidLastmod} <lastmod> value(s) not in W3C Datetime format`)
      fixes.push('write <lastmod> as YYYY-MM-DD or a full W3C datetime with a time zone')
    }
    if (parsed.overLimits) {
      problems.push('it exceeds 50,000 URLs or 50 MB')
      fixes.push('split it into several sitemaps under a sitemap index')
    }
    const declared = sitemap.robotsSitemaps ?? []
    if (sitemap.source === 'guess' && declared.length > 0) {
      problems.push(`robots.txt declares ${listSome(declared)}, which did not give a readable sitemap`)
      fixes.push(`point the robots.txt Sitemap: line at ${sitemap.url}`)
    }
    const first = sitemap.firstLoc
    if (first && first.status !== null && (first.status < 200 || first.status >= 300)) {
      problems.push(`its first URL ${first.url} answers ${first.status}`)
      fixes.push('remove or fix URLs that do not answer 200')
    }
    const notes: string[] = []
    if (first?.status === null)
      notes.push(`its first URL ${first.url} could not be fetched (${first.error ?? 'unreachable'})`)
    if (parsed.partial) notes.push('only the first 10 MiB were read, so well-formedness was not verified')
    const noteText = notes.length > 0 ? `; note: ${notes.join('; ')}` : ''

    if (problems.length > 0) {
      return warn(`Found a ${summary}, but ${problems.join('; ')}${noteText}`, `In ${where}: ${fixes.join('; ')}.`)
    }
    if (sitemap.source === 'guess') {
      return warn(
        `Found a valid ${summary}, but robots.txt has no Sitemap: line pointing to it${noteText}`,
        `Add "Sitemap: ${sitemap.url}" to ${target.origin}/robots.txt so agents find the sitemap without guessing.`,
        { fraction: UNDECLARED_FRACTION },
      )
    }
    const firstText = first?.status ? `; the first URL answers ${first.status}` : ''
    return pass(`Valid ${summary}${firstText}${noteText}`)
  },
})

/** <loc>s on a host other than the sitemap's (or, for a robots.txt reference, the referring site's). */
function foreignLocs(locs: readonly string[], sitemapUrl: string, referrerOrigin: string | null): string[] {
  const allowed = new Set([new URL(sitemapUrl).host])
  if (referrerOrigin) allowed.add(new URL(referrerOrigin).host)
  return locs.filter((loc) => {
    try {
      return !allowed.has(new URL(loc, sitemapUrl).host)
    } catch {
      return true
    }
  })
}
