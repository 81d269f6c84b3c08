/** Agent Skills discovery indexes (docs/checks.md §15.2), v0.2.0 and v0.1. */
import { type HttpSnapshot, isRecord } from '../snapshot.ts'
import { readJsonObject } from './json-document.ts'

export const SKILLS_V02_SCHEMA = 'https://schemas.agentskills.io/discovery/0.2.0/schema.json'
const SKILL_NAME = /^(?!-)(?!.*--)[a-z0-9-]{1,64}(?<!-)$/

export interface SkillsIndex {
  version: '0.2.0' | '0.1'
  url: string
  skills: { name: string; skillMdUrl: string | null; digest?: string }[]
  problems: string[]
}

/**
 * Parses a skills index. v0.2.0 (`/.well-known/agent-skills/index.json`): `$schema`, `skills[]` of
 * `{name, type: skill-md|archive, description, url, digest?}`. v0.1 (`/.well-known/skills/index.json`):
 * `skills[]` of `{name, description, files[]}` with the SKILL.md at `<name>/SKILL.md` beside the index.
 * Null when the response is not a 2xx JSON object.
 */
export function parseSkillsIndex(snapshot: HttpSnapshot, version: SkillsIndex['version']): SkillsIndex | null {
  const document = readJsonObject(snapshot)
  if (document.state !== 'ok') return null
  const index: SkillsIndex = { version, url: snapshot.url, skills: [], problems: [] }
  const { value } = document
  if (version === '0.2.0' && value.$schema !== SKILLS_V02_SCHEMA) {
    index.problems.push(
      `$schema is ${value.$schema === undefined ? 'missing' : `"${String(value.$schema)}"`}, not ${SKILLS_V02_SCHEMA}`,
    )
  }
  if (!Array.isArray(value.skills) || value.skills.length === 0) {
    index.problems.push('no skills[] entries')
    return index
  }
  for (const [position, raw] of value.skills.entries()) {
    if (!isRecord(raw)) {
      index.problems.push(`skills[${position}] is not an object`)
      continue
    }
    const name = typeof raw.name === 'string' ? raw.name : ''
    const label = `skills[${position}]${name ? ` (${name})` : ''}`
    if (!SKILL_NAME.test(name))
      index.problems.push(`${label}: name must be 1–64 lowercase letters, digits and single hyphens`)
    if (typeof raw.description !== 'string' || raw.description.trim() === '')
      index.problems.push(`${label}: no description`)
    let skillMdUrl: string | null = null
    if (version === '0.2.0') {
      if (raw.type !== 'skill-md' && raw.type !== 'archive')
        index.problems.push(`${label}: type must be skill-md or archive`)
      if (raw.digest !== undefined && (typeof raw.digest !== 'string' || !/^sha256:[0-9a-f]{64}$/.test(raw.digest))) {
        index.problems.push(`${label}: digest is not sha256:<64 hex>`)
      }
      if (typeof raw.url !== 'string') index.problems.push(`${label}: no url`)
      else if (raw.type === 'skill-md') skillMdUrl = resolve(raw.url, snapshot.url)
    } else {
      const files = Array.isArray(raw.files) ? raw.files : []
      if (!files.includes('SKILL.md')) index.problems.push(`${label}: files[] does not list SKILL.md`)
      if (name) skillMdUrl = resolve(`${encodeURIComponent(name)}/SKILL.md`, snapshot.url)
    }
    if (name) index.skills.push({ name, skillMdUrl, ...(typeof raw.digest === 'string' ? { digest: raw.digest } : {}) })
  }
  return index
}

function resolve(href: string, base: string): string | null {
  try {
    return new URL(href, base).href
  } catch {
    return null
  }
}
