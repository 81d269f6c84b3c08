import { describe, expect, test } from 'bun:test'
import type { AgentSkillsArtifact } from '../../core/engine/collectors/agent-skills.ts'
import type { Outcome } from '../../core/engine/check.ts'
import { SKILLS_V02_SCHEMA } from '../../core/engine/lib/skills-index.ts'
import { sha256Hex } from '../lib/digest.ts'
import { context, jsonSnapshot, notFound, snapshot } from '../../tests/support/artifacts.ts'
import check from './agent-skills-index.ts'

const V02_URL = 'https://acme.test/.well-known/agent-skills/index.json'
const V01_URL = 'https://acme.test/.well-known/skills/index.json'
const SKILL_URL = 'https://acme.test/.well-known/agent-skills/order-anvils/SKILL.md'
const SKILL_MD = '---\nname: order-anvils\ndescription: Order anvils through the Acme API\n---\n# Ordering anvils\n'
const entry = {
  name: 'order-anvils',
  type: 'skill-md',
  description: 'Order anvils',
  url: '/.well-known/agent-skills/order-anvils/SKILL.md',
  digest: `sha256:${sha256Hex(SKILL_MD)}`,
}

function skills(v02: unknown, skillMd: string | null = SKILL_MD, v01: unknown = null): AgentSkillsArtifact {
  return {
    v02: v02 === null ? notFound(V02_URL) : jsonSnapshot(v02, { url: V02_URL }),
    v01: v01 === null ? notFound(V01_URL) : jsonSnapshot(v01, { url: V01_URL }),
    skillFiles:
      skillMd === null
        ? []
        : [
            {
              url: v02 === null ? 'https://acme.test/.well-known/skills/order-anvils/SKILL.md' : SKILL_URL,
              response: snapshot({ url: SKILL_URL, headers: { 'content-type': 'text/markdown' }, body: skillMd }),
            },
          ],
  }
}
const V02 = { $schema: SKILLS_V02_SCHEMA, skills: [entry] }

describe('agent-skills-index', () => {
  test.each([
    ['valid v0.2.0 index and SKILL.md', skills(V02), 'pass'],
    [
      'valid v0.1 index',
      skills(null, SKILL_MD, { skills: [{ name: 'order-anvils', description: 'Order anvils', files: ['SKILL.md'] }] }),
      'pass',
    ],
    ['wrong $schema', skills({ ...V02, $schema: 'https://example.test/schema.json' }), 'warning'],
    [
      'SKILL.md without frontmatter',
      skills({ $schema: SKILLS_V02_SCHEMA, skills: [{ ...entry, digest: undefined }] }, '# Ordering anvils\n'),
      'warning',
    ],
    ['digest mismatch', skills(V02, `${SKILL_MD}\nedited\n`), 'warning'],
    [
      'archive-only skills',
      skills({ $schema: SKILLS_V02_SCHEMA, skills: [{ ...entry, type: 'archive', url: '/skills.zip' }] }, null),
      'warning',
    ],
    ['no index', skills(null, null), 'fail'],
    ['index with no skills', skills({ $schema: SKILLS_V02_SCHEMA, skills: [] }, null), 'fail'],
  ] satisfies [string, AgentSkillsArtifact, Outcome['status']][])('%s -> %s', (_name, agentSkills, expected) => {
    const outcome = check.run({ agentSkills }, context)
    expect(outcome.status).toBe(expected)
    if (expected !== 'pass') expect(outcome.recommendation).toBeString()
  })

  test('SKILL.md fetches that failed are an error, not a verdict', () => {
    const agentSkills = { ...skills(V02, null), skillErrors: [{ url: SKILL_URL, error: 'timeout' }] }
    expect(check.run({ agentSkills }, context).status).toBe('error')
  })
})
