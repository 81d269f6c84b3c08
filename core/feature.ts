import type { AnyElysia } from 'elysia'
import { AppErrors, ERRORS, type EnvelopeClaim, type ErrorDefinition, type ErrorEnvelope } from './errors.ts'
import { type Config, type ConfigKeys, KERNEL_VARIABLES, loadSettings } from './config.ts'
import type { Limit } from './limits.ts'

/** Work a feature runs between the app's `start()` and `close()`: job workers, retry passes. */
export interface BackgroundWork {
  start(): Promise<void> | void
  stop(): Promise<void> | void
}

type Names<T> = Extract<keyof T, string>

/** What a feature adds to the kernel's errors (core/errors.ts). */
export interface FeatureErrors {
  /** The codes only this feature throws: its `defineErrors` table. */
  readonly codes?: Readonly<Record<string, ErrorDefinition>>
  /** The envelope its routes answer errors in, when not ErrorResponse, with the path prefixes of those routes. */
  readonly envelope?: EnvelopeClaim
}

/**
 * A feature (one plugin folder) as the composition root (app/feature-list.ts) sees it:
 * - `needs` names the pieces it is built from, each provided by the kernel (core/kernel.ts) or an earlier feature;
 * - `provide` builds the pieces it offers to later features and to the entry points, named in `provides`;
 * - `routes` builds its Elysia instance, and `background` its background work, from exactly the pieces it needs
 *   and provides: a feature never sees the others' pieces, so what it uses is what it declares;
 * - `errors` declares the error codes only it throws and the envelope of its routes' errors, if not the kernel's;
 * - `limits` are the rate limits it declares (core/limits.ts `defineLimits`), whoever spends them;
 * - `configKeys` are its own environment variables (core/config.ts `configKeys`), parsed at boot: their settings
 *   join the kernel's in the `config` piece this feature (and only it) receives.
 */
export interface Feature<Needs extends object = object, Provides extends object = object> {
  readonly name: string
  readonly needs: readonly Names<Needs>[]
  readonly provides: readonly Names<Provides>[]
  readonly limits?: Readonly<Record<string, Limit>>
  readonly configKeys?: ConfigKeys
  readonly errors?: FeatureErrors
  provide?(pieces: Needs): Provides
  routes?(pieces: Needs & Provides): AnyElysia
  background?(pieces: Needs & Provides): BackgroundWork[]
}

/** A need the type declares but the list leaves out would be undefined at run time: the compiler names it. */
type Complete<Needs, Listed extends readonly string[]> = [Exclude<Names<Needs>, Listed[number]>] extends [never]
  ? Listed
  : { missingFromNeeds: Exclude<Names<Needs>, Listed[number]> }

/** What a feature's `config` piece holds beyond the kernel's config: the settings its `configKeys` build. */
type OwnSettings<Needs> = Needs extends { config: infer Own } ? Omit<Own, keyof Config> : Record<never, never>

/**
 * Types a feature definition: `defineFeature<Needs, Provides>()({ name, needs, provides, provide, routes, background })`,
 * `Needs` being the pieces it is built from (e.g. `Pick<KernelPieces, 'config' | 'log'> & { scans: ScanRepository }`)
 * and `Provides` the pieces it builds. The lists repeat the types' names because the boot check reads them at
 * run time; the compiler holds the two together.
 */
export function defineFeature<Needs extends object, Provides extends object = Record<never, never>>() {
  return <const Listed extends readonly Names<Needs>[], const Offered extends readonly Names<Provides>[]>(feature: {
    name: string
    needs: Listed & Complete<Needs, Listed>
    provides: Offered & Complete<Provides, Offered>
    limits?: Readonly<Record<string, Limit>>
    configKeys?: ConfigKeys<OwnSettings<Needs>>
    errors?: FeatureErrors
    provide?(pieces: Needs): Provides
    routes?(pieces: Needs & Provides): AnyElysia
    background?(pieces: Needs & Provides): BackgroundWork[]
  }): Feature<Needs, Provides> => feature as Feature<Needs, Provides>
}

/** Any feature, as the composition root lists them (each was typed where it is defined). */
export type AnyFeature = Feature<any, any>

/**
 * Runs background work: `start` starts each in order, once however often it is called; `stop` stops what was
 * started, in reverse order (a worker stops before the queue it works), after waiting for a start under way.
 */
export function backgroundRunner(work: readonly BackgroundWork[]): { start(): Promise<void>; stop(): Promise<void> } {
  const started: BackgroundWork[] = []
  let starting: Promise<void> | null = null
  return {
    start: () =>
      (starting ??= (async () => {
        for (const each of work) {
          await each.start()
          started.push(each)
        }
      })()),
    stop: async () => {
      await starting?.catch(() => {})
      while (started.length > 0) await started.pop()!.stop()
    },
  }
}

export class FeatureError extends Error {
  override name = 'FeatureError'
}

export interface Composition {
  /** Every piece: the kernel's, then each feature's, by name. */
  pieces: object
  /** Each feature's Elysia instance, in the order of the list (the order of /openapi.json). */
  routes: AnyElysia[]
  /** Each feature's background work, in the order of the list: started in it, stopped in reverse. */
  background: { feature: string; work: BackgroundWork }[]
}

/**
 * The boot check, on names alone: fails when a feature needs a piece that neither the kernel nor an earlier
 * feature provides, or provides one that already exists (the dependency check of Fastify's plugins, with a
 * message that names both); when two features declare a limit of the same name (its counters' store key); when
 * a feature's `configKeys` read a variable the kernel or another feature reads; and when a feature declares an
 * error code or claims a path's envelope already taken (featureErrors).
 */
