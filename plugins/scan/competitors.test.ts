import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import type { AppHandle } from '../../app/app.ts'
import type { Db } from '../../core/db/index.ts'
import type { ScanReport } from '../../core/engine/scan.ts'
import { testApp } from '../../tests/helpers.ts'
import { type ScanReportSeed, scanReport } from '../../tests/support/scan-report.ts'
import { competitorsFor, selfAndParents } from './competitors.ts'
import type { ScanRepository } from './repository.ts'

/**
 * A tests/helpers.ts app uses DATABASE_URL when set, a database other test files write to as well: every test
 * here works in its own category and its own domains, so nothing else can enter its pool.
 */
let handle: AppHandle
let db: Db
let repository: ScanRepository
beforeAll(async () => {
  handle = await testApp({}, { features: ['scan'] })
  db = handle.pieces.database.db
  repository = handle.pieces.scans
})
afterAll(() => handle.close())

function report(overrides: ScanReportSeed): ScanReport {
  return scanReport({ durationMs: 1200, ...overrides })
}

/** A fresh category (the pool key) and a domain namer under a fresh suffix. */
function world() {
  const id = randomUUID().slice(0, 8)
  return { category: `test-${id}`, domain: (label: string) => `${label}.c${id}.test` }
}

async function seed(category: string, rows: [domain: string, score: number][]): Promise<void> {
  for (const [domain, score] of rows)
    await repository.insert(report({ domain, score, category, name: `Name of ${domain}` }), { ephemeral: false })
}

const ranks = (rows: { rank: number }[]) => rows.map((row) => row.rank)

