import { createHash } from 'node:crypto'
import { SERVICE_NAME } from '../../core/version.ts'
import { API_CATALOG_PATH, MCP_PATH, OPENAPI_PATH } from './discovery.ts'

/**
 * Agent Skills discovery (v0.2.0: /.well-known/agent-skills/index.json): the one skill this service has to teach,
 * how to scan a target with the API or the MCP server and act on the report. The SKILL.md is real documentation of
 * the real routes; the index carries its sha256 so a client can verify what it installs.
 */

export const SKILLS_INDEX_PATH = '/.well-known/agent-skills/index.json'
const SKILLS_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json'
const SKILL_NAME = 'agent-readiness-scan'
const SKILL_DESCRIPTION =
  'Scan a website, an MCP server or an MCP App server for AI-agent readiness with the agent-readiness API or MCP server, read the score, grade and per-check results, and turn the ranked fixes into concrete changes.'
export const SKILL_PATH = `/.well-known/agent-skills/${SKILL_NAME}/SKILL.md`

export function skillMarkdown(baseUrl: string): string {
  return `---
name: ${SKILL_NAME}
description: ${SKILL_DESCRIPTION}
---

# Scan a site for AI-agent readiness

Use this skill when a user asks how ready a website, an MCP server or an MCP App server is for AI agents, why it
scores as it does, or what to change to improve it. The service is ${SERVICE_NAME} at ${baseUrl}.

## Run a scan

- HTTP: \`POST ${baseUrl}/api/scan\` with \`Content-Type: application/json\` and the body \`{"url": "example.com"}\`.
  \`url\` is a domain, an MCP server URL or an MCP App URL; add \`"mcpUrl"\` to scan one specific MCP endpoint.
  A recent stored result is answered from the store (see the \`Age\` header); send \`"force": true\` only when the
  user changed the site and needs a live result.
- MCP: call the \`scan_domain\` tool of the streamable HTTP server at ${baseUrl}${MCP_PATH}.
- Read without scanning: \`GET ${baseUrl}/api/score/<domain>\` answers the stored score (404 when never scanned).
- Scans are rate-limited per IP (429 with \`Retry-After\`); wait as told rather than retrying at once.

Every endpoint, with request and response schemas, is in the OpenAPI document at ${baseUrl}${OPENAPI_PATH}; the
APIs are listed at ${baseUrl}${API_CATALOG_PATH}.

## Read the report

- \`score\` (0-100) and \`grade\` (A+ to F) summarise the result; \`layers\` give each layer's points
  (discovery, accessibility, usability, payments).
- \`topFixes\` are ranked by estimated score gain: start there when the user asks what to do.
- Each check has a \`status\` (pass, warning, fail, na, pending, error), \`details\` saying what was observed, a
  \`recommendation\` and a \`specUrl\`. Quote the details and link the specification rather than paraphrasing rules.
- A check that is \`na\` does not apply to the target and does not count; \`pending\` checks (browser-rendered) finish
  in the background: read the score again later.
- What every check measures is in ${baseUrl}/llms-full.txt and, as JSON, at \`GET ${baseUrl}/api/checks\`.

## After a fix

Re-run only the checks the user worked on with \`POST ${baseUrl}/api/scan/checks\` and the body
\`{"url": "example.com", "checkIds": ["llms-txt", "robots-txt"]}\`, then a full scan when they are done.
The human-readable report is ${baseUrl}/site/<domain> (Markdown: ${baseUrl}/site/<domain>.md); share that link.
`
}

export function skillsIndex(baseUrl: string, skill: string) {
  return {
    $schema: SKILLS_SCHEMA,
    skills: [
      {
        name: SKILL_NAME,
        type: 'skill-md',
        description: SKILL_DESCRIPTION,
        url: `${baseUrl}${SKILL_PATH}`,
        digest: `sha256:${createHash('sha256').update(skill).digest('hex')}`,
      },
    ],
  }
}
