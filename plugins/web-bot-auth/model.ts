import { z } from 'zod'
import { openApiSchema } from '../../core/openapi.ts'

export const DIRECTORY_MEDIA_TYPE = 'application/http-message-signatures-directory+json'

/**
 * A directory key: the public Ed25519 key with its thumbprint. No `alg`: the directory draft limits it to
 * HTTP-signature algorithm names, and the key type already fixes ed25519.
 */
export const directoryKey = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  kid: z.string().describe('RFC 8037 §A.3 JWK SHA-256 thumbprint: the `keyid` of our request signatures'),
  x: z.string().describe('The public key, base64url'),
  use: z.literal('sig'),
})

export type DirectoryKey = z.infer<typeof directoryKey>

export const directory = z
  .object({
    client_name: z.string().describe('Who signs: this service'),
    homepage_uri: z.string().describe("The service's public base URL"),
    contact_email: z.string().describe('Where site operators reach the people running this deployment'),
    purpose: z.string().describe('What the signed requests are for'),
    keys: z
      .array(directoryKey)
      .describe('The signing key first, then retired keys; empty when no key is configured (nothing is signed then)'),
    client_uri: z.string().describe('Signature Agent Card name (OAuth DCR metadata) for homepage_uri'),
    contacts: z.array(z.string()).describe('Signature Agent Card name for contact_email'),
    web_bot_auth: z
      .object({
        trigger: z.literal('fetcher').describe('Requests are sent because a user asked for a scan, not by crawling'),
      })
      .describe('Signature Agent Card `web_bot_auth` metadata'),
  })
  .describe(
    'A JWKS (RFC 7517 lets a key set carry extra members) with the service description the interface names, plus the Signature Agent Card names of draft-meunier-webbotauth-registry',
  )

export type Directory = z.infer<typeof directory>

export const directoryResponses = {
  200: {
    description:
      'The directory. When a key is configured, `Content-Digest` plus a `Signature`/`Signature-Input` pair labelled `binding0` proving possession of the signing key.',
    content: { [DIRECTORY_MEDIA_TYPE]: { schema: openApiSchema(directory) } },
  },
  304: { description: 'Not modified (If-None-Match matched the ETag)' },
}
