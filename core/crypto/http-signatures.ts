import { createHash } from 'node:crypto'
import { serializeDictionary, serializeInnerList, serializeItem, serializeKey, type Item } from 'structured-headers'

/**
 * The RFC 9421 mechanics Web Bot Auth needs, and only those: component identifiers, the signature base,
 * the Signature / Signature-Input fields and RFC 9530 Content-Digest. Serialization goes through
 * structured-headers so that quoting and escaping follow RFC 8941 exactly; the signature base must be
 * byte-for-byte what a verifier rebuilds from the headers. (The npm `web-bot-auth` 0.1.3 / `http-message-sig`
 * 0.2 pair was not used: it covers `"signature-agent";key="sig1"` with the whole field instead of the member
 * value, so its signatures fail the published dictionary vector, and it signs directories only asynchronously.)
 */

/** A covered component identifier (RFC 9421 §2), e.g. `"signature-agent";key="sig1"` or `"@authority";req`. */
export interface ComponentId {
  name: string
  /** Component parameters in serialization order; `true` is a bare flag such as `req`. */
  params?: Readonly<Record<string, string | true>>
}

/** A covered component together with its value in the message being signed. */
export interface CoveredComponent extends ComponentId {
  value: string
}

/** Signature parameters in the order they are serialized (the order is part of what is signed). */
export type SignatureParams = readonly (readonly [name: string, value: string | number])[]

export interface MessageSignature {
  /** The serialized inner list: the `Signature-Input` member value and the `@signature-params` value. */
  input: string
  /** Exactly the bytes that were signed (RFC 9421 §2.5), as text. */
  base: string
  signature: Uint8Array
}

export function signMessage(
  covered: readonly CoveredComponent[],
  params: SignatureParams,
  sign: (data: Uint8Array) => Uint8Array,
): MessageSignature {
  const input = serializeInnerList([covered.map(componentItem), new Map(params)])
  const lines = covered.map((component) => `${serializeItem(componentItem(component))}: ${component.value}`)
  // The last line has no trailing newline (RFC 9421 §2.5 step 4).
  const base = [...lines, `"@signature-params": ${input}`].join('\n')
  return { input, base, signature: sign(new TextEncoder().encode(base)) }
}

/** `Signature-Input` and `Signature` carrying one member per label, in the given order. */
export function signatureFields(signatures: readonly (readonly [label: string, MessageSignature])[]): {
  'Signature-Input': string
  Signature: string
} {
  return {
    'Signature-Input': signatures.map(([label, { input }]) => `${serializeKey(label)}=${input}`).join(', '),
    Signature: serializeDictionary(
      // Copied into a plain ArrayBuffer-backed array: the only byte form structured-headers is typed to take.
      new Map(
        signatures.map(([label, { signature }]): [string, Item] => [label, [new Uint8Array(signature), new Map()]]),
      ),
    ),
  }
}

/** RFC 9530 `Content-Digest` with sha-256, the algorithm the Web Bot Auth directory draft uses. */
export function contentDigest(body: Uint8Array): string {
  return serializeDictionary({ 'sha-256': [createHash('sha256').update(body).digest(), new Map()] })
}

function componentItem({ name, params }: ComponentId): Item {
  return [name, new Map(Object.entries(params ?? {}))]
}
