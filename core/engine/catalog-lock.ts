import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { REGISTERED_CHECKS } from '../../checks/index.ts'
import { CONTRACT_VERSION } from '../contract.ts'
import { buildCatalog } from './catalog.ts'
import { CheckRegistry } from './registry.ts'

/**
 * catalog.lock.json pins the catalog's bytes to the contract version: changing a check's metadata without
 * bumping CONTRACT_VERSION fails the catalog test, so no catalog change ships silently.
 */
export const LOCK_PATH = fileURLToPath(new URL('../../catalog.lock.json', import.meta.url))

export interface CatalogLock {
  contractVersion: string
  checks: number
  sha256: string
}

export function currentLock(): CatalogLock {
  const registry = new CheckRegistry(REGISTERED_CHECKS)
  const body = JSON.stringify(buildCatalog(registry, { essentials: true }))
  return { contractVersion: CONTRACT_VERSION, checks: registry.size, sha256: createHash('sha256').update(body).digest('hex') }
}

export function readLock(): CatalogLock {
  return JSON.parse(readFileSync(LOCK_PATH, 'utf8')) as CatalogLock
}

if (import.meta.main) {
  const lock = currentLock()
  writeFileSync(LOCK_PATH, `${JSON.stringify(lock, null, 2)}\n`)
  console.log(`catalog.lock.json: ${lock.checks} checks, contract ${lock.contractVersion}, sha256 ${lock.sha256}`)
}
