import type { ArtifactKey, ArtifactMap } from '../artifacts.ts'
import { type Collector, defineCollector } from '../check.ts'
import { fetchSnapshot, type HttpSnapshot } from '../snapshot.ts'
import type { RequestOptions } from '../../outbound/client.ts'

type SnapshotKey = { [K in ArtifactKey]: ArtifactMap[K] extends HttpSnapshot ? K : never }[ArtifactKey]

/** A collector that fetches one path on the target origin and hands over the response as it came. */
function documentAt<K extends SnapshotKey>(key: K, path: string, options: RequestOptions = {}): Collector<K> {
  return defineCollector({
    key,
    async collect({ http, target }) {
      return fetchSnapshot(http, new URL(path, target.origin).href, options) as Promise<ArtifactMap[K]>
    },
  })
}

/** Accept for text documents: plain text or markdown, whatever else comes is still read. */
export const TEXT = { headers: { accept: 'text/plain, text/markdown;q=0.9, */*;q=0.1' } }
/**
 * Small JSON manifests: a megabyte is far beyond any of them, and a body cut there is judged as the JSON it then
 * is not. Reading no more leaves the scan's byte budget to the documents that can be large.
 */
const MANIFEST_MAX_BYTES = 1024 * 1024
const JSON_ONLY = { headers: { accept: 'application/json' }, maxBytes: MANIFEST_MAX_BYTES }
export const llmsFullTxtCollector = documentAt('llmsFullTxt', '/llms-full.txt', TEXT)
export const aiTxtCollector = documentAt('aiTxt', '/ai.txt', TEXT)
export const aiPluginCollector = documentAt('aiPlugin', '/.well-known/ai-plugin.json', JSON_ONLY)
export const agentsJsonCollector = documentAt('agentsJson', '/.well-known/agents.json', JSON_ONLY)
export const nlwebCollector = documentAt('nlweb', '/ask?query=test', JSON_ONLY)
export const acpCollector = documentAt('acp', '/.well-known/acp.json', JSON_ONLY)
export const ucpCollector = documentAt('ucp', '/.well-known/ucp', JSON_ONLY)
// Key discovery MUST NOT follow redirects (draft-ietf-webbotauth-httpsig-protocol-00, Key Distribution and Discovery).
export const wbaDirectoryCollector = documentAt('wbaDirectory', '/.well-known/http-message-signatures-directory', {
  headers: { accept: 'application/http-message-signatures-directory+json, application/json;q=0.9' },
  redirect: 'manual',
  maxBytes: MANIFEST_MAX_BYTES,
})
