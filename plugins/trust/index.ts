import { Elysia } from 'elysia'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import { ARD_API_ENVELOPE } from '../ard/public.ts'
import type { ScanRepository } from '../scan/public.ts'
import { attestationParams, attestationResponses, JOSE_MEDIA_TYPE, JWK_SET_MEDIA_TYPE, jwksResponses } from './model.ts'
import { documentResponse, strongEtag } from '../../core/etag.ts'
import { DOCUMENT_HEADERS, wire } from '../../core/openapi.ts'
import { attestationFor, prefersJose, serializeJwks } from './service.ts'
import { describeIpLimit } from '../../core/limits.ts'
import { ARD_LIMITS } from '../ard/public.ts'
import { cacheLifetime, publicCache } from '../../core/caching.ts'

/**
 * Five minutes: an attestation changes with each scan of the domain, and a key set cached longer would leave
 * verifiers without a newly rotated key for longer.
 */
const CACHE_SECONDS = 300
const CACHE_CONTROL = publicCache(CACHE_SECONDS)

type TrustNeeds = Pick<KernelPieces, 'context' | 'config' | 'database' | 'signing'> & { scans: ScanRepository }

export function trustPlugin(deps: TrustNeeds) {
  const { context } = deps
  const { db } = deps.database
  const jwks = serializeJwks(deps.signing)

  const keySet = ({ request }: { request: Request }) =>
    documentResponse(request, jwks, JWK_SET_MEDIA_TYPE, {
      'access-control-allow-origin': '*',
      'cache-control': CACHE_CONTROL,
    })
  const keySetDetail = {
    tags: ['ARD'],
    summary: 'Public key set for attestations',
    description:
      'RFC 7517 JWKS of the Ed25519 keys that sign scorecard attestations: the current key (`SIGNING_KEY`) first, then retired keys (`SIGNING_KEYS_PREVIOUS`) that recent attestations may still carry. `{ "keys": [] }` when no key is configured. `application/jwk-set+json`, CORS `*`, cached 5 minutes, ETag.',
    responses: jwksResponses,
    ...wire({
      answers: {
        200: [...DOCUMENT_HEADERS, 'Access-Control-Allow-Origin'],
        304: [...DOCUMENT_HEADERS, 'Access-Control-Allow-Origin'],
      },
    }),
  }

  return new Elysia({ name: 'trust' })
    .use(context)
    .get(
      '/api/ard/attestation/:domain',
      async ({ params, request }) => {
        const attestation = await attestationFor(
          { scans: deps.scans, config: deps.config, signing: deps.signing },
          params.domain,
        )
        // Without a key there is no JWS to give, and the unsigned JSON answers whatever was asked for.
        const jws = prefersJose(request.headers.get('accept')) ? attestation.jws : null
        // Serialized here, not by Elysia: the `payload` member must keep its canonical member order.
        const body = jws ?? JSON.stringify(attestation.body)
        return documentResponse(
          request,
          { body, etag: strongEtag(body) },
          jws !== null ? JOSE_MEDIA_TYPE : 'application/json; charset=utf-8',
          {
            'access-control-allow-origin': '*',
            'cache-control': attestation.cacheable ? CACHE_CONTROL : 'no-store',
            vary: 'Accept',
          },
        )
      },
      {
        limit: ARD_LIMITS.ardRead,
        params: attestationParams,
        detail: {
          tags: ['ARD'],
          summary: "Signed attestation of a domain's score",
          description: `An EdDSA detached JWS (RFC 7515 Appendix F, header \`{"alg":"EdDSA","kid":<thumbprint>,"typ":"JOSE"}\`) over the RFC 8785 canonical JSON of a payload binding the domain, score, grade, scan kind, scan time, contract version, issuer and a SHA-256 digest of the stored result. Verify with the key set at /.well-known/jwks.json. Without a signing key the payload comes unsigned (\`signed: false\`), also under \`Accept: application/jose\`. Attests the newest measured scan, deterministically: the same stored result and key give the same bytes (ETag), so the bare JWS verifies against the payload of any other request until the next scan. Ephemeral results are never attested (404). Partial results are \`no-store\`, complete ones cached ${cacheLifetime(CACHE_SECONDS)}. CORS \`*\`. ${describeIpLimit(ARD_LIMITS.ardRead)}.`,
          responses: attestationResponses,
          ...wire({
            answers: {
              200: [...DOCUMENT_HEADERS, 'Access-Control-Allow-Origin', 'Vary'],
              304: [...DOCUMENT_HEADERS, 'Access-Control-Allow-Origin', 'Vary'],
            },
          }),
        },
      },
    )
    .get('/api/ard/jwks', keySet, { detail: keySetDetail })
    .get('/.well-known/jwks.json', keySet, { detail: { ...keySetDetail, summary: 'Public key set (well-known path)' } })
}

export const trustFeature = defineFeature<TrustNeeds>()({
  name: 'trust',
  needs: ['context', 'config', 'database', 'signing', 'scans'],
  provides: [],
  routes: trustPlugin,
  errors: { envelope: ARD_API_ENVELOPE },
})
