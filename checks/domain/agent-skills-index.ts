// (bonus) An Agent Skills discovery index (v0.2.0 /.well-known/agent-skills/index.json, or v0.1 /.well-known/skills/index.json) lists skills whose SKILL.md resolves with name/description frontmatter.
// Spec: https://github.com/cloudflare/agent-skills-discovery-rfc (v0.1: https://github.com/elithrar/agent-skills-discovery-rfc)
import { defineCheck, fail, pass, warn } from '../../core/engine/check.ts'
import { listSome, pathOf } from '../../core/engine/lib/describe.ts'
import { parseFrontmatter } from '../../core/engine/lib/markdown.ts'
import { parseSkillsIndex, SKILLS_V02_SCHEMA, type SkillsIndex } from '../../core/engine/lib/skills-index.ts'
import { sha256Hex } from '../lib/digest.ts'
import { unreachable } from '../lib/outcomes.ts'
import { isOk } from '../../core/engine/snapshot.ts'

export default defineCheck({
  meta: {
    id: 'agent-skills-index',
    name: 'Agent Skills index',
    description:
      'A skills index lets an agent install the site’s own instructions for using it (SKILL.md files) from a predictable URL.',
    layer: 'discovery',
    applicability: 'domain-only',
    tier: 'emerging',
    maturity: 'emerging',
    bonus: true,
    draft: true,
    maxScore: 2,
    specUrl: 'https://github.com/cloudflare/agent-skills-discovery-rfc',
    recommendation: `Publish /.well-known/agent-skills/index.json ({"$schema": "${SKILLS_V02_SCHEMA}", "skills": [{"name", "type": "skill-md", "description", "url", "digest"}]}) pointing to SKILL.md files with name and description frontmatter.`,
    needs: ['agentSkills'],
    agentEntryPoint: true,
  },
  run({ agentSkills }, { target }) {
    const indexUrl = `${target.origin}/.well-known/agent-skills/index.json`
    const indexes = [parseSkillsIndex(agentSkills.v02, '0.2.0'), parseSkillsIndex(agentSkills.v01, '0.1')].filter(
      (index): index is SkillsIndex => index !== null,
    )
    const index =
      indexes.find((candidate) => candidate.problems.length === 0 && candidate.skills.length > 0) ?? indexes[0]
    if (!index || index.skills.length === 0) {
      const found = index
        ? `${pathOf(index.url)} lists no skills`
        : `/.well-known/agent-skills/index.json → ${agentSkills.v02.status}, /.well-known/skills/index.json → ${agentSkills.v01.status}`
      return fail(
        `No Agent Skills index: ${found}`,
        `Publish ${indexUrl} listing at least one skill with its SKILL.md URL.`,
      )
    }
    const where = `${pathOf(index.url)} (v${index.version})`
    const issues: string[] = []
    const fixes: string[] = []
    if (index.problems.length > 0) {
      issues.push(`the index has problems: ${listSome(index.problems, 3)}`)
      fixes.push(`in ${pathOf(index.url)}, ${listSome(index.problems, 3)}`)
    }
    const byUrl = new Map(
      index.skills.flatMap((skill) => (skill.skillMdUrl ? [[skill.skillMdUrl, skill] as const] : [])),
    )
    const files = agentSkills.skillFiles.filter((file) => byUrl.has(file.url))
    const good: string[] = []
    const bad: string[] = []
    for (const file of files) {
      const skill = byUrl.get(file.url)!
      const frontmatter = isOk(file.response) ? parseFrontmatter(file.response.body) : null
      if (!isOk(file.response)) bad.push(`${pathOf(file.url)} answers ${file.response.status}`)
      else if (!frontmatter || typeof frontmatter.name !== 'string' || typeof frontmatter.description !== 'string') {
        bad.push(`${pathOf(file.url)} has no name/description frontmatter`)
      } else if (skill.digest && skill.digest !== `sha256:${sha256Hex(file.response.body)}`) {
        bad.push(`${pathOf(file.url)} does not match its index digest`)
      } else good.push(skill.name)
    }
    if (bad.length > 0) {
      issues.push(listSome(bad, 3))
      fixes.push(
        'serve each SKILL.md with frontmatter (the lines "---", "name: …", "description: …", "---") and keep index digests current',
      )
    }
    const errors = agentSkills.skillErrors ?? []
    if (files.length === 0 && errors.length > 0 && index.problems.length === 0) {
      return unreachable(
        `${where} lists ${index.skills.length} skill(s) but no SKILL.md could be fetched: ${listSome(
          errors.map((e) => `${pathOf(e.url)} (${e.error})`),
          2,
        )}`,
      )
    }
    if (good.length === 0 && bad.length === 0) {
      issues.push('no skill points to a SKILL.md that could be checked')
      fixes.push('give each skill a type "skill-md" url to its SKILL.md')
    }
    const summary = `Skills index ${where} lists ${index.skills.length} skill(s)`
    if (issues.length > 0)
      return warn(`${summary}; but ${issues.join('; ')}`, `For the skills index: ${fixes.join('; ')}.`)
    return pass(`${summary}; ${good.length} SKILL.md file(s) resolve with frontmatter (${listSome(good)})`)
  },
})
