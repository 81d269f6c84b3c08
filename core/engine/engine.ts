import type { Config } from '../config.ts'
import { loadSigningKeys, type SigningKeys } from '../crypto/signing.ts'
import { createRequestSigner } from '../crypto/web-bot-auth.ts'
import type { BrowserProvider } from './browser.ts'
import { createBrowserProvider } from './browser-puppeteer.ts'
import { CheckRegistry, type RegisteredCheck } from './registry.ts'
import { createOutboundClient, type OutboundClient } from '../outbound/client.ts'

/**
 * The check engine: the checks it runs and what they run with. Kept apart from the kernel (core/kernel.ts) so that
 * the CLI's in-process scan loads no database driver, job queue or store client.
 */
export interface Engine {
  config: Readonly<Config>
  registry: CheckRegistry
  signing: SigningKeys
  outbound: OutboundClient
  /** The system or remote Chromium for rendered checks; null when none is configured. */
  browser: BrowserProvider | null
}

export interface EngineOptions {
  /** `null` runs without one (rendered checks report an error); omitted, the configured one is used. */
  browser?: BrowserProvider | null
}

/**
 * Builds the engine over `checks`, the catalog the composition root registers (the engine knows no check of its
 * own): app/engine.ts passes the repository's checks, a test may pass a few of its own.
 */
export function buildEngine(
  config: Readonly<Config>,
  checks: readonly RegisteredCheck[],
  options: EngineOptions = {},
): Engine {
  const registry = new CheckRegistry(checks)
  const signing = loadSigningKeys(config)
  // Outbound requests are signed only when a key exists (docs/checks.md §17.2: no key, no signature).
  const signer = signing.current ? createRequestSigner(signing.current, config.publicBaseUrl) : null
  return {
    config,
    registry,
    signing,
    outbound: createOutboundClient(config, signer),
    browser: options.browser === undefined ? createBrowserProvider(config) : options.browser,
  }
}
