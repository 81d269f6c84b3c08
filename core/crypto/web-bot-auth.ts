import { randomBytes } from 'node:crypto'
import { serializeDictionary, serializeItem } from 'structured-headers'
import { contentDigest, signMessage, signatureFields, type CoveredComponent } from './http-signatures.ts'
import type { SigningKey } from './signing.ts'

/**
 * Web Bot Auth (draft-meunier-webbotauth-httpsig-protocol; docs/checks.md §12): the signatures the scanner puts
 * on its own requests, and the proof-of-possession signatures on the service's key directory.
 */

export interface SignableRequest {
  method: string
  /** The URL as the target sees it (the scanned host, never a SCANNER_RESOLVE address). */
  url: string
  /** A request body gets a Content-Digest, and the signature covers it (§12.1). */
  body?: Uint8Array
}

export interface RequestSigner {
  /** The headers to add to this request: Signature-Agent, Signature-Input, Signature (+ Content-Digest). */
  sign(request: SignableRequest): Record<string, string>
}

/** Clock (milliseconds) and nonce source; injectable so that tests can pin the otherwise random output. */
export interface SignatureOptions {
  now?: () => number
  nonce?: () => string
}

const REQUEST_LABEL = 'sig1'
/**
 * Five minutes: ample for clock skew and a redirect chain (every hop is signed afresh), short enough that a
 * captured signature is of little use for replay. The draft only asks for at most 24 hours.
 */
const REQUEST_SIGNATURE_LIFETIME_S = 300
/** 64 random bytes in padded base64, the form of the published vectors and of Cloudflare's implementation. */
const NONCE_BYTES = 64
/** A cached directory must still verify, so this is at least the day the directory is cached for. */
const DIRECTORY_SIGNATURE_LIFETIME_S = 86_400

/**
 * Signs as docs/checks.md §12.4: covers `@authority`, `@method`, `@path` and our `Signature-Agent` member, with
 * created, expires, keyid (the JWK thumbprint), alg, nonce and tag="web-bot-auth". `directoryUrl` is any URL
 * on the service; its origin is what `Signature-Agent` names, where verifiers find
 * /.well-known/http-message-signatures-directory.
 */
export function createRequestSigner(
  key: SigningKey,
  directoryUrl: string,
  options: SignatureOptions = {},
): RequestSigner {
  const now = options.now ?? Date.now
  const nonce = options.nonce ?? (() => randomBytes(NONCE_BYTES).toString('base64'))
  const agentOrigin = new URL(directoryUrl).origin
  const signatureAgent = serializeDictionary({ [REQUEST_LABEL]: agentOrigin })
  // The covered value of `"signature-agent";key="sig1"` is the serialized member value, quotes included.
  const agentMember = serializeItem(agentOrigin)
  return {
    sign({ method, url, body }) {
      const target = new URL(url)
      const created = Math.floor(now() / 1000)
      const digest = body && body.byteLength > 0 ? contentDigest(body) : null
      const covered: CoveredComponent[] = [
        // URL.host is already the normalised authority: lower-case, default port omitted.
        { name: '@authority', value: target.host },
        { name: '@method', value: method.toUpperCase() },
        { name: '@path', value: target.pathname },
        { name: 'signature-agent', params: { key: REQUEST_LABEL }, value: agentMember },
        ...(digest ? [{ name: 'content-digest', value: digest }] : []),
      ]
      const signature = signMessage(
        covered,
        [
          ['created', created],
          ['expires', created + REQUEST_SIGNATURE_LIFETIME_S],
          ['keyid', key.kid],
          ['alg', 'ed25519'],
          ['nonce', nonce()],
          ['tag', 'web-bot-auth'],
        ],
        key.sign,
      )
      return {
        'Signature-Agent': signatureAgent,
        ...(digest ? { 'Content-Digest': digest } : {}),
        ...signatureFields([[REQUEST_LABEL, signature]]),
      }
    },
  }
}

export interface DirectoryResponse {
  /** The authority the directory was requested at, as `URL.host` gives it (lower-case, no default port). */
  authority: string
  /** The exact response body bytes (or text, sent as UTF-8). */
  body: string | Uint8Array
}

export interface DirectorySignatureOptions {
  now?: () => number
  lifetimeSeconds?: number
}

/**
 * Headers for a signed directory response (docs/checks.md §12.3): `Content-Digest` of the body and, per key, a
 * signature labelled binding0, binding1… covering `("@authority";req "content-digest")` with
 * tag="http-message-signatures-directory". The parameters follow the published vector (no `alg`: the key
 * type fixes it). The caller chooses which keys prove possession.
 */
export function signDirectoryResponse(
  keys: readonly SigningKey[],
  response: DirectoryResponse,
  options: DirectorySignatureOptions = {},
): Record<string, string> {
  const body = typeof response.body === 'string' ? new TextEncoder().encode(response.body) : response.body
  const digest = contentDigest(body)
  if (keys.length === 0) return { 'Content-Digest': digest }
  const created = Math.floor((options.now ?? Date.now)() / 1000)
  const expires = created + (options.lifetimeSeconds ?? DIRECTORY_SIGNATURE_LIFETIME_S)
  const covered: CoveredComponent[] = [
    { name: '@authority', params: { req: true }, value: response.authority.toLowerCase() },
    { name: 'content-digest', value: digest },
  ]
  const signatures = keys.map(
    (key, index) =>
      [
        `binding${index}`,
        signMessage(
          covered,
          [
            ['created', created],
            ['expires', expires],
            ['keyid', key.kid],
            ['tag', 'http-message-signatures-directory'],
          ],
          key.sign,
        ),
      ] as const,
  )
  return { 'Content-Digest': digest, ...signatureFields(signatures) }
}
