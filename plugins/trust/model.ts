import { z } from 'zod'
import { openApiSchema } from '../../core/openapi.ts'
import { SCAN_KINDS } from '../../core/engine/check.ts'
import { ardErrorResponse } from '../ard/public.ts'

export const JOSE_MEDIA_TYPE = 'application/jose'
export const JWK_SET_MEDIA_TYPE = 'application/jwk-set+json'
/** Names what the payload is, so that it cannot be mistaken for another document signed with the same key. */
export const ATTESTATION_TYPE = 'agent-readiness-scorecard'

export const attestationParams = z.object({
  domain: z.string().describe('A domain, or a URL-encoded full URL (normalised to its hostname)'),
})

/** Members in RFC 8785 order (sorted), the order they have on the wire. */
export const attestationPayload = z
  .object({
    analysisStatus: z
      .enum(['complete', 'partial'])
      .describe('`partial` while deep checks are still resolving: the score may still change'),
    contractVersion: z.string().describe('The contract version the payload is expressed in'),
    domain: z.string().describe('The attested domain (lower-case hostname)'),
    generatedAt: z
      .string()
      .describe(
        'ISO 8601 time the attested result was last written; the attestation of a stored result is deterministic, so every request returns the same bytes until the next scan (or a key rotation)',
      ),
    grade: z.enum(['A+', 'A', 'B', 'C', 'D', 'F']),
    issuer: z.string().describe('The service that measured and signed: its public base URL, whose JWKS holds the key'),
    mcpUrl: z.string().nullable().describe('The MCP endpoint scanned, for mcp and mcp-app scans; null otherwise'),
    resultDigest: z
      .string()
      .regex(/^sha256:[0-9a-f]{64}$/)
      .describe(
        '`sha256:<hex>` of the RFC 8785 canonical JSON of the scan result as stored (internal bookkeeping fields included, so not the reshaped `GET /api/score` body): pins the attestation to one stored record',
      ),
    scannedAt: z.string().describe('ISO 8601 time of the attested scan'),
    score: z.number().int().min(0).max(100),
    type: z.literal(ATTESTATION_TYPE),
    url: z.string().describe('The URL that was scanned'),
    urlKind: z.enum(SCAN_KINDS),
  })
  .describe(
    'The signed statement. Its JWS payload is the RFC 8785 (JCS) canonical UTF-8 of this object; the `payload` member of the JSON response is already written in that form.',
  )

export type AttestationPayload = z.infer<typeof attestationPayload>

export const signedAttestation = z.object({
  signed: z.literal(true),
  payload: attestationPayload,
  jws: z
    .string()
    .describe(
      'Detached compact JWS (RFC 7515 Appendix F): `BASE64URL(header)..BASE64URL(signature)`. To verify, insert BASE64URL(JCS(payload)) between the dots and check it with the key `kid` from `jwksUri`.',
    ),
  kid: z.string().describe('RFC 7638 JWK thumbprint of the signing key; also in the JWS header'),
  alg: z.literal('EdDSA'),
  jwksUri: z.string().describe('The key set holding the signing key (current and previous keys)'),
  mediaType: z.literal(JOSE_MEDIA_TYPE).describe('Media type of `jws`; `Accept: application/jose` returns it alone'),
})

export const unsignedAttestation = z.object({
  signed: z.literal(false).describe('No signing key is configured on this deployment'),
  payload: attestationPayload,
})

export const attestationResponse = z.discriminatedUnion('signed', [signedAttestation, unsignedAttestation])

export type AttestationResponse = z.infer<typeof attestationResponse>

export const ardError = ardErrorResponse.extend({
  next: z
    .object({
      method: z.literal('POST'),
      endpoint: z.literal('/api/scan'),
      body: z.object({ url: z.string() }),
      description: z.string(),
    })
    .optional()
    .describe('On NOT_FOUND: the request that produces a score for the domain'),
})

export const publicJwk = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string().describe('The public key, base64url'),
  kid: z.string().describe('RFC 7638 / RFC 8037 §A.3 JWK SHA-256 thumbprint'),
  use: z.literal('sig'),
  alg: z.literal('EdDSA'),
})

export const jwkSet = z
  .object({
    keys: z.array(publicJwk).describe('The current key first, then retired keys still accepted; empty without a key'),
  })
  .describe('RFC 7517 JSON Web Key Set')

export const attestationResponses = {
  200: {
    description:
      'The scorecard attestation. Signed: `{ signed: true, payload, jws, kid, alg, jwksUri, mediaType }`; without a signing key: `{ signed: false, payload }`. With `Accept: application/jose` (and a key), the detached compact JWS alone.',
    content: {
      'application/json': { schema: openApiSchema(attestationResponse) },
      [JOSE_MEDIA_TYPE]: { schema: { type: 'string' as const, description: 'Detached compact JWS' } },
    },
  },
  304: { description: 'Not modified (If-None-Match matched the ETag)' },
  400: {
    description: 'Not a domain or an http(s) URL: INVALID_ARGUMENT',
    content: { 'application/json': { schema: openApiSchema(ardError) } },
  },
  404: {
    description:
      'No attestable score (never scanned, or only an ephemeral result): NOT_FOUND with `next` pointing at POST /api/scan',
    content: { 'application/json': { schema: openApiSchema(ardError) } },
  },
  429: {
    description: 'Rate limit exceeded; `Retry-After` in seconds',
    content: { 'application/json': { schema: openApiSchema(ardError) } },
  },
  500: { description: 'Database unavailable', content: { 'application/json': { schema: openApiSchema(ardError) } } },
}

export const jwksResponses = {
  200: {
    description: 'The public key set',
    content: {
      [JWK_SET_MEDIA_TYPE]: { schema: openApiSchema(jwkSet) },
    },
  },
  304: { description: 'Not modified (If-None-Match matched the ETag)' },
}
