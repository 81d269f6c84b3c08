import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { REGISTERED_CHECKS } from '../checks/index.ts'
import { buildCatalog, type CheckCatalog } from '../core/engine/catalog.ts'
import { CheckRegistry } from '../core/engine/registry.ts'

/**
 * catalog.lock.json records the contract version together with a digest of the catalog it published, so that
 * no catalog change ships under an old version: the catalog test fails, and `npm run catalog:lock` refuses to
 * rewrite the lock, until CONTRACT_VERSION is bumped past the locked one (a minor when checks are added,
 * renamed or removed, per the spec's Versioning section) and CHANGELOG.md has an entry for the new version.
 */
export const LOCK_PATH = fileURLToPath(new URL('../catalog.lock.json', import.meta.url))
export const CHANGELOG_PATH = fileURLToPath(new URL('../CHANGELOG.md', import.meta.url))

/** What decides a check's weight in the score, recorded in the clear so that a weight change shows in review. */
export interface LockedCheck {
  id: string
  layer: string
  maxScore: number
  bonus: boolean
  maturity: string
  tier: string
  /** `page`: judged on each sampled page, its points proportional to the share that passes; `site`: judged once. */
  scope: string
}

export interface CatalogLock {
  contractVersion: string
  /** Each layer's weight out of 100. */
  layers: { id: string; weight: number }[]
  /** Every check, in catalog order: the lock can tell a membership change from a metadata edit. */
  checks: LockedCheck[]
  /** sha256 of the layers and checks as served with `include=essentials` (the version is recorded apart). */
  sha256: string
}

export function lockFor(catalog: CheckCatalog): CatalogLock {
  const body = JSON.stringify({ layers: catalog.layers, checks: catalog.checks })
  return {
    contractVersion: catalog.contractVersion,
    layers: catalog.layers.map(({ id, weight }) => ({ id, weight })),
    checks: catalog.checks.map(({ id, layer, maxScore, bonus, maturity, tier, scope }) => ({
      id,
      layer,
      maxScore,
      bonus,
      maturity,
      tier,
      scope,
    })),
    sha256: createHash('sha256').update(body).digest('hex'),
  }
}

/**
 * The lock as written to disk: one line per layer and per check, so a review diff shows exactly the entries that
 * moved (a weight, a bonus flag) rather than a reflowed block.
 */
export function serializeLock(lock: CatalogLock): string {
  const lines = (entries: object[]): string => entries.map((entry) => `    ${JSON.stringify(entry)}`).join(',\n')
  return [
    '{',
    `  "contractVersion": ${JSON.stringify(lock.contractVersion)},`,
    '  "layers": [',
    lines(lock.layers),
    '  ],',
    '  "checks": [',
    lines(lock.checks),
    '  ],',
    `  "sha256": ${JSON.stringify(lock.sha256)}`,
    '}',
    '',
  ].join('\n')
}

export function currentCatalog(): CheckCatalog {
  return buildCatalog(new CheckRegistry(REGISTERED_CHECKS), { essentials: true })
}

export function readLock(): CatalogLock {
  return JSON.parse(readFileSync(LOCK_PATH, 'utf8')) as CatalogLock
}

const versionParts = (version: string): [number, number, number] => {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version)
  if (!match) throw new Error(`"${version}" is not a MAJOR.MINOR.PATCH version`)
  return [Number(match[1]), Number(match[2]), Number(match[3])]
}

/** Which part of the version moved from `from` to `to`, or `none` / `backwards`. */
export function versionStep(from: string, to: string): 'major' | 'minor' | 'patch' | 'none' | 'backwards' {
  const [a, b] = [versionParts(from), versionParts(to)]
  for (const [index, step] of (['major', 'minor', 'patch'] as const).entries()) {
    if (b[index]! > a[index]!) return step
    if (b[index]! < a[index]!) return 'backwards'
  }
  return 'none'
}

/** Whether CHANGELOG.md has a `## <version>` entry. */
export function changelogHasEntry(changelog: string, version: string): boolean {
  return new RegExp(`^## \\[?${version.replaceAll('.', '\\.')}\\b`, 'm').test(changelog)
}

/** Why the lock may not move from `locked` to `next`; null when it may. */
export function lockRefusal(locked: CatalogLock, next: CatalogLock, changelog: string): string | null {
  const step = versionStep(locked.contractVersion, next.contractVersion)
  if (step === 'backwards')
    return `CONTRACT_VERSION ${next.contractVersion} is older than the locked ${locked.contractVersion}`
  if (next.sha256 === locked.sha256) return null
  if (step === 'none') {
    return `The check catalog changed but CONTRACT_VERSION is still ${locked.contractVersion}: bump it in core/version.ts, add a CHANGELOG.md entry and run \`npm run catalog:lock\``
  }
  const [lockedIds, nextIds] = [locked.checks.map((check) => check.id), next.checks.map((check) => check.id)]
  const removed = lockedIds.filter((id) => !nextIds.includes(id))
  const added = nextIds.filter((id) => !lockedIds.includes(id))
  if ((removed.length || added.length) && step === 'patch') {
    return `Catalog membership changed (removed: ${removed.join(', ') || 'none'}; added: ${added.join(', ') || 'none'}): that ships on a minor, not the patch ${next.contractVersion}`
  }
  if (!changelogHasEntry(changelog, next.contractVersion)) {
    return `The check catalog changed in ${next.contractVersion} but CHANGELOG.md has no "## ${next.contractVersion}" entry`
  }
  return null
}

if (import.meta.main) {
  const next = lockFor(currentCatalog())
  const refusal = lockRefusal(readLock(), next, readFileSync(CHANGELOG_PATH, 'utf8'))
  if (refusal) {
    console.error(`catalog.lock.json not rewritten. ${refusal}`)
    process.exit(1)
  }
  writeFileSync(LOCK_PATH, serializeLock(next))
  console.log(
    `catalog.lock.json: ${next.checks.length} checks, contract ${next.contractVersion}, sha256 ${next.sha256}`,
  )
}
