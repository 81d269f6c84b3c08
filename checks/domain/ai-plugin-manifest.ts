// (bonus) The legacy ChatGPT plugin manifest /.well-known/ai-plugin.json is complete and points to an OpenAPI description.
// Spec: https://github.com/openai/plugins-quickstart (manifest fields; docs/checks.md §14.5)
import { defineCheck } from '../../core/engine/check.ts'
import { valueAt } from '../lib/fields.ts'
import { judgeManifest } from '../lib/manifest.ts'

export default defineCheck({
  meta: {
    id: 'ai-plugin-manifest',
    name: 'Legacy ai-plugin.json',
    description:
      'Some agents still read the ChatGPT plugin manifest to find a site’s API description and how to authenticate.',
    layer: 'discovery',
    applicability: 'domain-only',
    tier: 'emerging',
    maturity: 'emerging',
    bonus: true,
    draft: true,
    maxScore: 1,
    specUrl: 'https://github.com/openai/plugins-quickstart',
    recommendation:
      'Optionally publish /.well-known/ai-plugin.json (schema_version "v1", names and descriptions for human and model, auth, api {type: "openapi", url}, logo_url, contact_email, legal_info_url).',
    needs: ['aiPlugin'],
  },
  run({ aiPlugin }, { target }) {
    return judgeManifest(aiPlugin, {
      label: '/.well-known/ai-plugin.json',
      fields: {
        schema_version: 'string',
        name_for_human: 'string',
        name_for_model: 'string',
        description_for_human: 'string',
        description_for_model: 'string',
        'auth.type': 'string',
        'api.type': 'string',
        'api.url': 'string',
        logo_url: 'string',
        contact_email: 'string',
        legal_info_url: 'string',
      },
      extraProblems(manifest) {
        const problems: string[] = []
        if (manifest.schema_version !== undefined && manifest.schema_version !== 'v1')
          problems.push('schema_version is not "v1"')
        const apiType = valueAt(manifest, 'api.type')
        if (apiType !== undefined && apiType !== 'openapi') problems.push('api.type is not "openapi"')
        const apiUrl = valueAt(manifest, 'api.url')
        if (typeof apiUrl === 'string' && !URL.canParse(apiUrl, target.origin))
          problems.push(`api.url "${apiUrl}" is not a URL`)
        return problems
      },
      summary: (manifest) =>
        `"${String(manifest.name_for_human)}" with its API description at ${String(valueAt(manifest, 'api.url'))}`,
      publish: `Optionally publish ${target.origin}/.well-known/ai-plugin.json pointing api.url to your OpenAPI document.`,
    })
  },
})
