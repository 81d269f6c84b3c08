import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign as signBytes,
  type KeyObject,
} from 'node:crypto'
import type { Config } from '../config.ts'

/** The public half of a signing key as published in /.well-known/jwks.json (RFC 8037, alg per RFC 8037 §3.1). */
export interface PublicJwk {
  kty: 'OKP'
  crv: 'Ed25519'
  x: string
  kid: string
  use: 'sig'
  alg: 'EdDSA'
}

export interface SigningKey {
  /** RFC 7638 JWK SHA-256 thumbprint (RFC 8037 §A.3 for Ed25519), base64url: Web Bot Auth's `keyid`. */
  readonly kid: string
  readonly publicJwk: PublicJwk
  readonly privateKey: KeyObject
  /** Ed25519 signature (64 bytes) over `data`. */
  sign(data: Uint8Array): Uint8Array
}

export interface SigningKeys {
  /** The key that signs; null when SIGNING_KEY is unset, and then nothing is signed. */
  readonly current: SigningKey | null
  /** Retired keys: still published so that recent signatures keep verifying, never used to sign. */
  readonly previous: readonly SigningKey[]
  /** Current first, then previous, each key once. */
  publicJwks(): PublicJwk[]
}

export function loadSigningKeys(config: Pick<Config, 'signingKey' | 'signingKeysPrevious'>): SigningKeys {
  const current = config.signingKey === null ? null : parseSigningKey(config.signingKey, 'SIGNING_KEY')
  const previous = config.signingKeysPrevious.map((material, index) =>
    parseSigningKey(material, `SIGNING_KEYS_PREVIOUS (key ${index + 1})`),
  )
  const published = [...(current ? [current] : []), ...previous].filter(
    (key, index, all) => all.findIndex((other) => other.kid === key.kid) === index,
  )
  return {
    current,
    previous,
    publicJwks: () => published.map((key) => ({ ...key.publicJwk })),
  }
}

/** A fresh Ed25519 private JWK (with its thumbprint as `kid`), as `agent-readiness keygen` prints it. */
export function generateSigningKeyJwk(): string {
  const { privateKey } = generateKeyPairSync('ed25519')
  const { d, x } = privateKey.export({ format: 'jwk' })
  return JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x, d, kid: ed25519Thumbprint(x!) })
}

/** RFC 7638: SHA-256 over the required members in lexicographic order, no whitespace (RFC 8037 §A.3). */
export function ed25519Thumbprint(x: string): string {
  return createHash('sha256')
    .update(JSON.stringify({ crv: 'Ed25519', kty: 'OKP', x }))
    .digest('base64url')
}

/** Parses one private key given as a JWK (JSON) or a PKCS#8 PEM block; `variable` names it in errors. */
function parseSigningKey(material: string, variable: string): SigningKey {
  const text = material.trim()
  let privateKey: KeyObject
  if (text.startsWith('{')) {
    privateKey = privateKeyFromJwk(text, variable)
  } else if (text.startsWith('-----BEGIN')) {
    // Environment files often carry a PEM on one line with literal "\n" separators.
    const pem = text.includes('\n') ? text : text.replaceAll('\\n', '\n')
    try {
      privateKey = createPrivateKey({ key: pem, format: 'pem' })
    } catch (error) {
      throw new Error(`${variable}: the PEM block is not a readable unencrypted PKCS#8 private key (${reason(error)})`)
    }
  } else {
    throw new Error(
      `${variable}: expected an Ed25519 private JWK ({"kty":"OKP","crv":"Ed25519","x":…,"d":…}) or a PKCS#8 PEM block; run \`agent-readiness keygen\` to make one`,
    )
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') {
    throw new Error(
      `${variable}: expected an Ed25519 key, got ${privateKey.asymmetricKeyType ?? 'an unknown key type'}`,
    )
  }
  const x = createPublicKey(privateKey).export({ format: 'jwk' }).x!
  const kid = ed25519Thumbprint(x)
  return {
    kid,
    publicJwk: { kty: 'OKP', crv: 'Ed25519', x, kid, use: 'sig', alg: 'EdDSA' },
    privateKey,
    sign: (data) => new Uint8Array(signBytes(null, data, privateKey)),
  }
}

function privateKeyFromJwk(text: string, variable: string): KeyObject {
  let jwk: unknown
  try {
    jwk = JSON.parse(text)
  } catch (error) {
    throw new Error(`${variable}: not valid JSON (${reason(error)})`)
  }
  if (typeof jwk !== 'object' || jwk === null) throw new Error(`${variable}: expected a JWK object`)
  const { kty, crv, x, d, kid } = jwk as Record<string, unknown>
  if (kty !== 'OKP' || crv !== 'Ed25519') {
    throw new Error(
      `${variable}: expected an Ed25519 key ("kty":"OKP","crv":"Ed25519"), got kty=${String(kty)} crv=${String(crv)}`,
    )
  }
  if (typeof d !== 'string') throw new Error(`${variable}: the JWK has no "d": a private key is needed to sign`)
  if (typeof x !== 'string') throw new Error(`${variable}: the JWK has no "x"`)
  let privateKey: KeyObject
  try {
    privateKey = createPrivateKey({ key: { kty, crv, x, d }, format: 'jwk' })
  } catch (error) {
    throw new Error(`${variable}: the JWK is not a valid Ed25519 private key (${reason(error)})`)
  }
  // A mismatched pair would publish a key that never verifies what we sign.
  if (createPublicKey(privateKey).export({ format: 'jwk' }).x !== x) {
    throw new Error(`${variable}: "x" is not the public key of "d"`)
  }
  // A kid is optional, but one that is not the thumbprint means the JWK was edited or mixed up.
  if (kid !== undefined && kid !== ed25519Thumbprint(x)) {
    throw new Error(`${variable}: "kid" is not the key's JWK thumbprint (expected ${ed25519Thumbprint(x)})`)
  }
  return privateKey
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
