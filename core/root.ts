import { contextPlugin } from './context.ts'
import type { AppDeps } from './deps.ts'
import { ContactService, OutboxMailer } from '../plugins/contact/service.ts'
import { FeedbackService } from '../plugins/feedback/service.ts'
import { JourneyService } from '../plugins/journey/service.ts'
import { AgentVerification } from '../plugins/feedback/verification.ts'
import { ScanService } from '../plugins/scan/service.ts'
import { V2ScanService } from '../plugins/scan/v2.ts'

/** The services that more than one entry point (HTTP routes, MCP tools, background jobs) drives. */
export interface Services {
  scans: ScanService
  v2Scans: V2ScanService
  verification: AgentVerification
  feedback: FeedbackService
  /** One SMTP transport for the contact route and the outbox retrier. */
  mailer: OutboxMailer
  contact: ContactService
  journeys: JourneyService
}

export function createServices(deps: AppDeps): Services {
  const verification = new AgentVerification(deps)
  const mailer = new OutboxMailer(deps)
  return {
    scans: new ScanService(deps),
    v2Scans: new V2ScanService(deps),
    verification,
    feedback: new FeedbackService(deps, verification),
    mailer,
    contact: new ContactService(deps, mailer),
    journeys: new JourneyService(deps),
  }
}

export type RequestContext = ReturnType<typeof contextPlugin>

/**
 * What every feature plugin is built from: the dependencies, the services and the one request-context plugin
 * (request id, caller, limits, body parser, error mapper), each made once per app in `createApp`.
 */
export interface Root {
  deps: AppDeps
  services: Services
  context: RequestContext
}

export function createRoot(deps: AppDeps): Root {
  return { deps, services: createServices(deps), context: contextPlugin(deps) }
}