export function checkFeatures(kernelPieces: readonly string[], features: readonly AnyFeature[]): void {
  const origin = new Map(kernelPieces.map((name) => [name, 'the kernel']))
  const limits = new Map<string, string>()
  const variables = new Map(KERNEL_VARIABLES.map((name) => [name, 'the kernel']))
  for (const feature of features) {
    for (const { name } of Object.values(feature.limits ?? {})) {
      const earlier = limits.get(name)
      if (earlier) {
        throw new FeatureError(
          `Feature "${feature.name}" declares the limit "${name}", which ${earlier} already declares: one name keys one set of counters`,
        )
      }
      limits.set(name, `feature "${feature.name}"`)
    }
    for (const name of Object.keys(feature.configKeys?.variables ?? {})) {
      const earlier = variables.get(name)
      if (earlier) throw new FeatureError(`Feature "${feature.name}" reads ${name}, which ${earlier} already reads`)
      variables.set(name, `feature "${feature.name}"`)
    }
    const missing = feature.needs.filter((name) => !origin.has(name))
    if (missing.length > 0) {
      throw new FeatureError(
        `Feature "${feature.name}" needs ${missing.map((name) => `"${name}"`).join(', ')}, which neither the kernel nor a feature listed before it provides`,
      )
    }
    for (const name of feature.provides) {
      const earlier = origin.get(name)
      if (earlier)
        throw new FeatureError(`Feature "${feature.name}" provides "${name}", which ${earlier} already provides`)
      origin.set(name, `feature "${feature.name}"`)
    }
  }
  featureErrors(features)
}

/**
 * The errors of the features composed over the kernel's: fails when a code is declared twice (the kernel's
 * included), whatever its status and title, or when two features claim a path prefix for different envelopes.
 */
export function featureErrors(features: readonly AnyFeature[]): AppErrors {
  const codes = new Map<string, ErrorDefinition>(Object.values(ERRORS).map((error) => [error.code, error]))
  const origin = new Map(Object.keys(ERRORS).map((code) => [code, 'the kernel']))
  const claims: EnvelopeClaim[] = []
  const claimed = new Map<string, { feature: string; envelope: ErrorEnvelope }>()
  for (const feature of features) {
    for (const error of Object.values(feature.errors?.codes ?? {})) {
      const earlier = origin.get(error.code)
      if (earlier)
        throw new FeatureError(`Feature "${feature.name}" declares error code ${error.code}, which ${earlier} declares`)
      origin.set(error.code, `feature "${feature.name}"`)
      codes.set(error.code, error)
    }
    const claim = feature.errors?.envelope
    if (!claim) continue
    for (const prefix of claim.prefixes) {
      const earlier = claimed.get(prefix)
      if (earlier && earlier.envelope !== claim.envelope) {
        throw new FeatureError(
          `Feature "${feature.name}" claims ${prefix} for the ${claim.envelope.schemaName} envelope, which feature "${earlier.feature}" claims for ${earlier.envelope.schemaName}`,
        )
      }
      claimed.set(prefix, { feature: feature.name, envelope: claim.envelope })
    }
    claims.push(claim)
  }
  return new AppErrors(codes, claims)
}

/**
 * Each feature's `config` piece, by feature name, for the features that declare `configKeys`: the kernel's config
 * with the feature's own settings. Every feature's variables are parsed in one pass (one ConfigError names all the
 * invalid ones), so createApp calls this before it opens any connection.
 */
export function featureConfigs(config: Readonly<Config>, features: readonly AnyFeature[]): ReadonlyMap<string, object> {
  const declaring = features.filter((feature) => feature.configKeys)
  if (declaring.length === 0) return new Map()
  const settings = loadSettings(
    config,
    declaring.map((feature) => feature.configKeys!),
  )
  return new Map(
    declaring.map((feature, index) => {
      const own = settings[index]!
      const hidden = Object.keys(own).filter((name) => name in config)
      if (hidden.length > 0) {
        throw new FeatureError(
          `Feature "${feature.name}" builds settings ${hidden.map((name) => `"${name}"`).join(', ')}, which the kernel's config already holds`,
        )
      }
      return [feature.name, Object.freeze({ ...config, ...own })]
    }),
  )
}

/**
 * Builds the features in order over the kernel's pieces, after the boot check. `configs` are featureConfigs over
 * the kernel's `config` unless given (createApp reads them before opening the kernel).
 */
export function composeFeatures(
  kernel: object,
  features: readonly AnyFeature[],
  configs?: ReadonlyMap<string, object>,
): Composition {
  checkFeatures(Object.keys(kernel), features)
  const ownConfigs = configs ?? featureConfigs((kernel as { config: Readonly<Config> }).config, features)
  const pieces: Record<string, unknown> = { ...kernel }
  const routes: AnyElysia[] = []
  const background: Composition['background'] = []
  for (const feature of features) {
    const needed = Object.fromEntries(
      feature.needs.map((name) => [
        name,
        name === 'config' ? (ownConfigs.get(feature.name) ?? pieces.config) : pieces[name],
      ]),
    )
    const provided: Record<string, unknown> = feature.provide?.(needed) ?? {}
    const extra = Object.keys(provided).filter((name) => !feature.provides.includes(name))
    const absent = feature.provides.filter((name) => provided[name] === undefined)
    if (extra.length > 0 || absent.length > 0) {
      throw new FeatureError(
        `Feature "${feature.name}" declares provides [${feature.provides.join(', ')}] but built [${Object.keys(provided).join(', ')}]`,
      )
    }
    Object.assign(pieces, provided)
    const own = { ...needed, ...provided }
    const instance = feature.routes?.(own)
    if (instance) routes.push(instance)
    for (const work of feature.background?.(own) ?? []) background.push({ feature: feature.name, work })
  }
  return { pieces, routes, background }
}
