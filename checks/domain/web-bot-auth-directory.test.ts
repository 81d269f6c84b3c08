import { describe, expect, test } from 'bun:test'
import { checkMetaSchema } from '../../core/engine/check.ts'
import type { HttpSnapshot } from '../../core/engine/snapshot.ts'
import { context, notFound, snapshot } from '../../tests/support/artifacts.ts'
import {
  FIXTURE_AGENT_KEY,
  jwkThumbprint,
  RFC9421_TEST_KEY,
  signedDirectoryResponse,
} from '../../tests/fixtures/sites/kit/web-bot-auth.ts'
import check from './web-bot-auth-directory.ts'

const URL_ = 'https://signature-agent.test/.well-known/http-message-signatures-directory'
// An operator's own key; the RFC 9421 B.1.4 test key signs the draft's "Signed Directory Response" vector.
const KID = jwkThumbprint(FIXTURE_AGENT_KEY)
const X = FIXTURE_AGENT_KEY.x
const TEST_KID = 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U'
const TEST_X = 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs'
/** RFC 9421 Appendix B.1.2 test-key-rsa-pss, its modulus as a JWK member. */
const RSA_PSS_TEST_N =
  'r4tmm3r20Wd_PbqvP1s2-QEtvpuRaV8Yq40gjUR8y2Rjxa6dpG2GXHbPfvMs8ct-Lh1GH45x28Rw3Ry53mm-oAXjyQ86OnDkZ5N8lYbggD4O3w6M6pAvLkhk95AndTrifbIFPNU8PPMO7OyrFAHqgDsznjPFmTOtCEcN2Z1FpWgchwuYLPL-Wokqltd11nqqzi-bJ9cvSKADYdUAAN5WUtzdpiy6LbTgSxP7ociU4Tn0g5I6aDZJ7A8Lzo0KSyZYoA485mqcO0GVAdVw9lq4aOT9v6d-nb4bnNkQVklLQ3fVAvJm-xdDOp9LCNCN48V2pnDOkFV6-U9nV5oyc6XI2w'
const VECTOR_BODY = `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"${TEST_KID}","x":"${TEST_X}","use":"sig"}]}`
const VECTOR_HEADERS = {
  'content-type': 'application/http-message-signatures-directory+json',
  'cache-control': 'max-age=86400',
  date: 'Mon, 03 Aug 2026 10:00:00 GMT',
  'content-digest': 'sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:',
  'signature-input': `binding=("@authority";req "content-digest");created=1735689600;expires=4889289600;keyid="${TEST_KID}";tag="http-message-signatures-directory"`,
  signature: 'binding=:l6P8R67tm3kujAxbHWio7ll01qrEZ0dKD/WWlGhNYEmTnFZM8Wt0VQ9zqGfvo7T/UMkBxsigzChM1Gpz7gOVBg==:',
}

