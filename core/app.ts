import { Elysia } from 'elysia'
import type { Config } from './config.ts'
import { type AppDeps, closeDeps, type DepsOverrides, openDeps } from './deps.ts'
import { createRoot, type Root, type Services } from './root.ts'
import { ardPlugin } from '../plugins/ard/index.ts'
import { badgePlugin } from '../plugins/badge/index.ts'
import { checksPlugin } from '../plugins/checks/index.ts'
import { contactPlugin } from '../plugins/contact/index.ts'
import { discoverPlugin } from '../plugins/discover/index.ts'
import { OutboxRetrier } from '../plugins/contact/service.ts'
import { docsPlugin } from '../plugins/docs/index.ts'
import { feedbackPlugin } from '../plugins/feedback/index.ts'
import { journeyPlugin } from '../plugins/journey/index.ts'
import { JourneyWorker } from '../plugins/journey/worker.ts'
import { leaderboardPlugin } from '../plugins/leaderboard/index.ts'
import { mcpPlugin } from '../plugins/mcp/index.ts'
import { opsPlugin } from '../plugins/ops/index.ts'
import { scanPlugin } from '../plugins/scan/index.ts'
import { trustPlugin } from '../plugins/trust/index.ts'
import { webBotAuthPlugin } from '../plugins/web-bot-auth/index.ts'
import { webPlugin } from '../plugins/web/index.ts'
import { compressionPlugin } from '../plugins/web/compression.ts'
import { ScanWorker } from '../plugins/scan/worker.ts'

/** Composes the feature plugins over one root (core/root.ts). Never listens: main.ts does, tests call handle(). */
export function buildApp(root: Root) {
  const { deps, context } = root
  return new Elysia({ name: 'agent-readiness' })
    .use(compressionPlugin())
    .use(context)
    .use(docsPlugin(deps.config))
    .use(opsPlugin(root))
    .use(checksPlugin(root))
    .use(scanPlugin(root))
    .use(badgePlugin(root))
    .use(leaderboardPlugin(root))
    .use(discoverPlugin(root))
    .use(ardPlugin(root))
    .use(trustPlugin(root))
    .use(webBotAuthPlugin(root))
    .use(feedbackPlugin(root))
    .use(contactPlugin(root))
    .use(journeyPlugin(root))
    .use(mcpPlugin(root))
    .use(webPlugin(root))
}

export type App = ReturnType<typeof buildApp>

export interface AppHandle {
  app: App
  /** What the plugins are built from; tests build single-plugin apps from it. */
  root: Root
  deps: AppDeps
  services: Services
  /**
   * Starts what runs in the background: the read cache's invalidation feed, the job queue (pg-boss timers), the
   * scan and journey workers (WORKER_CONCURRENCY loops each; 0 for none) and the retry of mail that could not be
   * sent. Requests that queue jobs (a scan with rendered checks, a journey run) need it; idempotent.
   */
  start(): Promise<void>
  /** Stops the background work, then closes connections. */
  close(): Promise<void>
}

/**
 * Opens the dependencies (connections, migrations) and builds the app, starting nothing: no timer, poller or
 * worker runs until `start()` (the build/listen split of Fastify), so an app can be built to be inspected.
 */
export async function createApp(config: Readonly<Config>, overrides: DepsOverrides = {}): Promise<AppHandle> {
  const deps = await openDeps(config, overrides)
  const root = createRoot(deps)
  const worker = new ScanWorker(deps)
  const journeyWorker = new JourneyWorker(deps)
  const mailRetrier = new OutboxRetrier(deps, root.services.mailer)
  let starting: Promise<void> | null = null
  return {
    app: buildApp(root),
    root,
    deps,
    services: root.services,
    start: () =>
      (starting ??= (async () => {
        await deps.readCache.start()
        await deps.jobs.start()
        await worker.start(config.workerConcurrency)
        await journeyWorker.start(config.workerConcurrency)
        mailRetrier.start()
      })()),
    close: async () => {
      await journeyWorker.stop()
      await mailRetrier.stop()
      await closeDeps(deps)
    },
  }
}
