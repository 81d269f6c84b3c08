import { describe, expect, test } from 'bun:test'
import { createPublicKey } from 'node:crypto'
import {
  jwkThumbprint,
  RFC9421_TEST_KEYS,
  verifyContentDigest,
  verifyMessageSignatures,
} from './http-signature-verify.ts'

// RFC 9421 Appendix B.1.4 Ed25519 test key and the test vectors of draft-ietf-webbotauth-httpsig-protocol-00.
const TEST_KEY = { kty: 'OKP', crv: 'Ed25519', x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs' }
const KID = 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U'
const keys = (keyid: string | undefined) => (keyid === KID ? TEST_KEY : undefined)

const vectorA = {
  method: 'GET',
  url: 'https://example.com/path/to/resource',
  headers: {
    'signature-agent': 'agent2="https://signature-agent.test"',
    'signature-input': `sig2=("@authority" "signature-agent";key="agent2");created=1735689600;keyid="${KID}";alg="ed25519";expires=4889289600;nonce="n9p433xm+NJ3ph3upfBIGmsuwHw387YV7Q/F+6BSpGCVjYCqQw6rznNA8PVVLySrAWsv0hQtFioQb6E1YsauiA==";tag="web-bot-auth"`,
    signature: 'sig2=:RdNFx5Bj6au3YgAMQL/RzmUlZE8QZLIaXGRpw985hWnwPfMxT228NMk6ehRS1PSl4e8PhbNZACSanGdhEwYCCg==:',
  },
}

const DIRECTORY_BODY = `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"${KID}","x":"JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs","use":"sig"}]}`
const vectorD = {
  status: 200,
  url: 'https://signature-agent.test/.well-known/http-message-signatures-directory',
  headers: {
    'content-digest': 'sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:',
    'signature-input': `binding=("@authority";req "content-digest");created=1735689600;expires=4889289600;keyid="${KID}";tag="http-message-signatures-directory"`,
    signature: 'binding=:l6P8R67tm3kujAxbHWio7ll01qrEZ0dKD/WWlGhNYEmTnFZM8Wt0VQ9zqGfvo7T/UMkBxsigzChM1Gpz7gOVBg==:',
  },
  request: {
    method: 'GET',
    url: 'https://signature-agent.test/.well-known/http-message-signatures-directory',
    headers: {},
  },
}

describe('jwkThumbprint', () => {
  test('RFC 8037 Ed25519 thumbprint of the RFC 9421 test key', () => {
    expect(jwkThumbprint(TEST_KEY)).toBe(KID)
  })
  test('member order and extra members do not matter', () => {
    expect(jwkThumbprint({ x: TEST_KEY.x, use: 'sig', crv: 'Ed25519', kty: 'OKP', kid: 'whatever' })).toBe(KID)
  })
  test('RFC 7638 §3.1 RSA example', () => {
    const n =
      '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw'
    expect(jwkThumbprint({ kty: 'RSA', n, e: 'AQAB', alg: 'RS256', kid: '2011-04-29' })).toBe(
      'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs',
    )
  })
  test('a key without its required members has none', () => {
    expect(jwkThumbprint({ kty: 'OKP', crv: 'Ed25519' })).toBeNull()
    expect(jwkThumbprint({ kty: 'nope' })).toBeNull()
  })
})

describe('verifyMessageSignatures', () => {
  test('vector A: dictionary Signature-Agent verifies', () => {
    const [check] = verifyMessageSignatures(vectorA, keys)
    expect(check).toMatchObject({ label: 'sig2', verified: true, tag: 'web-bot-auth', keyid: KID, created: 1735689600 })
  })

  test('vector B: @authority only verifies', () => {
    const [check] = verifyMessageSignatures(
      {
        url: 'https://example.com/path/to/resource',
        headers: {
          'signature-input': `sig1=("@authority");created=1735689600;keyid="${KID}";alg="ed25519";expires=4889289600;nonce="zIW8+cdmA3vdYagbxojpONwa/l0EKJ/O3/wD486VvsQjO/RxPaSt6ZxvQaMcQzNnqKN/mQ6hpGiFro2L2qkz5A==";tag="web-bot-auth"`,
          signature: 'sig1=:QKN4fTdIYfh82fvoZCQiQA1weuozfCS/Led2zTMbewMMqH8PI2Wsy/5c4ao6B6D09nraNQdBNOADg8aM1MqfCg==:',
        },
      },
      keys,
    )
    expect(check?.verified).toBe(true)
  })

  test('vector C: legacy sf-string Signature-Agent verifies', () => {
    const [check] = verifyMessageSignatures(
      {
        url: 'https://example.com/path/to/resource',
        headers: {
          'signature-agent': '"https://signature-agent.test"',
          'signature-input': `sig2=("@authority" "signature-agent");created=1735689600;keyid="${KID}";alg="ed25519";expires=1735693200;nonce="e8N7S2MFd/qrd6T2R3tdfAuuANngKI7LFtKYI/vowzk4lAZYadIX6wW25MwG7DCT9RUKAJ0qVkU0mEeLElW1qg==";tag="web-bot-auth"`,
          signature: 'sig2=:jdq0SqOwHdyHr9+r5jw3iYZH6aNGKijYp/EstF4RQTQdi5N5YYKrD+mCT1HA1nZDsi6nJKuHxUi/5Syp3rLWBA==:',
        },
      },
      keys,
    )
    expect(check?.verified).toBe(true)
  })

  test('vector D: the signed directory response verifies, and its Content-Digest matches the body', () => {
    const [check] = verifyMessageSignatures(vectorD, keys)
    expect(check).toMatchObject({
      label: 'binding',
      verified: true,
      tag: 'http-message-signatures-directory',
      expires: 4889289600,
    })
    expect(verifyContentDigest(vectorD.headers['content-digest'], new TextEncoder().encode(DIRECTORY_BODY))).toBe(true)
  })

  test('a tampered component does not verify', () => {
    const [check] = verifyMessageSignatures({ ...vectorA, url: 'https://example.org/path/to/resource' }, keys)
    expect(check?.verified).toBe(false)
    expect(check?.problem).toContain('does not match')
  })

  test('a directory signature served from another authority does not verify', () => {
    const request = { ...vectorD.request, url: 'https://evil.test/.well-known/http-message-signatures-directory' }
    expect(verifyMessageSignatures({ ...vectorD, request }, keys)[0]?.verified).toBe(false)
  })

  test('an unknown keyid and a missing component are reported', () => {
    expect(verifyMessageSignatures(vectorA, () => undefined)[0]?.problem).toContain('no key with keyid')
    const { 'signature-agent': _dropped, ...headers } = vectorA.headers
    expect(verifyMessageSignatures({ ...vectorA, headers }, keys)[0]?.problem).toContain('missing')
  })

  test('an unsigned message has no signatures; a garbled one is one failure', () => {
    expect(verifyMessageSignatures({ url: 'https://example.com/', headers: {} }, keys)).toEqual([])
    const [check] = verifyMessageSignatures(
      { url: 'https://example.com/', headers: { 'signature-input': 'sig1=(((', signature: 'x' } },
      keys,
    )
    expect(check?.verified).toBe(false)
  })
})

describe('verifyContentDigest', () => {
  test('a wrong digest is false; an unknown algorithm is null', () => {
    expect(verifyContentDigest(vectorD.headers['content-digest'], new TextEncoder().encode(`${DIRECTORY_BODY} `))).toBe(
      false,
    )
    expect(verifyContentDigest('md5=:AAAA:', new Uint8Array())).toBeNull()
  })
})

// RFC 9421 Appendix B.1, the public halves as printed there.
const RFC9421_PUBLIC_KEYS: [string, string, 'pkcs1' | 'spki'][] = [
  [
    'test-key-rsa (B.1.1)',
    `-----BEGIN RSA PUBLIC KEY-----
MIIBCgKCAQEAhAKYdtoeoy8zcAcR874L8cnZxKzAGwd7v36APp7Pv6Q2jdsPBRrw
WEBnez6d0UDKDwGbc6nxfEXAy5mbhgajzrw3MOEt8uA5txSKobBpKDeBLOsdJKFq
MGmXCQvEG7YemcxDTRPxAleIAgYYRjTSd/QBwVW9OwNFhekro3RtlinV0a75jfZg
kne/YiktSvLG34lw2zqXBDTC5NHROUqGTlML4PlNZS5Ri2U4aCNx2rUPRcKIlE0P
uKxI4T+HIaFpv8+rdV6eUgOrB2xeI1dSFFn/nnv5OoZJEIB+VmuKn3DCUcCZSFlQ
PSXSfBDiUGhwOw76WuSSsf1D4b/vLoJ10wIDAQAB
-----END RSA PUBLIC KEY-----`,
    'pkcs1',
  ],
  [
    'test-key-rsa-pss (B.1.2)',
    `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAr4tmm3r20Wd/PbqvP1s2
+QEtvpuRaV8Yq40gjUR8y2Rjxa6dpG2GXHbPfvMs8ct+Lh1GH45x28Rw3Ry53mm+
oAXjyQ86OnDkZ5N8lYbggD4O3w6M6pAvLkhk95AndTrifbIFPNU8PPMO7OyrFAHq
gDsznjPFmTOtCEcN2Z1FpWgchwuYLPL+Wokqltd11nqqzi+bJ9cvSKADYdUAAN5W
Utzdpiy6LbTgSxP7ociU4Tn0g5I6aDZJ7A8Lzo0KSyZYoA485mqcO0GVAdVw9lq4
aOT9v6d+nb4bnNkQVklLQ3fVAvJm+xdDOp9LCNCN48V2pnDOkFV6+U9nV5oyc6XI
2wIDAQAB
-----END PUBLIC KEY-----`,
    'spki',
  ],
  [
    'test-key-ecc-p256 (B.1.3)',
    `-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEqIVYZVLCrPZHGHjP17CTW0/+D9Lf
w0EkjqF7xB4FivAxzic30tMM4GF+hR6Dxh71Z50VGGdldkkDXZCnTNnoXQ==
-----END PUBLIC KEY-----`,
    'spki',
  ],
  [
    'test-key-ed25519 (B.1.4)',
    `-----BEGIN PUBLIC KEY-----
MCowBQYDK2VwAyEAJrQLj5P/89iXES9+vFgrIy29clF9CC/oPPsw3c5D0bs=
-----END PUBLIC KEY-----`,
    'spki',
  ],
]

describe('RFC9421_TEST_KEYS', () => {
  test.each(RFC9421_PUBLIC_KEYS)('RFC 9421 Appendix B.1: %s is listed by its thumbprint', (name, pem, type) => {
    const jwk = createPublicKey({ key: pem, format: 'pem', type }).export({ format: 'jwk' }) as Record<string, unknown>
    expect(RFC9421_TEST_KEYS[jwkThumbprint(jwk)!]).toBe(name)
  })
  test('every listed key is one of Appendix B.1', () => {
    expect(Object.keys(RFC9421_TEST_KEYS)).toHaveLength(RFC9421_PUBLIC_KEYS.length)
  })
})
