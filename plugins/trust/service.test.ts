import { describe, expect, test } from 'bun:test'
import { createHash, createPublicKey, verify } from 'node:crypto'
import { compactVerify, importJWK } from 'jose'
import { loadSigningKeys } from '../../core/crypto/signing.ts'
import { matchesEtag } from '../../core/etag.ts'
import { canonicalJson, detachedCompact, prefersJose, resultDigest, signJws } from './service.ts'

/** RFC 8785 §3.2.2 input, as JSON text (the escapes and number spellings are the point). */
const RFC8785_INPUT = String.raw`{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}`
// A plain string literal: Bun rewrites non-ASCII characters inside String.raw templates into \u escapes.
const RFC8785_OUTPUT =
  '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'
/** RFC 8785 §3.2.4: the UTF-8 of the output above. */
const RFC8785_OUTPUT_UTF8 = `
  7b 22 6c 69 74 65 72 61 6c 73 22 3a 5b 6e 75 6c 6c 2c 74 72
  75 65 2c 66 61 6c 73 65 5d 2c 22 6e 75 6d 62 65 72 73 22 3a
  5b 33 33 33 33 33 33 33 33 33 2e 33 33 33 33 33 33 33 2c 31
  65 2b 33 30 2c 34 2e 35 2c 30 2e 30 30 32 2c 31 65 2d 32 37
  5d 2c 22 73 74 72 69 6e 67 22 3a 22 e2 82 ac 24 5c 75 30 30
  30 66 5c 6e 41 27 42 5c 22 5c 5c 5c 5c 5c 22 2f 22 7d`

/** RFC 8785 Appendix B: IEEE 754 bit patterns and their canonical spelling. */
const RFC8785_NUMBERS: [hex: string, canonical: string][] = [
  ['0000000000000000', '0'],
  ['8000000000000000', '0'],
  ['0000000000000001', '5e-324'],
  ['8000000000000001', '-5e-324'],
  ['7fefffffffffffff', '1.7976931348623157e+308'],
  ['ffefffffffffffff', '-1.7976931348623157e+308'],
  ['4340000000000000', '9007199254740992'],
  ['c340000000000000', '-9007199254740992'],
  ['4430000000000000', '295147905179352830000'],
  ['44b52d02c7e14af5', '9.999999999999997e+22'],
  ['44b52d02c7e14af6', '1e+23'],
  ['44b52d02c7e14af7', '1.0000000000000001e+23'],
  ['444b1ae4d6e2ef4e', '999999999999999700000'],
  ['444b1ae4d6e2ef4f', '999999999999999900000'],
  ['444b1ae4d6e2ef50', '1e+21'],
  ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
  ['3eb0c6f7a0b5ed8d', '0.000001'],
  ['41b3de4355555553', '333333333.3333332'],
  ['41b3de4355555554', '333333333.33333325'],
  ['41b3de4355555555', '333333333.3333333'],
  ['41b3de4355555556', '333333333.3333334'],
  ['41b3de4355555557', '333333333.33333343'],
  ['becbf647612f3696', '-0.0000033333333333333333'],
  ['43143ff3c1cb0959', '1424953923781206.2'],
]

const fromBits = (hex: string): number => Buffer.from(hex, 'hex').readDoubleBE(0)

