// (bonus) /.well-known/agents.json (Wildcard agents.json) declares its spec version, info, OpenAPI sources and flows.
// Spec: https://github.com/wild-card-ai/agents-json
import { defineCheck } from '../../core/engine/check.ts'
import { judgeManifest } from '../lib/manifest.ts'
import { isRecord } from '../../core/engine/snapshot.ts'

export default defineCheck({
  meta: {
    id: 'agents-json',
    name: 'agents.json manifest',
    description:
      'agents.json describes multi-step API flows on top of OpenAPI, so an agent can chain calls the way the site intends.',
    layer: 'discovery',
    applicability: 'domain-only',
    tier: 'emerging',
    maturity: 'emerging',
    bonus: true,
    draft: true,
    maxScore: 1,
    specUrl: 'https://github.com/wild-card-ai/agents-json',
    recommendation:
      'Optionally publish /.well-known/agents.json with agentsJson, info {title, version, description}, sources [{id, path}] and flows.',
    needs: ['agentsJson'],
  },
  run({ agentsJson }, { target }) {
    return judgeManifest(agentsJson, {
      label: '/.well-known/agents.json',
      fields: {
        agentsJson: 'string',
        'info.title': 'string',
        'info.version': 'string',
        'info.description': 'string',
        sources: 'non-empty-array',
        flows: 'array',
      },
      extraProblems(manifest) {
        const sources = Array.isArray(manifest.sources) ? manifest.sources : []
        const bad = sources.filter(
          (source) => !isRecord(source) || typeof source.id !== 'string' || typeof source.path !== 'string',
        )
        return bad.length > 0 ? [`${bad.length} source(s) without id and path`] : []
      },
      summary: (manifest) =>
        `agentsJson ${String(manifest.agentsJson)}, ${(manifest.sources as unknown[]).length} source(s), ${(manifest.flows as unknown[]).length} flow(s)`,
      publish: `Optionally publish ${target.origin}/.well-known/agents.json describing your API flows over your OpenAPI sources.`,
    })
  },
})
