import { defineCollector } from '../check.ts'
import { ACCEPT } from '../lib/media-types.ts'
import { parseSkillsIndex } from '../lib/skills-index.ts'
import { settle } from './lib/fetch.ts'
import { fetchSnapshot, type HttpSnapshot } from '../snapshot.ts'

export interface AgentSkillsArtifact {
  /** v0.2.0: /.well-known/agent-skills/index.json */
  v02: HttpSnapshot
  /** v0.1: /.well-known/skills/index.json */
  v01: HttpSnapshot
  /** Up to 3 SKILL.md files referenced by whichever index parsed, fetched. */
  skillFiles: { url: string; response: HttpSnapshot }[]
  /** SKILL.md fetches that could not finish (DNS, timeout), kept out of `skillFiles`. */
  skillErrors?: { url: string; error: string }[]
}

const MAX_SKILL_FILES = 3

export const agentSkillsCollector = defineCollector({
  key: 'agentSkills',
  async collect({ http, target }) {
    const options = { headers: { accept: ACCEPT.json } }
    const [v02, v01] = await Promise.all([
      fetchSnapshot(http, `${target.origin}/.well-known/agent-skills/index.json`, options),
      fetchSnapshot(http, `${target.origin}/.well-known/skills/index.json`, options),
    ])
    // v0.2.0 first; v0.1 when the newer index is absent or lists no SKILL.md.
    const indexes = [parseSkillsIndex(v02, '0.2.0'), parseSkillsIndex(v01, '0.1')]
    const urls =
      indexes
        .map((index) => index?.skills.flatMap((skill) => (skill.skillMdUrl ? [skill.skillMdUrl] : [])) ?? [])
        .find((list) => list.length > 0) ?? []
    const fetched = await Promise.all(
      urls.slice(0, MAX_SKILL_FILES).map(async (url) => ({
        url,
        ...(await settle(fetchSnapshot(http, url, { headers: { accept: ACCEPT.markdown } }))),
      })),
    )
    const skillFiles = fetched.flatMap(({ url, response }) => (response ? [{ url, response }] : []))
    const skillErrors = fetched.flatMap(({ url, error }) => (error ? [{ url, error }] : []))
    return { v02, v01, skillFiles, skillErrors }
  },
})