describe('competitorsFor', () => {
  test('leaders are the top five by score, ties by domain; neighbors are two either side of self', async () => {
    const { category, domain } = world()
    const scores = [90, 80, 80, 70, 60, 50, 40, 30, 20, 10]
    await seed(
      category,
      scores.map((score, index) => [domain(`d${index}`), score]),
    )
    const set = await competitorsFor(db, domain('d6'))
    expect(set).not.toBeNull()
    expect(set!.category).toBe(category)
    expect(set!.leaders).toEqual([
      { rank: 1, domain: domain('d0'), name: `Name of ${domain('d0')}`, score: 90, grade: 'A', isSelf: false },
      { rank: 2, domain: domain('d1'), name: `Name of ${domain('d1')}`, score: 80, grade: 'B', isSelf: false },
      { rank: 3, domain: domain('d2'), name: `Name of ${domain('d2')}`, score: 80, grade: 'B', isSelf: false },
      { rank: 4, domain: domain('d3'), name: `Name of ${domain('d3')}`, score: 70, grade: 'B', isSelf: false },
      { rank: 5, domain: domain('d4'), name: `Name of ${domain('d4')}`, score: 60, grade: 'C', isSelf: false },
    ])
    expect(set!.neighbors.map((row) => [row.rank, row.domain, row.isSelf])).toEqual([
      [5, domain('d4'), false],
      [6, domain('d5'), false],
      [7, domain('d6'), true],
      [8, domain('d7'), false],
      [9, domain('d8'), false],
    ])
  })

  test('at the top edge: self leads, neighbors are self and the two below', async () => {
    const { category, domain } = world()
    await seed(category, [
      [domain('a'), 95],
      [domain('b'), 50],
      [domain('c'), 40],
      [domain('d'), 30],
    ])
    const set = (await competitorsFor(db, domain('a')))!
    expect(set.leaders[0]).toMatchObject({ rank: 1, domain: domain('a'), isSelf: true, grade: 'A+' })
    expect(ranks(set.leaders)).toEqual([1, 2, 3, 4])
    expect(ranks(set.neighbors)).toEqual([1, 2, 3])
  })

  test('at the bottom edge: the two above and self', async () => {
    const { category, domain } = world()
    await seed(category, [
      [domain('a'), 95],
      [domain('b'), 50],
      [domain('c'), 40],
      [domain('d'), 30],
      [domain('e'), 20],
      [domain('f'), 5],
    ])
    const set = (await competitorsFor(db, domain('f')))!
    expect(ranks(set.neighbors)).toEqual([4, 5, 6])
    expect(set.neighbors.at(-1)).toMatchObject({ domain: domain('f'), isSelf: true, score: 5, grade: 'F' })
    expect(set.leaders.some((row) => row.isSelf)).toBe(false)
  })

  test('a single-domain category: self is the only leader and the only neighbor', async () => {
    const { category, domain } = world()
    await seed(category, [[domain('solo'), 64]])
    const set = (await competitorsFor(db, domain('solo')))!
    expect(set.leaders).toEqual(set.neighbors)
    expect(set.neighbors).toEqual([
      { rank: 1, domain: domain('solo'), name: `Name of ${domain('solo')}`, score: 64, grade: 'C', isSelf: true },
    ])
  })

  test('only the latest complete, real scan of a domain counts', async () => {
    const { category, domain } = world()
    await seed(category, [
      [domain('a'), 50],
      [domain('b'), 60],
    ])
    // a: a newer complete scan replaces its score; a still newer partial one and an ephemeral one do not.
    await repository.insert(
      report({ domain: domain('a'), score: 70, category, scannedAt: '2025-06-02T00:00:00.000Z' }),
      { ephemeral: false },
    )
    await repository.insert(
      report({
        domain: domain('a'),
        score: 99,
        category,
        scannedAt: '2025-06-03T00:00:00.000Z',
        analysisStatus: 'partial',
      }),
      { ephemeral: false },
    )
    await repository.insert(
      report({ domain: domain('a'), score: 1, category, scannedAt: '2025-06-04T00:00:00.000Z' }),
      { ephemeral: true },
    )
    // An auth-required marker is never a score.
    await repository.insertAuthMarker({
      domain: domain('b'),
      url: `https://${domain('b')}/mcp`,
      mcpUrl: `https://${domain('b')}/mcp`,
      urlKind: 'mcp',
      ephemeral: false,
    })
    // b moved to another category in its latest scan: it leaves this pool, its older scan does not keep it here.
    await repository.insert(
      report({ domain: domain('b'), score: 60, category: `${category}-other`, scannedAt: '2025-06-02T00:00:00.000Z' }),
      { ephemeral: false },
    )
    const set = (await competitorsFor(db, domain('a')))!
    expect(set.leaders.map((row) => [row.domain, row.score])).toEqual([[domain('a'), 70]])
  })

  test('ephemeral scans are excluded: an ephemeral-only domain is unranked and never a competitor', async () => {
    const { category, domain } = world()
    await seed(category, [[domain('real'), 40]])
    await repository.insert(report({ domain: domain('tunnel'), score: 99, category }), { ephemeral: true })
    expect(await competitorsFor(db, domain('tunnel'))).toBeNull()
    const set = (await competitorsFor(db, domain('real')))!
    expect(set.leaders.map((row) => row.domain)).toEqual([domain('real')])
  })

  test('a subdomain without its own classified scan is ranked as its parent, marked isSelf', async () => {
    const { category, domain } = world()
    await seed(category, [
      [domain('rival'), 80],
      [domain('acme'), 60],
    ])
    const parent = domain('acme')
    for (const query of [`docs.${parent}`, `api.eu.${parent}`]) {
      const set = (await competitorsFor(db, query))!
      expect(set.category).toBe(category)
      expect(set.neighbors.filter((row) => row.isSelf).map((row) => row.domain)).toEqual([parent])
    }
    // An unclassified own scan defers to the parent as well.
    await repository.insert(report({ domain: `status.${parent}`, score: 90, category: null }), { ephemeral: false })
    expect((await competitorsFor(db, `status.${parent}`))!.neighbors.find((row) => row.isSelf)?.domain).toBe(parent)
  })

  test("a subdomain query marks the parent company's row as self, even when the subdomain is ranked too", async () => {
    const { category, domain } = world()
    const parent = domain('acme')
    await seed(category, [
      [parent, 60],
      [`shop.${parent}`, 70],
      [`eu.${parent}`, 50],
    ])
    for (const query of [`shop.${parent}`, `docs.eu.${parent}`]) {
      const set = (await competitorsFor(db, query))!
      expect([...set.leaders, ...set.neighbors].filter((row) => row.isSelf).map((row) => row.domain)).toEqual([
        parent,
        parent,
      ])
      expect(set.leaders.find((row) => row.domain === `shop.${parent}`)?.isSelf).toBe(false)
    }
  })

  test('a classified subdomain is its own subject when no parent is scanned and classified', async () => {
    const { category, domain } = world()
    const parent = domain('acme')
    await seed(category, [[`shop.${parent}`, 70]])
    await repository.insert(report({ domain: parent, score: 40, category: null }), { ephemeral: false })
    const set = (await competitorsFor(db, `shop.${parent}`))!
    expect(set.neighbors.filter((row) => row.isSelf).map((row) => row.domain)).toEqual([`shop.${parent}`])
  })

  test('unclassified or unscanned: null', async () => {
    const { domain } = world()
    await repository.insert(report({ domain: domain('plain'), score: 50, category: null }), { ephemeral: false })
    expect(await competitorsFor(db, domain('plain'))).toBeNull()
    expect(await competitorsFor(db, domain('never-scanned'))).toBeNull()
    expect(await competitorsFor(db, `docs.${domain('plain')}`)).toBeNull()
  })

  test('the stored name is used, and the domain when the result has none', async () => {
    const { category, domain } = world()
    await repository.insert(report({ domain: domain('named'), score: 50, category, name: 'Named Co' }), {
      ephemeral: false,
    })
    await repository.insert(report({ domain: domain('blank'), score: 40, category, name: '' }), { ephemeral: false })
    const set = (await competitorsFor(db, domain('named')))!
    expect(set.leaders.map((row) => row.name)).toEqual(['Named Co', domain('blank')])
  })
})

test('selfAndParents lists the domain then each parent, nearest first', () => {
  expect(selfAndParents('docs.eu.acme.com')).toEqual(['docs.eu.acme.com', 'eu.acme.com', 'acme.com'])
  expect(selfAndParents('acme.com')).toEqual(['acme.com'])
})
