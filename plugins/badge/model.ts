import { z } from 'zod'

export const badgeParams = z.object({
  domain: z.string().describe('A domain, or a URL-encoded full URL (normalised to its hostname)'),
})

export const badgeQuery = z.object({
  mcp: z
    .string()
    .max(2048)
    .optional()
    .describe(
      "An MCP server's URL on this domain: the badge of that server's own report instead of the domain's newest scan",
    ),
})

/**
 * The route's responses for the API description. Declared here rather than as Elysia `response` schemas, which
 * would document a string 200 as text/plain; errors use the one envelope the API description states.
 */
export const badgeResponses = {
  200: {
    description: 'The badge: "agent-ready" and "<score> <grade>" in the grade colour, with an accessible title',
    content: { 'image/svg+xml': { schema: { type: 'string' as const } } },
  },
  400: { description: 'Not a domain or an http(s) URL: error envelope, code `INVALID_DOMAIN`' },
  404: { description: 'The domain has no score: error envelope, code `NOT_FOUND`' },
  429: { description: 'Rate limit exceeded: error envelope, `Retry-After` in seconds' },
  500: { description: 'Database unavailable' },
}
