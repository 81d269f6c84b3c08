import { constants, createHash, createPublicKey, type JsonWebKeyInput, type KeyObject, verify } from 'node:crypto'
import {
  type BareItem,
  type InnerList,
  type Item,
  parseDictionary,
  parseList,
  serializeDictionary,
  serializeInnerList,
  serializeItem,
  serializeList,
} from 'structured-headers'

/**
 * Verification side of RFC 9421 HTTP Message Signatures, RFC 7638/8037 JWK thumbprints and RFC 9530
 * Content-Digest: what checks need to judge a Web Bot Auth key directory (draft-ietf-webbotauth-httpsig-protocol-00). Pure: no
 * network, no clock; the caller decides what "now" is (e.g. the response's Date header).
 */

/** Members RFC 7638 §3.2 (and RFC 8037 §2 for OKP) hash, per key type, in lexicographic order. */
const THUMBPRINT_MEMBERS: Record<string, readonly string[]> = {
  OKP: ['crv', 'kty', 'x'],
  EC: ['crv', 'kty', 'x', 'y'],
  RSA: ['e', 'kty', 'n'],
  oct: ['k', 'kty'],
}

/** The base64url SHA-256 JWK thumbprint, or null when the key lacks a required member. */
export function jwkThumbprint(jwk: Record<string, unknown>): string | null {
  const members = typeof jwk.kty === 'string' ? THUMBPRINT_MEMBERS[jwk.kty] : undefined
  if (!members || members.some((name) => typeof jwk[name] !== 'string')) return null
  // JSON.stringify of string values with no whitespace is exactly the RFC 7638 canonical form.
  const canonical = `{${members.map((name) => `${JSON.stringify(name)}:${JSON.stringify(jwk[name])}`).join(',')}}`
  return createHash('sha256').update(canonical).digest('base64url')
}

/**
 * RFC 9421 Appendix B.1 publishes these key pairs, private halves included, "for testing only": they MUST NOT be
 * used for anything else, so a directory that lists one lets anyone sign as its agent. By JWK thumbprint.
 */
export const RFC9421_TEST_KEYS: Readonly<Record<string, string>> = {
  'BHj8s0GPnMEQtkaULIM-PLgEhLBbuGUQ1vMxmBWZzEo': 'test-key-rsa (B.1.1)',
  'oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA': 'test-key-rsa-pss (B.1.2)',
  'ydQXMtvbsOsZyFir-Y7A8t7fKEM1gbKPvyFkdpu4fvI': 'test-key-ecc-p256 (B.1.3)',
  'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U': 'test-key-ed25519 (B.1.4)',
}

/** The message whose components a signature covers. `request` is the request a response answers (`;req`). */
export interface HttpMessage {
  method?: string
  url: string
  status?: number
  /** Lower-cased names; repeated fields already joined with ", ". */
  headers: Readonly<Record<string, string>>
  request?: HttpMessage
}

export interface SignatureCheck {
  label: string
  /** The covered component identifiers as serialized (`"@authority";req`). */
  components: string[]
  created?: number
  expires?: number
  keyid?: string
  alg?: string
  tag?: string
  verified: boolean
  /** Why it did not verify: a missing component or key, an unsupported algorithm, or a bad signature. */
  problem?: string
}

/** Finds the verification key for a signature's keyid; undefined when there is none. */
export type KeyResolver = (keyid: string | undefined) => Record<string, unknown> | undefined

function serializeMember(member: Item | InnerList): string {
  return Array.isArray(member[0]) ? serializeInnerList(member as InnerList) : serializeItem(member as Item)
}

/** Re-serializes a structured field strictly (`;sf`): as a dictionary, else as a list. */
function strictField(value: string): string | undefined {
  try {
    return serializeDictionary(parseDictionary(value))
  } catch {
    try {
      return serializeList(parseList(value))
    } catch {
      return undefined
    }
  }
}

