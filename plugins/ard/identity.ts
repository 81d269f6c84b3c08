import type { Config } from '../../core/config.ts'
import { SERVICE_NAME } from '../../core/version.ts'
import { MEDIA } from '../../core/engine/lib/media-types.ts'

/** Who publishes this registry and where its documents live: the names every other ARD module builds on. */

export type ArdConfig = Pick<Config, 'publicBaseUrl'>

export const ARD_MEDIA = {
  registry: 'application/ai-registry+json',
  catalog: MEDIA.aiCatalog,
  serverCard: MEDIA.serverCard,
  website: 'text/html',
  attestation: 'application/jose',
  openapi: 'application/vnd.oai.openapi+json',
} as const

// ---------------------------------------------------------------------------------------------------------
// Identity

/**
 * The URN publisher is this service's host name: we publish (and sign) the scorecard, the domain is its subject.
 * ARD binds trustManifest.identity to the URN publisher, and our attestation is verifiable against our key set,
 * not the domain's. The host name, not host:port, because the publisher segment is an FQDN (a colon would read
 * as a namespace separator).
 */
export function ardIdentifier(config: ArdConfig, domain: string): string {
  return `urn:air:${publisherHost(config)}:scorecard:${domain}`
}

export function publisherHost(config: ArdConfig): string {
  return new URL(config.publicBaseUrl).hostname
}

export function registryUrl(config: ArdConfig): string {
  return `${config.publicBaseUrl}/api/ard`
}

export function attestationUrl(config: ArdConfig, domain: string): string {
  return `${registryUrl(config)}/attestation/${encodeURIComponent(domain)}`
}

/** This registry as a catalog entry and in its own descriptor. */
export function registryIdentity(config: ArdConfig) {
  return {
    identifier: `urn:air:${publisherHost(config)}:registry:scorecards`,
    displayName: `${SERVICE_NAME} scorecard registry`,
  }
}

export function publisher(config: ArdConfig) {
  return { displayName: SERVICE_NAME, identifier: publisherHost(config), url: config.publicBaseUrl }
}
