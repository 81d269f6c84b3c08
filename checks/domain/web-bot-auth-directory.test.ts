import { describe, expect, test } from 'bun:test'
import { checkMetaSchema } from '../../core/engine/check.ts'
import { context, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './web-bot-auth-directory.ts'

// checks.md §12.5: the RFC 9421 Ed25519 test key and vector D, a signed directory response.
const KID = 'poqkLGiymh_W0uP6PZFw-dvez3QJT5SolqXBCW38r0U'
const X = 'JrQLj5P_89iXES9-vFgrIy29clF9CC_oPPsw3c5D0bs'
const URL_ = 'https://signature-agent.test/.well-known/http-message-signatures-directory'
const BODY = `{"keys":[{"kty":"OKP","crv":"Ed25519","kid":"${KID}","x":"${X}","use":"sig"}]}`
const VECTOR_D_HEADERS = {
  'content-type': 'application/http-message-signatures-directory+json',
  'cache-control': 'max-age=86400',
  date: 'Mon, 03 Aug 2026 10:00:00 GMT',
  'content-digest': 'sha-256=:CADMT2aBdV/rqQr/NIru64ERQkCobVvllA4V0fLFDu0=:',
  'signature-input': `binding=("@authority";req "content-digest");created=1735689600;expires=4889289600;keyid="${KID}";tag="http-message-signatures-directory"`,
  signature: 'binding=:l6P8R67tm3kujAxbHWio7ll01qrEZ0dKD/WWlGhNYEmTnFZM8Wt0VQ9zqGfvo7T/UMkBxsigzChM1Gpz7gOVBg==:',
}

const directory = (body: unknown, headers: Record<string, string> = VECTOR_D_HEADERS, overrides: { status?: number; url?: string } = {}) =>
  snapshot({ url: overrides.url ?? URL_, status: overrides.status ?? 200, headers, body: typeof body === 'string' ? body : JSON.stringify(body) })
const unsigned = { 'content-type': 'application/http-message-signatures-directory+json', 'cache-control': 'max-age=86400' }
const key = (extra: Record<string, unknown> = {}) => ({ kty: 'OKP', crv: 'Ed25519', kid: KID, x: X, use: 'sig', ...extra })

describe('web-bot-auth-directory', () => {
  test('metadata matches the catalog', () => {
    expect(checkMetaSchema.safeParse(check.meta).success).toBe(true)
    expect(check.meta).toMatchObject({ layer: 'accessibility', tier: 'emerging', maturity: 'verified', bonus: true, draft: true, maxScore: 2 })
  })

  test.each([
    ['vector D: signed directory, verified', 'pass', directory(BODY)],
    ['unsigned directory with a correct kid', 'pass', directory({ keys: [key()] }, unsigned)],
    ['a key without kid', 'pass', directory({ keys: [{ kty: 'OKP', crv: 'Ed25519', x: X }] }, unsigned)],
    ['served as application/json', 'warning', directory({ keys: [key()] }, { 'content-type': 'application/json' })],
    ['kid is not the thumbprint', 'warning', directory({ keys: [key({ kid: 'my-key-1' })] }, unsigned)],
    ['expired key (by the Date header)', 'warning', directory({ keys: [key({ exp: 1735689600 })] }, { ...unsigned, date: 'Mon, 03 Aug 2026 10:00:00 GMT' })],
    ['a body that no longer matches the signed Content-Digest', 'warning', directory(BODY.replace('"use":"sig"', '"use":"sig","alg":"Ed25519"'))],
    ['a response signature that does not verify', 'warning', directory(BODY, { ...VECTOR_D_HEADERS, signature: VECTOR_D_HEADERS.signature.replace('l6P8', 'AAAA') })],
    ['unknown curve', 'warning', directory({ keys: [key({ crv: 'X25519' })] }, unsigned)],
    ['private key material', 'fail', directory({ keys: [key({ d: 'n4Ni-HpISpVObnQMW0wOhCKROaIKqKtW_2ZYb2p9KcU' })] }, unsigned)],
    ['a symmetric key', 'fail', directory({ keys: [{ kty: 'oct', k: 'c2VjcmV0' }] }, unsigned)],
    ['invalid JSON', 'fail', directory('{"keys": [', unsigned)],
    ['JSON but not a JWKS', 'fail', directory({ key: key() }, unsigned)],
    ['empty JWKS', 'fail', directory({ keys: [] }, unsigned)],
    ['404: unearned bonus', 'fail', notFound(URL_)],
    ['a redirect', 'fail', directory('', { location: 'https://elsewhere.test/keys' }, { status: 302 })],
    ['an HTML page', 'fail', directory('<!doctype html><html><body>Home</body></html>', { 'content-type': 'text/html' })],
  ] as const)('%s -> %s', (_name, expected, wbaDirectory) => {
    const outcome = check.run({ wbaDirectory }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('vector D details report the verified proof of possession', () => {
    expect(check.run({ wbaDirectory: directory(BODY) }, context).details).toContain('response signature(s) binding verified')
  })

  test('a kid mismatch names the expected thumbprint', () => {
    const outcome = check.run({ wbaDirectory: directory({ keys: [key({ kid: 'my-key-1' })] }, unsigned) }, context)
    expect(outcome.recommendation).toContain(KID)
  })

  test('a directory signature replayed from another host does not verify', () => {
    const replayed = { ...directory(BODY), requestedUrl: 'https://evil.test/.well-known/http-message-signatures-directory', url: 'https://evil.test/.well-known/http-message-signatures-directory' }
    const outcome = check.run({ wbaDirectory: replayed }, context)
    expect(outcome.status).toBe('warning')
    expect(outcome.details).toContain('does not verify')
  })

  test('private key material is named', () => {
    const outcome = check.run({ wbaDirectory: directory({ keys: [key({ d: 'secret' })] }, unsigned) }, context)
    expect(outcome.details).toContain('"d"')
  })
})
