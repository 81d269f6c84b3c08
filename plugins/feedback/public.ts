/** What other features may use of feedback: the service, agent verification and the schemas the MCP tools reuse. */
export {
  agentFeedbackInput,
  agentFeedbackList,
  agentFeedbackRecord,
  checkFeedbackBody,
  checkFeedbackResponse,
  feedbackDomainParams,
  feedbackListQuery,
  feedbackStats,
  VERIFICATION_TTL_MS,
  verificationChallenge,
} from './model.ts'
export type { FeedbackService } from './service.ts'
export type { AgentVerification } from './verification.ts'
export { FEEDBACK_LIMITS } from './limits.ts'