function derivedComponent(name: string, message: HttpMessage, params: Map<string, BareItem>): string | undefined {
  const url = new URL(message.url)
  switch (name) {
    case '@method':
      return message.method?.toUpperCase()
    case '@authority':
      return url.host
    case '@scheme':
      return url.protocol.slice(0, -1)
    case '@target-uri':
      return url.href
    case '@path':
      return url.pathname || '/'
    case '@query':
      return url.search || '?'
    case '@request-target':
      return `${url.pathname}${url.search}`
    case '@status':
      return message.status === undefined ? undefined : String(message.status)
    case '@query-param': {
      const wanted = params.get('name')
      if (typeof wanted !== 'string') return undefined
      const value = url.searchParams.get(decodeURIComponent(wanted))
      return value === null ? undefined : encodeURIComponent(value)
    }
    default:
      return undefined
  }
}

/** The value of one covered component (RFC 9421 §2.1, §2.2), or undefined when the message lacks it. */
export function componentValue(name: string, params: Map<string, BareItem>, message: HttpMessage): string | undefined {
  const source = params.has('req') ? message.request : message
  if (!source) return undefined
  if (name.startsWith('@')) return derivedComponent(name, source, params)
  const field = source.headers[name.toLowerCase()]
  if (field === undefined) return undefined
  if (params.has('bs') || params.has('tr')) return undefined
  const key = params.get('key')
  if (typeof key === 'string') {
    try {
      const member = parseDictionary(field).get(key)
      return member === undefined ? undefined : serializeMember(member)
    } catch {
      return undefined
    }
  }
  if (params.has('sf')) return strictField(field)
  return field.trim()
}

/** The RFC 9421 algorithm a key implies when the signature names none. */
function impliedAlgorithm(jwk: Record<string, unknown>): string | undefined {
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'ed25519'
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ecdsa-p256-sha256'
  if (jwk.kty === 'EC' && jwk.crv === 'P-384') return 'ecdsa-p384-sha384'
  if (jwk.kty === 'RSA') return jwk.alg === 'RS256' ? 'rsa-v1_5-sha256' : 'rsa-pss-sha512'
  return undefined
}

function verifyBytes(alg: string, key: KeyObject, data: Buffer, signature: Buffer): boolean | string {
  switch (alg) {
    case 'ed25519':
      return verify(null, data, key, signature)
    case 'ecdsa-p256-sha256':
      return verify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature)
    case 'ecdsa-p384-sha384':
      return verify('sha384', data, { key, dsaEncoding: 'ieee-p1363' }, signature)
    case 'rsa-pss-sha512':
      return verify('sha512', data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 }, signature)
    case 'rsa-v1_5-sha256':
      return verify('sha256', data, { key, padding: constants.RSA_PKCS1_PADDING }, signature)
    case 'hmac-sha256':
      return 'hmac-sha256 (a shared secret) is not allowed for Web Bot Auth'
    default:
      return `unknown algorithm "${alg}"`
  }
}

/** Reads the public half of a JWK, whatever else it carries. */
function publicKey(jwk: Record<string, unknown>): KeyObject | null {
  const members = THUMBPRINT_MEMBERS[String(jwk.kty)]
  if (!members || jwk.kty === 'oct') return null
  try {
    return createPublicKey({
      key: Object.fromEntries(members.map((name) => [name, jwk[name]])) as JsonWebKeyInput['key'],
      format: 'jwk',
    })
  } catch {
    return null
  }
}

function integerParam(params: Map<string, BareItem>, name: string): number | undefined {
  const value = params.get(name)
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined
}

function stringParam(params: Map<string, BareItem>, name: string): string | undefined {
  const value = params.get(name)
  return typeof value === 'string' ? value : undefined
}

/** A signature whose parameters cannot be read: it covers nothing known. */
function unreadable(label: string, problem: string): SignatureCheck {
  return { label, components: [], verified: false, problem }
}

/**
 * Verifies every signature in a message's `Signature-Input` / `Signature` pair. An empty list means the
 * message is unsigned; a field that does not parse gives one failed entry labelled `*`.
 */
