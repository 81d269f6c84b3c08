import { describe, expect, test } from 'bun:test'
import { createPrivateKey, createPublicKey, generateKeyPairSync, verify } from 'node:crypto'
import { loadConfig } from '../config.ts'
import { ed25519Thumbprint, generateSigningKeyJwk, loadSigningKeys } from './signing.ts'

/** RFC 9421 Appendix B.1.4 test key (docs/checks.md §12.5). */
const RFC9421_JWK = {
  kty: 'OKP',
  crv: 'Ed25519',
  d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU',
  x: 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs',
}
const RFC9421_KID = 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U'
/** RFC 8037 Appendix A.1 key (docs/checks.md §17.1). */
const RFC8037_JWK = {
  kty: 'OKP',
  crv: 'Ed25519',
  d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
}
const RFC8037_KID = 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k'

const pemOf = (jwk: object): string =>
  createPrivateKey({ key: jwk as never, format: 'jwk' })
    .export({ format: 'pem', type: 'pkcs8' })
    .toString()

const keysFrom = (signingKey: string | null, signingKeysPrevious: string[] = []) =>
  loadSigningKeys({ signingKey, signingKeysPrevious })

describe('loadSigningKeys', () => {
  test('no SIGNING_KEY: nothing signs, nothing is published', () => {
    const keys = keysFrom(null)
    expect(keys.current).toBeNull()
    expect(keys.publicJwks()).toEqual([])
  })

  test('kid is the RFC 7638 / RFC 8037 thumbprint (both published vectors)', () => {
    expect(keysFrom(JSON.stringify(RFC9421_JWK)).current!.kid).toBe(RFC9421_KID)
    expect(keysFrom(JSON.stringify(RFC8037_JWK)).current!.kid).toBe(RFC8037_KID)
    expect(ed25519Thumbprint(RFC8037_JWK.x)).toBe(RFC8037_KID)
  })

  test('a PKCS#8 PEM loads to the same key, also with literal \\n separators from an env file', () => {
    const pem = pemOf(RFC9421_JWK)
    expect(keysFrom(pem).current!.kid).toBe(RFC9421_KID)
    expect(keysFrom(pem.trim().replaceAll('\n', '\\n')).current!.kid).toBe(RFC9421_KID)
  })

  test('sign() is plain Ed25519: reproduces the RFC 8037 A.4 JWS signature', () => {
    const key = keysFrom(JSON.stringify(RFC8037_JWK)).current!
    const signingInput = 'eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc'
    expect(Buffer.from(key.sign(new TextEncoder().encode(signingInput))).toString('base64url')).toBe(
      'hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg',
    )
  })

  test('publicJwks: current first, then previous, each once, public members only', () => {
    const keys = keysFrom(JSON.stringify(RFC9421_JWK), [
      pemOf(RFC8037_JWK),
      JSON.stringify(RFC9421_JWK), // the current key listed again must not be published twice
    ])
    expect(keys.current!.kid).toBe(RFC9421_KID)
    expect(keys.previous.map((key) => key.kid)).toEqual([RFC8037_KID, RFC9421_KID])
    expect(keys.publicJwks()).toEqual([
      { kty: 'OKP', crv: 'Ed25519', x: RFC9421_JWK.x, kid: RFC9421_KID, use: 'sig', alg: 'EdDSA' },
      { kty: 'OKP', crv: 'Ed25519', x: RFC8037_JWK.x, kid: RFC8037_KID, use: 'sig', alg: 'EdDSA' },
    ])
    for (const jwk of keys.publicJwks()) expect(jwk).not.toHaveProperty('d')
  })

  test('reads SIGNING_KEY and SIGNING_KEYS_PREVIOUS through loadConfig', () => {
    const config = loadConfig({
      SIGNING_KEY: JSON.stringify(RFC8037_JWK),
      SIGNING_KEYS_PREVIOUS: `${pemOf(RFC9421_JWK)};;${generateSigningKeyJwk()}`,
    })
    const keys = loadSigningKeys(config)
    expect(keys.current!.kid).toBe(RFC8037_KID)
    expect(keys.previous).toHaveLength(2)
    expect(keys.previous[0]!.kid).toBe(RFC9421_KID)
  })

  const rsaJwk = JSON.stringify(
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
  )
  const rsaPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ format: 'pem', type: 'pkcs8' })
    .toString()
  const publicPem = createPublicKey(createPrivateKey({ key: RFC9421_JWK as never, format: 'jwk' }))
    .export({ format: 'pem', type: 'spki' })
    .toString()

  test.each([
    ['not a key', 'expected an Ed25519 private JWK'],
    ['{"kty":"OKP",', 'not valid JSON'],
    ['[1,2]', 'expected an Ed25519 private JWK'],
    [rsaJwk, 'expected an Ed25519 key'],
    [JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: RFC9421_JWK.x }), 'no "d"'],
    [JSON.stringify({ ...RFC9421_JWK, x: RFC8037_JWK.x }), '"x" is not the public key of "d"'],
    [JSON.stringify({ ...RFC9421_JWK, kid: 'made-up' }), '"kid" is not the key\'s JWK thumbprint'],
    [JSON.stringify({ ...RFC9421_JWK, d: 'short' }), 'not a valid Ed25519 private key'],
    [rsaPem, 'expected an Ed25519 key, got rsa'],
    [publicPem, 'not a readable unencrypted PKCS#8 private key'],
  ])('invalid SIGNING_KEY %#: a clear error naming the variable', (material, problem) => {
    expect(() => keysFrom(material)).toThrow(`SIGNING_KEY: `)
    expect(() => keysFrom(material)).toThrow(problem)
  })

  test('an invalid previous key names SIGNING_KEYS_PREVIOUS and its position, never the key material', () => {
    let message = ''
    try {
      keysFrom(JSON.stringify(RFC9421_JWK), [
        JSON.stringify(RFC8037_JWK),
        JSON.stringify({ ...RFC8037_JWK, x: RFC9421_JWK.x }),
      ])
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toStartWith('SIGNING_KEYS_PREVIOUS (key 2): ')
    expect(message).not.toContain(RFC8037_JWK.d)
  })
})

describe('generateSigningKeyJwk', () => {
  test('prints a private Ed25519 JWK that loads back, with its thumbprint as kid', () => {
    const printed = generateSigningKeyJwk()
    const jwk = JSON.parse(printed) as Record<string, string>
    expect(Object.keys(jwk).sort()).toEqual(['crv', 'd', 'kid', 'kty', 'x'])
    expect(jwk.kty).toBe('OKP')
    expect(jwk.crv).toBe('Ed25519')
    const key = keysFrom(printed).current!
    expect(key.kid).toBe(jwk.kid!)
    const data = new TextEncoder().encode('round trip')
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x! }, format: 'jwk' })
    expect(verify(null, data, publicKey, key.sign(data))).toBe(true)
  })

  test('two runs give two different keys', () => {
    expect(JSON.parse(generateSigningKeyJwk()).d).not.toBe(JSON.parse(generateSigningKeyJwk()).d)
  })
})
