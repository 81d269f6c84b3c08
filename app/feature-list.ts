import type { Feature } from '../core/feature.ts'
import type { KernelPieces } from '../core/kernel.ts'
import { ardFeature } from '../plugins/ard/index.ts'
import { badgeFeature } from '../plugins/badge/index.ts'
import { catalogFeature } from '../plugins/catalog/index.ts'
import { contactFeature } from '../plugins/contact/index.ts'
import { discoverFeature } from '../plugins/discover/index.ts'
import { docsFeature } from '../plugins/docs/index.ts'
import { feedbackFeature } from '../plugins/feedback/index.ts'
import { journeyFeature } from '../plugins/journey/index.ts'
import { leaderboardFeature } from '../plugins/leaderboard/index.ts'
import { mcpFeature } from '../plugins/mcp/index.ts'
import { opsFeature } from '../plugins/ops/index.ts'
import { scanFeature } from '../plugins/scan/index.ts'
import { trustFeature } from '../plugins/trust/index.ts'
import { webBotAuthFeature } from '../plugins/web-bot-auth/index.ts'
import { webFeature } from '../plugins/web/index.ts'

/**
 * The composition root: every feature of the service, in order. The order is the order in which their pieces are
 * built (a feature needs only what the kernel or one listed before it provides; createApp checks it at boot) and
 * in which their routes mount, which is the order of the paths in /openapi.json. This is the one file under
 * core/ that names plugins/ (tests/architecture.test.ts holds the kernel to it).
 */
export const FEATURES = [
  docsFeature,
  opsFeature,
  catalogFeature,
  scanFeature,
  badgeFeature,
  leaderboardFeature,
  discoverFeature,
  ardFeature,
  trustFeature,
  webBotAuthFeature,
  feedbackFeature,
  contactFeature,
  journeyFeature,
  mcpFeature,
  webFeature,
] as const

export type FeatureName = (typeof FEATURES)[number]['name']

/**
 * What `agent-readiness worker` composes: the two features whose background work runs queued jobs (deep
 * analysis, journey runs), and ARD, whose index follows every scan the worker stores.
 */
export const WORKER_FEATURES: readonly FeatureName[] = ['scan', 'ard', 'journey']

type ProvidedBy<F> = F extends Feature<never, infer Provides> ? Provides : never
type Intersection<U> = (U extends unknown ? (union: U) => void : never) extends (all: infer I) => void ? I : never

/** Every piece of a fully composed app: the kernel's and each feature's, by name. */
export type AppPieces = KernelPieces & Intersection<ProvidedBy<(typeof FEATURES)[number]>>

/** The journey run record as the API sends it, which the CLI's remote journey command reads (types only). */
export type { JourneyRunRecord } from '../plugins/journey/model.ts'
