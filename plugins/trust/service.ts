import { createHash } from 'node:crypto'
import type { Config } from '../../core/config.ts'
import { CONTRACT_VERSION } from '../../core/version.ts'
import type { SigningKey, SigningKeys } from '../../core/crypto/signing.ts'
import { normalizeInput } from '../../core/engine/target.ts'
import { type Serialized, serialize } from '../../core/etag.ts'
import { AppError } from '../../core/errors.ts'
import type { ScanRepository } from '../scan/public.ts'
import { ATTESTATION_TYPE, type AttestationPayload, type AttestationResponse, JOSE_MEDIA_TYPE } from './model.ts'

/**
 * The service's signed scorecard attestations (docs/checks.md §17.1) and its JSON Web Key Set. An attestation is a
 * detached compact JWS (RFC 7515 Appendix F) over the RFC 8785 canonical bytes of a small payload that binds a
 * domain's score to a digest of the stored scan result, so that re-serialising the JSON can never break it.
 */

// ---------------------------------------------------------------------------------------------------------------
// RFC 8785 JSON Canonicalization Scheme

/**
 * RFC 8785 canonical JSON text of a JSON value. Written here rather than taken from the `canonicalize` package
 * because the whole scheme is ECMAScript's own serialization plus sorted keys (RFC 8785 §3.2.2 defines strings and
 * numbers exactly as `JSON.stringify` writes them), and because this version refuses what RFC 8785 refuses
 * (non-finite numbers, lone surrogates) and anything that is not plain JSON data (a Date, a Map, a function)
 * instead of converting it silently: a signature over a silently converted value would attest something else.
 * Object members whose value is `undefined` are absent, as in `JSON.stringify`.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value)
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`RFC 8785: ${value} is not an I-JSON number`)
    return JSON.stringify(value)
  }
  if (typeof value === 'string') {
    // With the u flag, a surrogate code unit only matches when it is not half of a pair.
    if (/[\uD800-\uDFFF]/u.test(value)) throw new TypeError('RFC 8785: a string holds a lone surrogate')
    return JSON.stringify(value)
  }
  if (Array.isArray(value)) {
    return `[${value
      .map((item) => {
        if (item === undefined) throw new TypeError('RFC 8785: an array holds undefined')
        return canonicalJson(item)
      })
      .join(',')}]`
  }
  if (typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value)
    if (prototype !== Object.prototype && prototype !== null) {
      throw new TypeError(`RFC 8785: ${prototype?.constructor?.name ?? 'this object'} is not plain JSON data`)
    }
    // JavaScript compares strings by UTF-16 code units, which is exactly the order RFC 8785 §3.2.3 asks for.
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${members.map(([key, member]) => `${canonicalJson(key)}:${canonicalJson(member)}`).join(',')}}`
  }
  throw new TypeError(`RFC 8785: a ${typeof value} is not JSON data`)
}

/**
 * `sha256:<hex>` of the canonical bytes. Taken over the result as stored (internal bookkeeping included), it pins an
 * attestation to exactly one stored record, whatever later reshaping the read routes apply.
 */
