import { Elysia } from 'elysia'
import type { Config } from './config.ts'
import { contextPlugin } from './context.ts'
import { type AppDeps, closeDeps, type DepsOverrides, openDeps } from './deps.ts'
import { ardPlugin } from '../plugins/ard/index.ts'
import { badgePlugin } from '../plugins/badge/index.ts'
import { checksPlugin } from '../plugins/checks/index.ts'
import { contactPlugin } from '../plugins/contact/index.ts'
import { discoverPlugin } from '../plugins/discover/index.ts'
import { OutboxRetrier } from '../plugins/contact/service.ts'
import { docsPlugin } from '../plugins/docs/index.ts'
import { feedbackPlugin } from '../plugins/feedback/index.ts'
import { leaderboardPlugin } from '../plugins/leaderboard/index.ts'
import { mcpPlugin } from '../plugins/mcp/index.ts'
import { opsPlugin } from '../plugins/ops/index.ts'
import { scanPlugin } from '../plugins/scan/index.ts'
import { trustPlugin } from '../plugins/trust/index.ts'
import { webBotAuthPlugin } from '../plugins/web-bot-auth/index.ts'
import { ScanWorker } from '../plugins/scan/worker.ts'

/** Composes the feature plugins over one set of dependencies. Never listens: main.ts does, tests call handle(). */
export function buildApp(deps: AppDeps) {
  return new Elysia({ name: 'agent-readiness' })
    .use(contextPlugin(deps))
    .use(docsPlugin(deps.config))
    .use(opsPlugin(deps))
    .use(checksPlugin(deps))
    .use(scanPlugin(deps))
    .use(badgePlugin(deps))
    .use(leaderboardPlugin(deps))
    .use(discoverPlugin(deps))
    .use(ardPlugin(deps))
    .use(trustPlugin(deps))
    .use(webBotAuthPlugin(deps))
    .use(feedbackPlugin(deps))
    .use(contactPlugin(deps))
    .use(mcpPlugin(deps))
}

export type App = ReturnType<typeof buildApp>

export interface AppHandle {
  app: App
  deps: AppDeps
  close(): Promise<void>
}

/**
 * Builds the app and starts its background jobs: the scan worker (WORKER_CONCURRENCY loops; 0 for none) and the
 * retry of mail that could not be sent.
 */
export async function createApp(config: Readonly<Config>, overrides: DepsOverrides = {}): Promise<AppHandle> {
  const deps = await openDeps(config, overrides)
  const worker = new ScanWorker(deps)
  await worker.start(config.workerConcurrency)
  const mailRetrier = new OutboxRetrier(deps)
  mailRetrier.start()
  return {
    app: buildApp(deps),
    deps,
    close: async () => {
      await mailRetrier.stop()
      await closeDeps(deps)
    },
  }
}