/** A directory response as the collector hands it over, from a Response a directory server produced. */
async function served(response: Response): Promise<HttpSnapshot> {
  const headers = Object.fromEntries([...response.headers].map(([name, value]) => [name.toLowerCase(), value]))
  return snapshot({
    url: URL_,
    status: response.status,
    headers: { date: 'Mon, 03 Aug 2026 10:00:00 GMT', ...headers },
    body: await response.text(),
  })
}
const SIGNED = await served(signedDirectoryResponse('signature-agent.test'))
const BODY = SIGNED.body
const SIGNED_HEADERS = SIGNED.headers
const directory = (
  body: unknown,
  headers: Record<string, string> = SIGNED_HEADERS,
  overrides: { status?: number; url?: string } = {},
) =>
  snapshot({
    url: overrides.url ?? URL_,
    status: overrides.status ?? 200,
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
const unsigned = {
  'content-type': 'application/http-message-signatures-directory+json',
  'cache-control': 'max-age=86400',
}
const key = (extra: Record<string, unknown> = {}) => ({
  kty: 'OKP',
  crv: 'Ed25519',
  kid: KID,
  x: X,
  use: 'sig',
  ...extra,
})

describe('web-bot-auth-directory', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({
      layer: 'accessibility',
      tier: 'emerging',
      maturity: 'verified',
      bonus: true,
      draft: true,
      maxScore: 2,
    })
  })

  test.each([
    ['a signed directory with an operator key, verified', 'pass', directory(BODY)],
    ['unsigned directory with a correct kid', 'pass', directory({ keys: [key()] }, unsigned)],
    ['a key without kid', 'pass', directory({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: X }] }, unsigned)],
    ['served as application/json', 'warning', directory({ keys: [key()] }, { 'content-type': 'application/json' })],
    ['kid is not the thumbprint', 'warning', directory({ keys: [key({ kid: 'my-key-1' })] }, unsigned)],
    [
      'expired key (by the Date header)',
      'warning',
      directory({ keys: [key({ exp: 1735689600 })] }, { ...unsigned, date: 'Mon, 03 Aug 2026 10:00:00 GMT' }),
    ],
    [
      'a body that no longer matches the signed Content-Digest',
      'warning',
      directory(BODY.replace('"use":"sig"', '"use":"sig","alg":"Ed25519"')),
    ],
    [
      'a response signature that does not verify',
      'warning',
      directory(BODY, {
        ...SIGNED_HEADERS,
        signature: SIGNED_HEADERS.signature!.replace('binding=:', 'binding=:AAAA'),
      }),
    ],
    ['unknown curve', 'warning', directory({ keys: [key({ crv: 'X25519' })] }, unsigned)],
    ['private key material', 'fail', directory({ keys: [key({ d: FIXTURE_AGENT_KEY.d })] }, unsigned)],
    ['a symmetric key', 'fail', directory({ keys: [{ kty: 'oct', k: 'c2VjcmV0' }] }, unsigned)],
    ['invalid JSON', 'fail', directory('{"keys": [', unsigned)],
    ['JSON but not a JWKS', 'fail', directory({ key: key() }, unsigned)],
    ['empty JWKS', 'fail', directory({ keys: [] }, unsigned)],
    ['404: unearned bonus', 'fail', notFound(URL_)],
    ['a redirect', 'fail', directory('', { location: 'https://elsewhere.test/keys' }, { status: 302 })],
    [
      'an HTML page',
      'fail',
      directory('<!doctype html><html><body>Home</body></html>', { 'content-type': 'text/html' }),
    ],
  ] as const)('%s -> %s', (_name, expected, wbaDirectory) => {
    const outcome = check.run({ wbaDirectory }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  // draft-ietf-webbotauth-httpsig-protocol-00 and RFC 9421 Appendix B.1, rule by rule.
  test.each([
    [
      'draft-ietf-webbotauth-httpsig-protocol-00 §Key Distribution: 200, no redirect, its own media type (pass)',
      directory(BODY),
      'pass',
    ],
    [
      'draft-ietf-webbotauth-httpsig-protocol-00 §Key Distribution: a 301 to the same path elsewhere fails (verifiers MUST NOT follow redirects)',
      directory(
        '',
        { location: 'https://cdn.signature-agent.test/.well-known/http-message-signatures-directory' },
        { status: 301 },
      ),
      'fail',
    ],
    [
      'draft-ietf-webbotauth-httpsig-protocol-00 §Key Distribution: a 307 fails',
      directory('', { location: '/keys.json' }, { status: 307 }),
      'fail',
    ],
    [
      'draft-ietf-webbotauth-httpsig-protocol-00 §Key Distribution: a 203 is not the 200 required (fail)',
      directory({ keys: [key()] }, unsigned, { status: 203 }),
      'fail',
    ],
    [
      'draft-ietf-webbotauth-httpsig-protocol-00 §Directory Format: application/json instead of the directory media type (warning)',
      directory({ keys: [key()] }, { 'content-type': 'application/json', 'cache-control': 'max-age=86400' }),
      'warning',
    ],
    [
      'draft-ietf-webbotauth-httpsig-protocol-00 §Directory Format: application/jwk-set+json instead of the directory media type (warning)',
      directory({ keys: [key()] }, { 'content-type': 'application/jwk-set+json' }),
      'warning',
    ],
    [
      'RFC 9421 Appendix B.1.4: the Ed25519 test key MUST NOT be used outside tests (fail), even in the signed vector',
      directory(VECTOR_BODY, VECTOR_HEADERS),
      'fail',
    ],
    [
      'RFC 9421 Appendix B.1.4: the test key beside an operator key (fail)',
      directory({ keys: [key(), { kty: 'OKP', crv: 'Ed25519', kid: TEST_KID, x: TEST_X }] }, unsigned),
      'fail',
    ],
    [
      'RFC 9421 Appendix B.1.4: the test key without a kid (fail)',
      directory({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: TEST_X }] }, unsigned),
      'fail',
    ],
    [
      'RFC 9421 Appendix B.1.2: the RSA-PSS test key (fail)',
      directory(
        { keys: [{ kty: 'RSA', kid: 'oD0HwocPBSfpNy5W3bpJeyFGY_IQ_YpqxSjQ3Yd-CLA', e: 'AQAB', n: RSA_PSS_TEST_N }] },
        unsigned,
      ),
      'fail',
    ],
    [
      'RFC 9421 Appendix B.1.3: the ECDSA P-256 test key (fail)',
      directory(
        {
          keys: [
            {
              kty: 'EC',
              crv: 'P-256',
              x: 'qIVYZVLCrPZHGHjP17CTW0_-D9Lfw0EkjqF7xB4FivA',
              y: 'Mc4nN9LTDOBhfoUeg8Ye9WedFRhnZXZJA12Qp0zZ6F0',
            },
          ],
        },
        unsigned,
      ),
      'fail',
    ],
  ] as const)('%s', (_name, wbaDirectory, expected) => {
    const outcome = check.run({ wbaDirectory }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test("the test key is named, and the fix asks for a key of the operator's own", async () => {
    const outcome = check.run(
      { wbaDirectory: await served(signedDirectoryResponse('signature-agent.test', RFC9421_TEST_KEY)) },
      context,
    )
    expect(outcome.status).toBe('fail')
    expect(outcome.details).toContain('test-key-ed25519 (B.1.4)')
    expect(outcome.recommendation).toContain('key pair of your own')
  })

  test('a redirect says verifiers do not follow it', () => {
    const outcome = check.run({ wbaDirectory: directory('', { location: '/keys' }, { status: 302 }) }, context)
    expect(outcome.details).toContain('MUST NOT follow redirects')
  })

  test('cites draft-ietf-webbotauth-httpsig-protocol, not the individual draft', () => {
    expect(check.meta.specUrl).toBe('https://datatracker.ietf.org/doc/draft-ietf-webbotauth-httpsig-protocol/')
  })

  test('the signed directory details report the verified proof of possession', () => {
    expect(check.run({ wbaDirectory: directory(BODY) }, context).details).toContain(
      'response signature(s) binding verified',
    )
  })

  test('a kid mismatch names the expected thumbprint', () => {
    const outcome = check.run({ wbaDirectory: directory({ keys: [key({ kid: 'my-key-1' })] }, unsigned) }, context)
    expect(outcome.recommendation).toContain(KID)
  })

  test('a directory signature replayed from another host does not verify', () => {
    const replayed = {
      ...directory(BODY),
      requestedUrl: 'https://evil.test/.well-known/http-message-signatures-directory',
      url: 'https://evil.test/.well-known/http-message-signatures-directory',
    }
    const outcome = check.run({ wbaDirectory: replayed }, context)
    expect(outcome.status).toBe('warning')
    expect(outcome.details).toContain('does not verify')
  })

  test('private key material is named', () => {
    const outcome = check.run({ wbaDirectory: directory({ keys: [key({ d: 'secret' })] }, unsigned) }, context)
    expect(outcome.details).toContain('"d"')
  })
})