export function verifyMessageSignatures(message: HttpMessage, resolveKey: KeyResolver): SignatureCheck[] {
  const inputField = message.headers['signature-input']
  const signatureField = message.headers.signature
  if (inputField === undefined && signatureField === undefined) return []
  let inputs: Map<string, Item | InnerList>
  let signatures: Map<string, Item | InnerList>
  try {
    inputs = parseDictionary(inputField ?? '')
    signatures = parseDictionary(signatureField ?? '')
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    return [unreadable('*', `Signature-Input or Signature does not parse: ${reason}`)]
  }
  const checks: SignatureCheck[] = []
  for (const [label, member] of inputs)
    checks.push(verifyOne(label, member, signatures.get(label), message, resolveKey))
  for (const label of signatures.keys()) {
    if (!inputs.has(label)) checks.push(unreadable(label, `Signature "${label}" has no Signature-Input`))
  }
  return checks
}

function verifyOne(
  label: string,
  member: Item | InnerList,
  signatureMember: Item | InnerList | undefined,
  message: HttpMessage,
  resolveKey: KeyResolver,
): SignatureCheck {
  if (!Array.isArray(member[0])) return unreadable(label, 'the Signature-Input member is not an inner list')
  const [items, params] = member as InnerList
  const check: SignatureCheck = {
    label,
    components: items.map((item) => serializeItem(item)),
    created: integerParam(params, 'created'),
    expires: integerParam(params, 'expires'),
    keyid: stringParam(params, 'keyid'),
    alg: stringParam(params, 'alg'),
    tag: stringParam(params, 'tag'),
    verified: false,
  }
  const signature = signatureMember?.[0]
  if (!(signature instanceof ArrayBuffer)) return { ...check, problem: 'no byte-sequence Signature for this label' }
  const lines: string[] = []
  for (const item of items) {
    const [name, componentParams] = item
    const value = typeof name === 'string' ? componentValue(name, componentParams, message) : undefined
    if (value === undefined)
      return { ...check, problem: `covered component ${serializeItem(item)} is missing from the message` }
    lines.push(`${serializeItem(item)}: ${value}`)
  }
  // RFC 9421 §2.5: the last line is the signature parameters, with no trailing newline.
  lines.push(`"@signature-params": ${serializeInnerList(member as InnerList)}`)
  const jwk = resolveKey(check.keyid)
  if (!jwk) return { ...check, problem: `no key with keyid "${check.keyid ?? '(none)'}"` }
  const key = publicKey(jwk)
  if (!key) return { ...check, problem: `the key "${check.keyid ?? '(none)'}" is not a usable public key` }
  const alg = check.alg ?? impliedAlgorithm(jwk)
  if (!alg) return { ...check, problem: 'no algorithm named and none implied by the key' }
  let outcome: boolean | string
  try {
    outcome = verifyBytes(alg, key, Buffer.from(lines.join('\n')), Buffer.from(signature))
  } catch (error) {
    outcome = `verification failed: ${error instanceof Error ? error.message : String(error)}`
  }
  if (outcome === true) return { ...check, verified: true }
  return {
    ...check,
    problem: typeof outcome === 'string' ? outcome : 'the signature does not match the signature base',
  }
}

const DIGESTS: Record<string, string> = { 'sha-256': 'sha256', 'sha-512': 'sha512' }

/**
 * Checks an RFC 9530 `Content-Digest` against the body: true when every supported digest matches, false when
 * one does not (or the field does not parse), null when it names no algorithm this verifier knows.
 */
export function verifyContentDigest(field: string, body: Uint8Array): boolean | null {
  let digests: Map<string, Item | InnerList>
  try {
    digests = parseDictionary(field)
  } catch {
    return false
  }
  let checked = false
  for (const [name, member] of digests) {
    const algorithm = DIGESTS[name]
    if (!algorithm) continue
    const expected = member[0]
    if (!(expected instanceof ArrayBuffer)) return false
    if (!createHash(algorithm).update(body).digest().equals(Buffer.from(expected))) return false
    checked = true
  }
  return checked ? true : null
}
