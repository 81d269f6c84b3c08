import type { Config } from './config.ts'
import { loadSigningKeys, type SigningKeys } from './crypto/signing.ts'
import { createRequestSigner } from './crypto/web-bot-auth.ts'
import type { BrowserProvider } from './engine/browser.ts'
import { createBrowserProvider } from './engine/browser-puppeteer.ts'
import { CheckRegistry } from './engine/registry.ts'
import { createOutboundClient, type OutboundClient } from './outbound/client.ts'
import { REGISTERED_CHECKS } from '../checks/index.ts'

/**
 * What the check engine needs. Kept apart from deps.ts so that the CLI's in-process scan loads no database
 * driver, job queue or store client.
 */
export interface EngineDependencies {
  config: Readonly<Config>
  registry: CheckRegistry
  signing: SigningKeys
  outbound: OutboundClient
  /** The system or remote Chromium for rendered checks; null when none is configured. */
  browser: BrowserProvider | null
}

/** `browser: null` runs without one (rendered checks report an error); omitted, the configured one is used. */
export function createEngineDeps(
  config: Readonly<Config>,
  overrides: { browser?: BrowserProvider | null } = {},
): EngineDependencies {
  const registry = new CheckRegistry(REGISTERED_CHECKS)
  const signing = loadSigningKeys(config)
  // Outbound requests are signed only when a key exists (docs/checks.md §17.2: no key, no signature).
  const signer = signing.current ? createRequestSigner(signing.current, config.publicBaseUrl) : null
  return {
    config,
    registry,
    signing,
    outbound: createOutboundClient(config, signer),
    browser: overrides.browser === undefined ? createBrowserProvider(config) : overrides.browser,
  }
}
