// /.well-known/http-message-signatures-directory answers 200 without a redirect, as its own media type, with a
// public JWKS whose kids are the keys' thumbprints, no RFC 9421 test key, and valid response signatures.
// Spec: https://datatracker.ietf.org/doc/draft-ietf-webbotauth-httpsig-protocol/ (-00, adopted 2026-09-01:
// "Key Distribution and Discovery", "Directory Format", "Deployment Anti-Patterns")
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import {
  jwkThumbprint,
  RFC9421_TEST_KEYS,
  verifyContentDigest,
  verifyMessageSignatures,
} from '../lib/http-signature-verify.ts'
import { isRecord, looksLikeHtml, parseJson } from '../../core/engine/snapshot.ts'

const DIRECTORY_TYPE = 'application/http-message-signatures-directory+json'
const SIGNATURE_TAG = 'http-message-signatures-directory'
/** Members that only private (or symmetric) keys carry (RFC 7518 §6). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k']
const KNOWN_CURVES: Record<string, readonly string[] | null> = { OKP: ['Ed25519'], EC: ['P-256', 'P-384'], RSA: null }
const RECOMMENDATION =
  "If you operate bots or agents, publish your Web Bot Auth public keys at /.well-known/http-message-signatures-directory as a JWKS served with Content-Type: application/http-message-signatures-directory+json, each key's kid set to its RFC 7638 thumbprint."

export default defineCheck({
  meta: {
    id: 'web-bot-auth-directory',
    name: 'Web Bot Auth key directory',
    description:
      'Sites that run their own bots or agents publish their signing keys in a key directory, so that other sites can verify the requests those agents sign.',
    layer: 'accessibility',
    applicability: 'domain-only',
    tier: 'emerging',
    maturity: 'verified',
    bonus: true,
    draft: true,
    maxScore: 2,
    specUrl: 'https://datatracker.ietf.org/doc/draft-ietf-webbotauth-httpsig-protocol/',
    recommendation: RECOMMENDATION,
    needs: ['wbaDirectory'],
  },
  run({ wbaDirectory: response }) {
    const path = '/.well-known/http-message-signatures-directory'
    if (response.status >= 300 && response.status < 400) {
      return fail(
        `${path} redirects (${response.status} to ${response.headers.location ?? 'nowhere'}); draft-ietf-webbotauth-httpsig-protocol-00 requires a 200 and verifiers MUST NOT follow redirects, so they find no keys`,
        `Serve the key directory directly at ${path} with a 200, without a redirect.`,
      )
    }
    if (response.status !== 200) {
      return fail(
        `No key directory: ${path} answered ${response.status}${response.status < 300 ? ', not the 200 verifiers require' : ''}`,
        RECOMMENDATION,
      )
    }
    if (looksLikeHtml(response.body))
      return fail(`${path} answered 200 with an HTML page, not a key directory`, RECOMMENDATION)
    const document = parseJson(response.body)
    if (document === undefined) {
      return fail(
        `${path} is not valid JSON${response.truncated ? ' (the body was cut at the size cap)' : ''}`,
        'Serve the key directory as a valid JSON Web Key Set: {"keys":[…]}.',
      )
    }
    if (!isRecord(document) || !Array.isArray(document.keys)) {
      return fail(
        `${path} is JSON but not a JWKS (no "keys" array)`,
        'Wrap the keys in a JSON Web Key Set: {"keys":[{"kty":"OKP","crv":"Ed25519","kid":"…","x":"…"}]}.',
      )
    }
    const keys = document.keys
    if (keys.length === 0)
      return fail(`${path} is a JWKS with no keys`, 'Add at least one public signing key to the "keys" array.')

    const now = response.headers.date ? Date.parse(response.headers.date) / 1000 : Number.NaN
    const problems: string[] = []
    const fixes = new Set<string>()
    const described: string[] = []
    for (const [index, key] of keys.entries()) {
      const name = `key ${index + 1}`
      if (!isRecord(key))
        return fail(`${name} of ${path} is not a JSON object`, 'Make every entry of "keys" a JWK object.')
      const secret = PRIVATE_MEMBERS.filter((member) => member in key)
      if (secret.length || key.kty === 'oct') {
        return fail(
          `${name} (${String(key.kid ?? 'no kid')}) publishes private key material (${secret.length ? secret.map((member) => `"${member}"`).join(', ') : 'a symmetric "oct" key'})`,
          `Remove ${name} from the directory, treat it as compromised and rotate it: publish only the public members (kty, crv, x for Ed25519).`,
        )
      }
      const thumbprint = jwkThumbprint(key)
      const testKey = thumbprint ? RFC9421_TEST_KEYS[thumbprint] : undefined
      if (testKey) {
        return fail(
          `${name} is the RFC 9421 example key ${testKey}, whose private half is published: test keys MUST NOT be used outside tests, so anyone can sign as this agent`,
          `Remove ${name} from the directory and publish a key pair of your own, generated for this agent (keep its private half secret).`,
        )
      }
      const kty = String(key.kty)
      const curves = KNOWN_CURVES[kty]
      if (curves === undefined || (curves !== null && !curves.includes(String(key.crv)))) {
        problems.push(`${name} has an unsupported key type ${kty}${key.crv ? `/${String(key.crv)}` : ''}`)
        fixes.add('use Ed25519 (kty OKP), ECDSA P-256/P-384 or RSA keys')
      }
      if (typeof key.kid === 'string' && thumbprint !== null && key.kid !== thumbprint) {
        problems.push(`${name}'s kid "${key.kid}" is not its thumbprint "${thumbprint}"`)
        fixes.add(`set each kid to the key's RFC 7638 JWK thumbprint (for ${name}: ${thumbprint})`)
      }
      if (typeof key.exp === 'number' && Number.isFinite(now) && key.exp < now) {
        problems.push(`${name} expired at ${new Date(key.exp * 1000).toISOString()}`)
        fixes.add('drop expired keys, or publish a fresh key alongside them')
      }
      described.push(`${kty}${key.crv ? `/${String(key.crv)}` : ''}${thumbprint ? ` ${thumbprint.slice(0, 8)}…` : ''}`)
    }

    if (response.contentType !== DIRECTORY_TYPE) {
      problems.push(
        `served as ${response.contentType || 'no content type'}, not as the directory media type the draft requires at this well-known URI`,
      )
      fixes.add(`serve it with Content-Type: ${DIRECTORY_TYPE}`)
    }

    const keyFor = (keyid: string | undefined) =>
      keys.find(
        (key): key is Record<string, unknown> =>
          isRecord(key) && keyid !== undefined && (key.kid === keyid || jwkThumbprint(key) === keyid),
      )
    const signatures = verifyMessageSignatures(
      {
        status: response.status,
        url: response.url,
        headers: response.headers,
        request: { method: 'GET', url: response.requestedUrl, headers: {} },
      },
      keyFor,
    ).filter((signature) => signature.tag === undefined || signature.tag === SIGNATURE_TAG)
    const proofs: string[] = []
    for (const signature of signatures) {
      if (!signature.verified) {
        problems.push(
          `response signature "${signature.label}" does not verify: ${signature.problem ?? 'unknown reason'}`,
        )
        fixes.add(
          'sign the response with each listed key over ("@authority";req "content-digest") with tag="http-message-signatures-directory"',
        )
        continue
      }
      if (Number.isFinite(now) && signature.created !== undefined && signature.created > now + 60) {
        problems.push(`response signature "${signature.label}" was created in the future`)
        fixes.add('check the signing clock')
      } else if (Number.isFinite(now) && signature.expires !== undefined && signature.expires < now) {
        problems.push(`response signature "${signature.label}" expired`)
        fixes.add('re-sign the directory before its signatures expire')
      } else {
        proofs.push(signature.label)
      }
    }
    const digest = response.headers['content-digest']
    if (
      digest &&
      signatures.length &&
      !response.truncated &&
      verifyContentDigest(digest, new TextEncoder().encode(response.body)) === false
    ) {
      problems.push('Content-Digest does not match the body')
      fixes.add('compute Content-Digest over the exact body bytes served')
    }

    const notes = [
      proofs.length
        ? `response signature(s) ${proofs.join(', ')} verified`
        : signatures.length
          ? ''
          : 'no response signature (optional proof of possession)',
      response.url.startsWith('http:') ? 'served over plain http; production directories must use https' : '',
      response.headers['cache-control'] ? '' : 'no Cache-Control',
    ].filter(Boolean)
    const summary = `${keys.length} key(s) (${described.join(', ')})${notes.length ? `; ${notes.join('; ')}` : ''}`
    if (problems.length) {
      return warn(`Key directory with ${summary}; but ${problems.join('; ')}`, `In ${path}: ${[...fixes].join('; ')}.`)
    }
    return pass(`Key directory served as ${DIRECTORY_TYPE} with ${summary}`)
  },
})
