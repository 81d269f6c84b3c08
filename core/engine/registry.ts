import type { ArtifactKey } from './artifacts.ts'
import type { CheckDefinition, ScanKind } from './check.ts'
import { COLLECTORS } from './collectors/index.ts'

export class RegistryError extends Error {
  constructor(problems: string[]) {
    super(`Invalid check registry:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`)
    this.name = 'RegistryError'
  }
}

export interface RegisteredCheck {
  definition: CheckDefinition
  /** Where the file lives, `<kind folder>/<id>`; the id must equal the file name. */
  file: string
}

/**
 * The validated, ordered set of checks. Validation runs once at boot: ids equal to file names and unique, known
 * artifacts, and no static check that needs a deep (browser) artifact. (Each check's metadata was already
 * validated by `defineCheck` when its file loaded.)
 */
export class CheckRegistry {
  readonly checks: readonly CheckDefinition[]
  private readonly byId: Map<string, CheckDefinition>

  constructor(registered: readonly RegisteredCheck[]) {
    const problems: string[] = []
    const byId = new Map<string, CheckDefinition>()
    for (const { definition, file } of registered) {
      const id = definition.meta.id
      if (file.split('/').pop() !== id) problems.push(`${file}: id "${id}" must equal the file name`)
      if (byId.has(id)) problems.push(`${file}: duplicate id "${id}"`)
      for (const need of definition.meta.needs) {
        const collector = COLLECTORS[need as ArtifactKey]
        if (!collector) problems.push(`${id}: unknown artifact "${need}"`)
        else if (collector.deep && !definition.meta.deep)
          problems.push(`${id}: needs deep artifact "${need}" but is not deep`)
      }
      byId.set(id, definition)
    }
    if (problems.length) throw new RegistryError(problems)
    this.checks = registered.map((entry) => entry.definition)
    this.byId = byId
  }

  get(id: string): CheckDefinition | undefined {
    return this.byId.get(id)
  }

  has(id: string): boolean {
    return this.byId.has(id)
  }

  get size(): number {
    return this.checks.length
  }

  appliesTo(check: CheckDefinition, kind: ScanKind): boolean {
    return check.meta.appliesTo.includes(kind)
  }
}
