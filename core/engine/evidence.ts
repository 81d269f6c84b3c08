import { z } from 'zod'

/**
 * Typed facts a check reports beside its prose `details`, for programs that must not parse prose (the ARD
 * indexer). A check declares the schema of its evidence next to its metadata; the runner validates what the check
 * returns against it, and the result keeps it in storage while the wire shapes leave it out.
 */

/**
 * MCP endpoints found answering (initialize or an auth challenge), each with where the scan learnt of it. URLs are
 * kept as probed; a reader filters what it can use, so an odd URL never turns the check into an error.
 */
export const mcpEndpointsEvidence = z.object({
  mcpEndpoints: z.array(z.object({ url: z.string().min(1), source: z.string().min(1) })),
})
export type McpEndpointsEvidence = z.infer<typeof mcpEndpointsEvidence>
