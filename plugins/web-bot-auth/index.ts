import { Elysia } from 'elysia'
import { defineFeature } from '../../core/feature.ts'
import type { KernelPieces } from '../../core/kernel.ts'
import { matchesEtag } from '../../core/etag.ts'
import { DOCUMENT_HEADERS, wire } from '../../core/openapi.ts'
import { WEB_BOT_AUTH_CONFIG, type WebBotAuthConfig } from './config.ts'
import { DIRECTORY_MEDIA_TYPE, directoryResponses } from './model.ts'
import { buildDirectory, directorySignatureHeaders, serializeDirectory } from './service.ts'

const DIRECTORY_WIRE_HEADERS = [
  'Access-Control-Allow-Origin',
  'Access-Control-Expose-Headers',
  ...DOCUMENT_HEADERS,
] as const

type WebBotAuthNeeds = Pick<KernelPieces, 'context' | 'signing'> & { config: WebBotAuthConfig }

export function webBotAuthPlugin(deps: WebBotAuthNeeds) {
  const { context } = deps
  const directory = serializeDirectory(buildDirectory(deps.config, deps.signing))

  const serve = ({ request }: { request: Request }) => {
    const headers = {
      'access-control-allow-origin': '*',
      // Browser verifiers must be able to read the proof of possession.
      'access-control-expose-headers': 'Content-Digest, Signature, Signature-Input',
      'cache-control': 'public, max-age=86400',
      etag: directory.etag,
    }
    if (matchesEtag(request.headers.get('if-none-match'), directory.etag))
      return new Response(null, { status: 304, headers })
    // Signed per response, so that every copy carries a signature valid for the whole day it may be cached.
    return new Response(directory.body, {
      headers: {
        ...headers,
        'content-type': DIRECTORY_MEDIA_TYPE,
        ...directorySignatureHeaders(directory, deps.signing, deps.config.serviceHost),
      },
    })
  }
  const detail = {
    tags: ['Web Bot Auth'],
    summary: "The scanner's HTTP message signatures directory",
    description:
      'The public keys our scanner signs its requests with (Web Bot Auth; RFC 9421): `kid` is the RFC 7638 thumbprint that each request signature names as `keyid`. The body is a JWKS with the service\'s description; `keys` is empty when no signing key is configured, and then requests are not signed. When a key exists the response carries `Content-Digest` and a `binding0` signature over `("@authority";req "content-digest")` with tag `http-message-signatures-directory`, made with the current key only, for the authority of PUBLIC_BASE_URL. Cached one day, ETag, CORS `*`.',
    responses: directoryResponses,
    ...wire({
      answers: {
        200: [...DIRECTORY_WIRE_HEADERS, 'Content-Digest', 'Signature', 'Signature-Input'],
        304: [...DIRECTORY_WIRE_HEADERS],
      },
    }),
  }

  return new Elysia({ name: 'web-bot-auth' })
    .use(context)
    .get('/api/web-bot-auth/directory', serve, { detail })
    .get('/.well-known/http-message-signatures-directory', serve, {
      detail: { ...detail, summary: `${detail.summary} (well-known path)` },
    })
}

export const webBotAuthFeature = defineFeature<WebBotAuthNeeds>()({
  name: 'web-bot-auth',
  needs: ['context', 'config', 'signing'],
  provides: [],
  configKeys: WEB_BOT_AUTH_CONFIG,
  routes: webBotAuthPlugin,
})