describe('canonicalJson (RFC 8785)', () => {
  test('§3.2.2 / §3.2.4: the sample input gives the published output, byte for byte', () => {
    const canonical = canonicalJson(JSON.parse(RFC8785_INPUT))
    expect(canonical).toBe(RFC8785_OUTPUT)
    expect(Buffer.from(canonical, 'utf8').toString('hex')).toBe(RFC8785_OUTPUT_UTF8.replace(/\s+/g, ''))
  })

  test('§3.2.3: members are sorted by UTF-16 code units, at every depth', () => {
    const input = JSON.parse(String.raw`{
      "\u20ac": "Euro Sign",
      "\r": "Carriage Return",
      "\ufb33": "Hebrew Letter Dalet With Dagesh",
      "1": "One",
      "\ud83d\ude00": "Emoji: Grinning Face",
      "\u0080": "Control",
      "\u00f6": "Latin Small Letter O With Diaeresis"
    }`)
    expect(canonicalJson(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    )
    expect(canonicalJson({ b: [{ z: 1, a: 2 }], a: { d: null, c: true } })).toBe(
      '{"a":{"c":true,"d":null},"b":[{"a":2,"z":1}]}',
    )
  })

  test.each(RFC8785_NUMBERS)('Appendix B: %s serializes as %s', (hex, canonical) => {
    expect(canonicalJson(fromBits(hex))).toBe(canonical)
  })

  test('refuses what RFC 8785 refuses and what is not JSON data, instead of converting it', () => {
    expect(() => canonicalJson(fromBits('7fffffffffffffff'))).toThrow('not an I-JSON number') // NaN
    expect(() => canonicalJson(fromBits('7ff0000000000000'))).toThrow('not an I-JSON number') // Infinity
    expect(() => canonicalJson('\ud83d')).toThrow('lone surrogate')
    expect(() => canonicalJson({ '\ude00': 1 })).toThrow('lone surrogate')
    expect(() => canonicalJson([1, undefined])).toThrow('undefined')
    expect(() => canonicalJson({ at: new Date(0) })).toThrow('Date is not plain JSON data')
    expect(() => canonicalJson(new Map())).toThrow('not plain JSON data')
    expect(() => canonicalJson(10n)).toThrow('bigint is not JSON data')
    expect(() => canonicalJson(() => 1)).toThrow('function is not JSON data')
  })

  test('an absent optional member (undefined) is left out, as JSON.stringify does; a paired surrogate is fine', () => {
    expect(canonicalJson({ a: 1, b: undefined })).toBe('{"a":1}')
    expect(canonicalJson(Object.assign(Object.create(null), { x: '😀' }))).toBe('{"x":"😀"}')
  })

  test('resultDigest is sha256:<hex> of the canonical bytes, independent of member order and spelling', () => {
    const expected = `sha256:${createHash('sha256').update(RFC8785_OUTPUT, 'utf8').digest('hex')}`
    expect(resultDigest(JSON.parse(RFC8785_INPUT))).toBe(expected)
    expect(resultDigest({ a: 1, b: 2 })).toBe(resultDigest({ b: 2.0, a: 1 }))
  })
})

/** RFC 8037 Appendix A.1 key (docs/checks.md §17.1). */
const RFC8037_JWK = {
  kty: 'OKP',
  crv: 'Ed25519',
  d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
}
const rfc8037Key = loadSigningKeys({ signingKey: JSON.stringify(RFC8037_JWK), signingKeysPrevious: [] }).current!

describe('signJws', () => {
  const payload = new TextEncoder().encode('Example of Ed25519 signing')

  test('reproduces the RFC 8037 A.4 vector, attached and detached (docs/checks.md §17.1)', () => {
    const jws = signJws(payload, { alg: 'EdDSA' }, rfc8037Key.sign)
    expect(`${jws.protectedHeader}.${jws.payload}.${jws.signature}`).toBe(
      'eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc.hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg',
    )
    expect(detachedCompact(jws)).toBe(
      'eyJhbGciOiJFZERTQSJ9..hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg',
    )
  })

  test('kid and typ go into the protected header in that order; node:crypto and jose both verify', async () => {
    const jws = signJws(payload, { alg: 'EdDSA', kid: rfc8037Key.kid, typ: 'JOSE' }, rfc8037Key.sign)
    expect(Buffer.from(jws.protectedHeader, 'base64url').toString()).toBe(
      `{"alg":"EdDSA","kid":"${rfc8037Key.kid}","typ":"JOSE"}`,
    )
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: RFC8037_JWK.x }, format: 'jwk' })
    const signingInput = Buffer.from(`${jws.protectedHeader}.${jws.payload}`)
    expect(verify(null, signingInput, publicKey, Buffer.from(jws.signature, 'base64url'))).toBe(true)
    const verified = await compactVerify(
      `${jws.protectedHeader}.${jws.payload}.${jws.signature}`,
      await importJWK({ kty: 'OKP', crv: 'Ed25519', x: RFC8037_JWK.x }, 'EdDSA'),
    )
    expect(new TextDecoder().decode(verified.payload)).toBe('Example of Ed25519 signing')
    expect(verified.protectedHeader.kid).toBe(rfc8037Key.kid)
  })
})

describe('prefersJose', () => {
  test.each([
    [null, false],
    ['', false],
    ['*/*', false],
    ['application/json', false],
    ['application/jose', true],
    ['Application/JOSE; charset=utf-8', true],
    ['application/jose, application/json', false],
    ['application/json;q=0.5, application/jose', true],
    ['application/jose;q=0.9, application/json;q=0.8', true],
    ['application/jose;q=0', false],
    ['application/jose;q=abc', false],
    ['text/html, */*;q=0.1, application/jose;q=0.2', true],
  ])('Accept %p → %p', (accept, expected) => {
    expect(prefersJose(accept)).toBe(expected)
  })
})

describe('matchesEtag', () => {
  test.each([
    [null, false],
    ['"abc"', true],
    ['W/"abc"', true],
    ['"x", "abc"', true],
    ['*', true],
    ['"abcd"', false],
    ['abc', false],
  ])('If-None-Match %p against "abc" → %p', (header, expected) => {
    expect(matchesEtag(header, '"abc"')).toBe(expected)
  })
})
