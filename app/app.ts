import { type AnyElysia, Elysia } from 'elysia'
import { compressionPlugin } from '../core/compression.ts'
import type { EngineOptions } from '../core/engine/engine.ts'
import { createEngine } from './engine.ts'
import type { Config } from '../core/config.ts'
import {
  type AnyFeature,
  backgroundRunner,
  checkFeatures,
  composeFeatures,
  FeatureError,
  featureConfigs,
  featureErrors,
} from '../core/feature.ts'
import { type AppPieces, FEATURES, type FeatureName } from './feature-list.ts'
import {
  closeKernel,
  KERNEL_PIECES,
  kernelBackground,
  kernelPieces,
  type KernelOverrides,
  openKernel,
} from '../core/kernel.ts'

export interface AppOptions extends KernelOverrides, EngineOptions {
  /**
   * The features to compose, by name, in the order of app/feature-list.ts whatever the order given; all of them
   * when omitted. A feature listed needs the features that provide its pieces listed too (createApp says which).
   */
  features?: readonly FeatureName[]
}

export interface AppHandle {
  /** Never listens: main.ts does, tests call handle(). */
  app: AnyElysia
  /** Every piece: the kernel's and those of the features composed (tests build single-feature apps from them). */
  pieces: AppPieces
  /**
   * Starts the background work: the kernel's (the read cache's invalidation feed, the job queue), then each
   * feature's in order (the scan and journey workers, WORKER_CONCURRENCY loops each; the retry of unsent mail).
   * Requests that queue jobs (a scan with rendered checks, a journey run) need it; idempotent.
   */
  start(): Promise<void>
  /** Stops what start() started, in reverse order, then closes the connections. */
  close(): Promise<void>
}

function selectFeatures(names: readonly FeatureName[] | undefined): readonly AnyFeature[] {
  if (!names) return FEATURES
  const unknown = names.filter((name) => !FEATURES.some((feature) => feature.name === name))
  if (unknown.length > 0) throw new FeatureError(`No feature named ${unknown.map((name) => `"${name}"`).join(', ')}`)
  return FEATURES.filter((feature) => names.includes(feature.name))
}

/**
 * Opens the kernel (connections, migrations), composes the features over it and builds the app, starting
 * nothing: no timer, poller or worker runs until `start()` (the build/listen split of Fastify), so an app can be
 * built to be inspected. A feature whose needs are not met, or whose own variables are invalid, fails here, before
 * any connection is opened.
 */
export async function createApp(config: Readonly<Config>, options: AppOptions = {}): Promise<AppHandle> {
  const { features, browser, ...overrides } = options
  const selected = selectFeatures(features)
  checkFeatures(KERNEL_PIECES, selected)
  const configs = featureConfigs(config, selected)
  const kernel = await openKernel(config, createEngine(config, { browser }), overrides)
  const pieces = kernelPieces(kernel, featureErrors(selected))
  let composed: ReturnType<typeof composeFeatures>
  try {
    composed = composeFeatures(pieces, selected, configs)
  } catch (error) {
    // A feature whose provide() threw, or built other than it declared: nothing may stay open behind it.
    await closeKernel(kernel)
    throw error
  }
  let app: AnyElysia = new Elysia({ name: 'agent-readiness' }).use(compressionPlugin()).use(pieces.context)
  for (const routes of composed.routes) app = app.use(routes)

  const background = backgroundRunner([...kernelBackground(kernel), ...composed.background.map(({ work }) => work)])
  return {
    app,
    pieces: composed.pieces as AppPieces,
    start: background.start,
    close: async () => {
      await background.stop()
      await closeKernel(kernel)
    },
  }
}