export function resultDigest(result: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(result), 'utf8').digest('hex')}`
}

// ---------------------------------------------------------------------------------------------------------------
// JWS (RFC 7515, EdDSA per RFC 8037)

/** The protected header, serialized in this member order. `b64` stays at its default: Appendix F, not RFC 7797. */
export interface JwsHeader {
  alg: 'EdDSA'
  kid?: string
  typ?: string
}

/** The three BASE64URL segments of a compact JWS. */
export interface JwsParts {
  protectedHeader: string
  payload: string
  signature: string
}

/** Signs `BASE64URL(UTF8(header)) || '.' || BASE64URL(payload)` (RFC 7515 §5.1) with an Ed25519 key. */
export function signJws(payload: Uint8Array, header: JwsHeader, sign: SigningKey['sign']): JwsParts {
  const protectedHeader = Buffer.from(JSON.stringify(header), 'utf8').toString('base64url')
  const encodedPayload = Buffer.from(payload).toString('base64url')
  const signature = sign(new TextEncoder().encode(`${protectedHeader}.${encodedPayload}`))
  return { protectedHeader, payload: encodedPayload, signature: Buffer.from(signature).toString('base64url') }
}

/** RFC 7515 Appendix F: the compact serialization with the payload segment left empty. */
export function detachedCompact(jws: JwsParts): string {
  return `${jws.protectedHeader}..${jws.signature}`
}

// ---------------------------------------------------------------------------------------------------------------
// Scorecard attestations

export interface Attestation {
  body: AttestationResponse
  /** The detached compact JWS; null when no signing key is configured. */
  jws: string | null
  /** Partial results change within minutes: they must not sit in a shared cache. */
  cacheable: boolean
}

export interface AttestationContext {
  scans: Pick<ScanRepository, 'latest'>
  config: Pick<Config, 'publicBaseUrl'>
  signing: Pick<SigningKeys, 'current'>
}

/**
 * The attestation of a domain's newest measured scan. Ephemeral results are not attested: they are disposable
 * (deleted after a few days, kept out of every public listing), and a signed statement would outlive them and
 * could be replayed for whoever holds the hostname next, typically a tunnel name.
 */
export async function attestationFor(context: AttestationContext, input: string): Promise<Attestation> {
  const { domain } = normalizeInput(input)
  const row = await context.scans.latest(domain)
  if (!row || row.ephemeral || !row.result) throw notAttested(domain, row?.ephemeral === true)
  const result = row.result
  const payload: AttestationPayload = {
    type: ATTESTATION_TYPE,
    issuer: context.config.publicBaseUrl,
    domain,
    url: result.url,
    urlKind: result.urlKind,
    mcpUrl: result.mcpUrl ?? null,
    score: result.score,
    grade: result.grade,
    analysisStatus: result.analysisStatus,
    contractVersion: CONTRACT_VERSION,
    scannedAt: result.scannedAt,
    // When the attested result was last written, not when this request came: with Ed25519 being deterministic, a
    // stored result and a key always give the same bytes, so the bare JWS (application/jose) of one request
    // verifies against the payload of another, and caches and ETags hold.
    generatedAt: row.updatedAt.toISOString(),
    resultDigest: resultDigest(result),
  }
  const canonical = canonicalJson(payload)
  // Parsed back from the canonical text, the payload keeps its canonical member order, so the `payload` member of
  // the response body is, byte for byte, the text that was signed.
  const canonicalPayload = JSON.parse(canonical) as AttestationPayload
  const cacheable = result.analysisStatus === 'complete'
  const key = context.signing.current
  if (!key) return { body: { signed: false, payload: canonicalPayload }, jws: null, cacheable }
  const jws = detachedCompact(
    signJws(new TextEncoder().encode(canonical), { alg: 'EdDSA', kid: key.kid, typ: 'JOSE' }, key.sign),
  )
  return {
    body: {
      signed: true,
      payload: canonicalPayload,
      jws,
      kid: key.kid,
      alg: 'EdDSA',
      jwksUri: `${context.config.publicBaseUrl}/.well-known/jwks.json`,
      mediaType: JOSE_MEDIA_TYPE,
    },
    jws,
    cacheable,
  }
}

function notAttested(domain: string, ephemeralOnly: boolean): AppError {
  return new AppError('NOT_FOUND', {
    message: ephemeralOnly
      ? `${domain} has only an ephemeral result, which is never attested`
      : `${domain} has no score yet`,
    // The ARD recovery pointer, in the shape of the score route's `next_action`.
    extra: {
      next: {
        method: 'POST',
        endpoint: '/api/scan',
        body: { url: domain },
        description: 'Scan the domain to store a score; its attestation follows',
      },
    },
  })
}

/**
 * Whether the caller asked for the bare compact JWS: `application/jose` named with a higher weight than
 * `application/json`. Wildcards do not count, so a browser's `*∕*` still gets the JSON document.
 */
export function prefersJose(accept: string | null): boolean {
  if (!accept) return false
  let jose = 0
  let json = 0
  for (const range of accept.split(',')) {
    const [mediaType = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase())
    const q = parameters.find((parameter) => parameter.startsWith('q='))
    const weight = q === undefined ? 1 : Number(q.slice(2))
    if (!Number.isFinite(weight)) continue
    if (mediaType === JOSE_MEDIA_TYPE) jose = Math.max(jose, weight)
    if (mediaType === 'application/json') json = Math.max(json, weight)
  }
  return jose > json
}

// ---------------------------------------------------------------------------------------------------------------
// JSON Web Key Set

/**
 * Current key first, then the retired ones (RFC 7517 §5), serialized once: the set only changes with the
 * configuration, which needs a restart.
 */
export function serializeJwks(signing: Pick<SigningKeys, 'publicJwks'>): Serialized {
  return serialize({ keys: signing.publicJwks() })
}
