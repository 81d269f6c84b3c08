import type { WebBotAuthConfig } from './config.ts'
import { SERVICE_NAME } from '../../core/version.ts'
import type { SigningKeys } from '../../core/crypto/signing.ts'
import { type DirectorySignatureOptions, signDirectoryResponse } from '../../core/crypto/web-bot-auth.ts'
import { type Serialized, serialize } from '../../core/etag.ts'
import type { Directory } from './model.ts'

/**
 * The service's Web Bot Auth key directory (docs/checks.md §12.3, §17.2): where a site that received one of our signed
 * scanner requests resolves its `keyid`. The `Signature-Agent` our scanner sends names PUBLIC_BASE_URL's origin,
 * and verifiers fetch /.well-known/http-message-signatures-directory there.
 */

const PURPOSE =
  'Measures how ready websites and MCP servers are for AI agents. When someone requests a scan, it fetches the public pages, well-known files and MCP endpoints of that one site, scores them and publishes the result.'

export function buildDirectory(
  config: Pick<WebBotAuthConfig, 'publicBaseUrl' | 'contactEmail'>,
  signing: Pick<SigningKeys, 'publicJwks'>,
): Directory {
  return {
    client_name: SERVICE_NAME,
    homepage_uri: config.publicBaseUrl,
    contact_email: config.contactEmail,
    purpose: PURPOSE,
    // Member order of the draft's published example; `alg: EdDSA` (a JOSE name) is left out on purpose.
    keys: signing.publicJwks().map(({ kty, crv, kid, x, use }) => ({ kty, crv, kid, x, use })),
    client_uri: config.publicBaseUrl,
    contacts: [config.contactEmail],
    // Only what holds for every signed request. No `expected-user-agent`: some fetches deliberately send a
    // browser's User-Agent to see what browsers get. No `rfc9309-*`: the scanner audits robots.txt rather than
    // obeying it on the one site it was asked to scan.
    web_bot_auth: { trigger: 'fetcher' },
  }
}

/** Serialized once: the directory only changes with the configuration, which needs a restart. */
export function serializeDirectory(directory: Directory): Serialized {
  // The exact bytes sent, which the Content-Digest and the signatures cover.
  return serialize(directory)
}

/**
 * Content-Digest and, when a key is configured, the proof-of-possession signature (§12.3). Only the current key
 * signs: a retired key stays published for verifiers of recent requests but never signs again. `authority` is the
 * service's public authority, never the request's Host: signing whatever authority a requester names would hand
 * any host a valid proof that it holds our key.
 */
export function directorySignatureHeaders(
  directory: Serialized,
  signing: Pick<SigningKeys, 'current'>,
  authority: string,
  options: DirectorySignatureOptions = {},
): Record<string, string> {
  return signDirectoryResponse(signing.current ? [signing.current] : [], { authority, body: directory.body }, options)
}
