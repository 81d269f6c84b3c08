import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { AppHandle } from '../app/app.ts'
import { CONTRACT_VERSION } from '../core/version.ts'
import { readFileSync } from 'node:fs'
import {
  CHANGELOG_PATH,
  currentCatalog,
  type CatalogLock,
  LOCK_PATH,
  lockFor,
  lockRefusal,
  readLock,
  serializeLock,
} from '../app/catalog-lock.ts'
import type { CheckCatalog } from '../core/engine/catalog.ts'
import { LAYERS } from '../core/engine/check.ts'
import { request, testApp } from './helpers.ts'

let handle: AppHandle
beforeAll(async () => {
  handle = await testApp()
})
afterAll(() => handle.close())

describe('GET /api/checks', () => {
  test('lists every registered check with every required field', async () => {
    const response = await handle.app.handle(request('/api/checks'))
    expect(response.status).toBe(200)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600')
    const catalog = await response.json()
    expect(catalog.contractVersion).toBe(CONTRACT_VERSION)
    expect(catalog.layers).toEqual(LAYERS.map(({ id, name, weight }) => ({ id, name, weight })))
    expect(catalog.layers.reduce((sum: number, layer: { weight: number }) => sum + layer.weight, 0)).toBe(100)
    expect(catalog.checks).toHaveLength(handle.pieces.registry.size)
    for (const check of catalog.checks) {
      for (const field of [
        'id',
        'name',
        'description',
        'layer',
        'maxScore',
        'bonus',
        'applicability',
        'appliesTo',
        'tier',
        'maturity',
        'draft',
        'beta',
      ]) {
        expect(check).toHaveProperty(field)
      }
      expect(check.protocol !== undefined).toBe(check.applicability === 'api')
      expect(check.essentialsTier).toBeUndefined()
    }
  })

  test('include=essentials adds the essentials fields; the robots policy checks are excluded', async () => {
    const catalog = await (await handle.app.handle(request('/api/checks?include=essentials'))).json()
    for (const check of catalog.checks) {
      expect(['required', 'recommended', 'signal']).toContain(check.essentialsTier)
      expect(typeof check.essentialsBonusOnly).toBe('boolean')
      expect(check.essentialsExcluded).toBe(['robots-ai-agents-allowed', 'robots-ai-rules-explicit'].includes(check.id))
    }
  })

  test('byte-identical across calls and across app instances, with a stable ETag and 304', async () => {
    const first = await (await handle.app.handle(request('/api/checks'))).text()
    const second = await handle.app.handle(request('/api/checks'))
    expect(await second.text()).toBe(first)
    const other = await testApp()
    try {
      expect(await (await other.app.handle(request('/api/checks'))).text()).toBe(first)
    } finally {
      await other.close()
    }
    const etag = second.headers.get('etag')!
    const notModified = await handle.app.handle(request('/api/checks', { headers: { 'if-none-match': etag } }))
    expect(notModified.status).toBe(304)
  })

  test('61st request in a minute is a 429 ArdErrorResponse with Retry-After', async () => {
    const headers = { 'x-forwarded-for': '192.0.2.77' }
    const limited = await testApp({ TRUST_PROXY: 'true' })
    try {
      for (let i = 0; i < 60; i++)
        expect((await limited.app.handle(request('/api/checks', { headers }))).status).toBe(200)
      const denied = await limited.app.handle(request('/api/checks', { headers }))
      expect(denied.status).toBe(429)
      expect(Number(denied.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await denied.json()).toEqual({ errorCode: 'RATE_LIMIT_EXCEEDED', message: expect.any(String) })
    } finally {
      await limited.close()
    }
  })
})

describe('catalog.lock.json: the contract version cannot drift', () => {
  const changelog = readFileSync(CHANGELOG_PATH, 'utf8')

  test('the catalog and the contract version match the lock', () => {
    const locked = readLock()
    const current = lockFor(currentCatalog())
    // The refusal names what to do (bump, changelog entry, `npm run catalog:lock`); check it before the equality.
    expect(lockRefusal(locked, current, changelog)).toBeNull()
    expect(current).toEqual(locked)
  })

  test('the lock file is the serialised lock: a weight change is a one-line diff', () => {
    const onDisk = readFileSync(LOCK_PATH, 'utf8')
    expect(onDisk).toBe(serializeLock(readLock()))
    const heavier = readLock()
    heavier.checks[0] = { ...heavier.checks[0]!, maxScore: heavier.checks[0]!.maxScore + 1 }
    const before = onDisk.split('\n')
    const changed = serializeLock(heavier)
      .split('\n')
      .filter((line, index) => line !== before[index])
    expect(changed).toEqual([`    ${JSON.stringify(heavier.checks[0])},`])
  })

  // Simulated on a copy of the catalog: the real lock is never written.
  const catalog = currentCatalog()
  const locked = lockFor(catalog)
  const variant = (version: string, edit: (checks: CheckCatalog['checks']) => CheckCatalog['checks']): CatalogLock =>
    lockFor({ ...catalog, contractVersion: version, checks: edit(catalog.checks.map((check) => ({ ...check }))) })
  const renamed = (checks: CheckCatalog['checks']) =>
    checks.map((check, index) => (index === 0 ? { ...check, id: `${check.id}-renamed` } : check))
  const reworded = (checks: CheckCatalog['checks']) =>
    checks.map((check, index) => (index === 0 ? { ...check, description: `${check.description} Reworded.` } : check))
  const [major, minor, patch] = locked.contractVersion.split('.').map(Number)
  const nextMinor = `${major}.${minor! + 1}.0`
  const nextPatch = `${major}.${minor}.${patch! + 1}`
  const withEntry = (version: string) => `${changelog}\n## ${version}\n\nA simulated catalog change.\n`

  test('a renamed check under the same version is refused', () => {
    expect(lockRefusal(locked, variant(locked.contractVersion, renamed), changelog)).toContain(
      'bump it in core/version.ts',
    )
  })

  test('a rename ships on a minor with a changelog entry, not on a patch', () => {
    expect(lockRefusal(locked, variant(nextPatch, renamed), withEntry(nextPatch))).toContain('ships on a minor')
    expect(lockRefusal(locked, variant(nextMinor, renamed), changelog)).toContain(`no "## ${nextMinor}" entry`)
    expect(lockRefusal(locked, variant(nextMinor, renamed), withEntry(nextMinor))).toBeNull()
  })

  test('a reworded description may ship on a patch with its entry; a version never goes backwards', () => {
    expect(lockRefusal(locked, variant(nextPatch, reworded), withEntry(nextPatch))).toBeNull()
    expect(
      lockRefusal(
        locked,
        variant(nextMinor, (checks) => checks),
        changelog,
      ),
    ).toBeNull()
    expect(
      lockRefusal(
        variant(nextMinor, (checks) => checks),
        locked,
        changelog,
      ),
    ).toContain('older than')
  })
})
