import { defineCollector } from '../check.ts'
import { discoveryRelations, parseLinkHeader, type WebLink } from '../lib/links.ts'
import { acceptFor } from '../lib/media-types.ts'
import { settle } from './lib/fetch.ts'
import { fetchSnapshot } from '../snapshot.ts'
import type { ScanSession } from '../../outbound/session.ts'

/** Discovery relations from the homepage's Link header, with the status of each target (HEAD, then GET). */
export interface LinkHeaderArtifact {
  raw: string | null
  links: WebLink[]
  /** Up to 6 targets of discovery relations, probed. */
  targets: { href: string; rel: string[]; status: number | null; error?: string }[]
}

const MAX_TARGETS = 6
/** HEAD answers that say nothing about the resource: ask again with GET. */
const HEAD_UNSUPPORTED = new Set([400, 403, 404, 405, 501])

/** HEAD first (cheap); GET when HEAD is refused or unsupported, since many servers mishandle HEAD. */
async function probeTarget(http: ScanSession, link: WebLink): Promise<{ status: number | null; error?: string }> {
  const headers = { accept: acceptFor(link.type) }
  const head = await settle(fetchSnapshot(http, link.href, { method: 'HEAD', headers }))
  if (head.response && !HEAD_UNSUPPORTED.has(head.response.status)) return { status: head.response.status }
  const { response, error } = await settle(fetchSnapshot(http, link.href, { headers }))
  return response ? { status: response.status } : { status: null, error }
}

export const linkHeaderCollector = defineCollector({
  key: 'linkHeader',
  async collect({ http, get }) {
    const homepage = await get('homepage')
    const raw = homepage.headers.link ?? null
    const links = parseLinkHeader(raw, homepage.url)
    const seen = new Set<string>()
    const discovery = links.filter((link) => {
      if (discoveryRelations(link).length === 0 || seen.has(link.href)) return false
      seen.add(link.href)
      return true
    })
    const targets = await Promise.all(
      discovery
        .slice(0, MAX_TARGETS)
        .map(async (link) => ({ href: link.href, rel: link.rel, ...(await probeTarget(http, link)) })),
    )
    return { raw, links, targets }
  },
})
