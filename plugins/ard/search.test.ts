import { describe, expect, test } from 'bun:test'
import { ardWorld, domains, type Entry, mulberry32, SERVER_CARD } from '../../tests/support/ard-world.ts'

const world = ardWorld()
const { send, search, explore, agents, dump } = world

describe('POST /api/ard/search', () => {
  test('ranks by relevance and readiness, with ARD result fields', async () => {
    const { status, body } = await search({ query: { text: 'running shoes' } })
    expect(status).toBe(200)
    expect(body.referrals).toEqual([])
    expect(body.pageToken).toBeUndefined()
    expect(body.results[0]).toMatchObject({
      identifier: 'urn:air:localhost:scorecard:trail-shoes.test',
      source: 'http://localhost:3000/api/ard',
    })
    expect(domains(body.results)).toContain('city-shoes.test')
    const scores = body.results.map((result: { score: number }) => result.score)
    expect(scores.every((score: number) => Number.isInteger(score) && score >= 0 && score <= 100)).toBe(true)
    expect(scores).toEqual([...scores].sort((a, b) => b - a))
    // Both names match "shoes" alike; the more agent-ready site ranks first.
    expect(domains((await search({ query: { text: 'shoes' } })).body.results).slice(0, 2)).toEqual([
      'trail-shoes.test',
      'city-shoes.test',
    ])
    expect(domains((await search({ query: { text: 'deploy' } })).body.results)[0]).toBe('deploy.test')
    // Websearch syntax is honoured: an exact phrase, an exclusion.
    expect(domains((await search({ query: { text: '"shoe store"' } })).body.results)).toEqual(['city-shoes.test'])
    expect(domains((await search({ query: { text: 'shoes -trailhead' } })).body.results)).toEqual(['city-shoes.test'])
    expect((await search({ query: { text: 'qwxzv' } })).body).toEqual({ results: [], referrals: [] })
  })

  test('a filter-only query scores 100 x the readiness factor', async () => {
    const { body } = await search({ query: { filter: { publisherId: 'trail-shoes.test' } } })
    expect(body.results).toHaveLength(1)
    expect(body.results[0].score).toBe(Math.round(100 * (0.6 + 0.4 * 0.96)))
  })

  test('filters: OR within a field, AND across fields, any-of for tags', async () => {
    const all = await dump()
    const matching = async (filter: Record<string, string | string[]>) =>
      (await search({ query: { filter }, pageSize: 100 })).body.results
        .map((result: Entry) => result.publisherId)
        .sort()
    const expected = (keep: (entry: Entry) => boolean) => domains(all.filter(keep)).sort()

    const retailOrPayments = await matching({ category: ['ecommerce-retail', 'payments-fintech'] })
    expect(retailOrPayments).toEqual(
      expected((entry) => entry.category === 'ecommerce-retail' || entry.category === 'payments-fintech'),
    )
    expect(retailOrPayments.length).toBeGreaterThan(2)
    expect(await matching({ category: 'ecommerce-retail', grade: 'A+' })).toEqual(['trail-shoes.test'])
    expect(await matching({ tags: ['mcp', 'llms-txt'] })).toEqual(
      expected((entry) => entry.tags.includes('mcp') || entry.tags.includes('llms-txt')),
    )
    expect(await matching({ type: SERVER_CARD, tags: 'llms-txt' })).toEqual(
      expected((entry) => entry.type === SERVER_CARD && entry.tags.includes('llms-txt')),
    )
    expect(await matching({ identifier: 'urn:air:localhost:scorecard:ledger.test' })).toEqual(['ledger.test'])
    expect(
      await matching({ grade: ['A', 'A+'], publisherId: ['deploy.test', 'ledger.test', 'trail-shoes.test'] }),
    ).toEqual(['deploy.test', 'trail-shoes.test'])
    const textAndFilter = await search({ query: { text: 'shoes', filter: { grade: 'D' } } })
    expect(domains(textAndFilter.body.results)).toEqual(['city-shoes.test'])
  })

  test.each([
    [{ query: { filter: { score: '90' } } }, 'score'],
    [{ query: { filter: { publisher: 'localhost' } } }, 'publisher'],
    [{ query: {} }, 'query'],
    [{ query: { text: '   ' } }, 'query'],
    [{}, 'query'],
    [{ query: { text: 'shoes' }, pageSize: 0 }, 'pageSize'],
    [{ query: { text: 'shoes' }, pageSize: 101 }, 'pageSize'],
    [{ query: { text: 'shoes' }, federation: 'everywhere' }, 'federation'],
    [{ query: { filter: { tags: [] } } }, 'tags'],
    [{ query: { text: 'nul\u0000byte' } }, 'text'],
  ])('400 INVALID_ARGUMENT for %j', async (body, mentioned) => {
    const { status, body: error } = await search(body)
    expect(status).toBe(400)
    expect(error.errorCode).toBe('INVALID_ARGUMENT')
    expect(JSON.stringify(error)).toContain(mentioned)
  })

  test('federation: every mode answers from the own index with no referrals', async () => {
    const own = (await search({ query: { text: 'shoes' }, federation: 'none' })).body
    for (const federation of ['auto', 'referrals', undefined]) {
      const { status, body } = await search({ query: { text: 'shoes' }, ...(federation ? { federation } : {}) })
      expect(status).toBe(200)
      expect(body.referrals).toEqual([])
      expect(domains(body.results)).toEqual(domains(own.results))
    }
  })

  test('page tokens are tamper-evident and bound to their query; the last page has none', async () => {
    const query = { filter: { category: 'ecommerce-retail' } }
    const first = (await search({ query, pageSize: 1 })).body
    const token: string = first.pageToken
    expect(typeof token).toBe('string')
    const second = (await search({ query, pageSize: 1, pageToken: token })).body
    expect(domains(second.results)).not.toEqual(domains(first.results))

    const flip = (at: number) => `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`
    for (const at of [0, 5, token.indexOf('.') - 1, token.indexOf('.'), token.indexOf('.') + 1, token.length - 1]) {
      const { status, body } = await search({ query, pageSize: 1, pageToken: flip(at) })
      expect(status).toBe(400)
      expect(body.errorCode).toBe('INVALID_ARGUMENT')
    }
    for (const garbage of ['', 'abc', '.', 'a.b.c', `${token}.x`]) {
      expect((await search({ query, pageSize: 1, pageToken: garbage })).status).toBe(400)
    }
    const foreign = await search({ query: { filter: { category: 'education' } }, pageSize: 1, pageToken: token })
    expect(foreign.status).toBe(400)
    expect(foreign.body.message).toContain('different query')
    expect((await agents({ pageSize: 1, pageToken: token })).status).toBe(400)

    const last = (await search({ query, pageSize: 100 })).body
    expect('pageToken' in last).toBe(false)
  })
})

describe('GET /api/ard/agents', () => {
  test('lists every entry by displayName, 20 per page by default, with a total', async () => {
    const { status, response, body } = await agents()
    expect(status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('public, max-age=60')
    expect(body.total).toBe(world.indexed)
    expect(body.items).toHaveLength(20)
    expect(typeof body.pageToken).toBe('string')
    const names = body.items.map((item: Entry) => item.displayName.toLowerCase())
    expect(names).toEqual([...names].sort())
  })

  test.each([
    ['type = "application/mcp-server-card+json"', (entry: Entry) => entry.type === SERVER_CARD],
    ["type != 'application/mcp-server-card+json'", (entry: Entry) => entry.type !== SERVER_CARD],
    [
      'publisherId = trail-shoes.test,ledger.test',
      (entry: Entry) => ['trail-shoes.test', 'ledger.test'].includes(entry.publisherId),
    ],
    [
      'tags = mcp AND displayName != "weather tools"',
      (entry: Entry) => entry.tags.includes('mcp') && entry.displayName !== 'Weather Tools',
    ],
    ['tags != website', (entry: Entry) => !entry.tags.includes('website')],
    ['displayName = "TRAILHEAD RUNNING SHOES"', (entry: Entry) => entry.displayName === 'Trailhead Running Shoes'],
    [
      'displayName >= m and displayName < r',
      (entry: Entry) => entry.displayName.toLowerCase() >= 'm' && entry.displayName.toLowerCase() < 'r',
    ],
    ['updatedAt > 2000-01-01', () => true],
    ['updatedAt <= 2000-01-01T00:00:00Z', () => false],
    ['   ', () => true],
  ])('filter %s', async (filter, keep) => {
    const { status, body } = await agents({ filter, pageSize: 100 })
    expect(status).toBe(200)
    const expected = domains((await dump()).filter(keep)).sort()
    expect(domains(body.items).sort()).toEqual(expected)
    expect(body.total).toBe(expected.length)
  })

  test.each([
    ['identifier', (a: Entry, b: Entry) => (a.identifier < b.identifier ? -1 : 1)],
    ['identifier DESC', (a: Entry, b: Entry) => (a.identifier < b.identifier ? 1 : -1)],
    [
      'displayName desc',
      (a: Entry, b: Entry) => b.displayName.toLowerCase().localeCompare(a.displayName.toLowerCase()),
    ],
  ])('orderBy %s', async (orderBy, compare) => {
    const { body } = await agents({ orderBy, pageSize: 100 })
    const order = (await dump()).sort(compare)
    if (orderBy.startsWith('identifier')) expect(domains(body.items)).toEqual(domains(order))
    else
      expect(body.items.map((item: Entry) => item.displayName.toLowerCase())).toEqual(
        order.map((entry) => entry.displayName.toLowerCase()),
      )
  })

  test.each([
    ['filter', 'score > 50', 'unsupported field "score"'],
    ['filter', 'tags > mcp', 'operator ">" is not supported for field "tags"'],
    ['filter', 'type < a', 'operator "<" is not supported for field "type"'],
    ['filter', 'type =', 'expected a value'],
    ['filter', 'type', 'expected an operator'],
    ['filter', 'type == a', 'expected a value'],
    ['filter', 'type = a OR type = b', 'OR'],
    ['filter', 'type = a type = b', 'expected AND'],
    ['filter', 'type = a AND', 'after AND'],
    ['filter', '(type = a)', 'parentheses'],
    ['filter', 'type = "open', 'not closed'],
    ['filter', 'displayName ! a', '!='],
    ['filter', 'updatedAt > yesterday', 'ISO 8601'],
    ['filter', 'updatedAt > 0000-01-01', 'ISO 8601'],
    ['filter', 'publisherId = ,', 'expected a value'],
    ['orderBy', 'score', 'unsupported field "score"'],
    ['orderBy', 'displayName sideways', 'expected ASC or DESC'],
    ['orderBy', 'displayName ASC type', 'unexpected'],
    ['pageSize', '0', 'pageSize'],
    ['pageSize', '101', 'pageSize'],
    ['pageSize', 'ten', 'pageSize'],
    ['filter', ['type = a', 'type = b'], 'filter'],
  ])('400 INVALID_ARGUMENT: %s=%s', async (parameter, value, mentioned) => {
    const values = typeof value === 'string' ? [value] : value
    const { status, body } = await send(
      `/api/ard/agents?${new URLSearchParams(values.map((each) => [parameter, each]))}`,
    )
    expect(status).toBe(400)
    expect(body.errorCode).toBe('INVALID_ARGUMENT')
    expect(body.message).toContain(mentioned)
  })
})

describe('paging returns every entry exactly once (property)', () => {
  const SEARCHES = [
    { text: 'garden studio market harbor' },
    { text: 'shoes deploy payments news' },
    { filter: { grade: ['A+', 'A', 'B', 'C', 'D', 'F'] } },
    { filter: { tags: ['website', 'mcp-server', 'mcp-app'] } },
    { text: 'swift bright lucky', filter: { type: ['text/html', SERVER_CARD] } },
  ]
  const LISTINGS = [
    {},
    { filter: 'tags = website' },
    { orderBy: 'updatedAt DESC' },
    { orderBy: 'type ASC', filter: 'updatedAt > 2000-01-01' },
    { orderBy: 'identifier DESC', filter: 'displayName >= c' },
  ]

  test('random page sizes over search and agents, 30 seeded runs', async () => {
    const random = mulberry32(0xa2d)
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!
    for (let run = 0; run < 30; run += 1) {
      const listing = run % 2 === 1
      const query = listing ? pick(LISTINGS) : pick(SEARCHES)
      const fetchPage = (pageSize: number, pageToken?: string) =>
        listing
          ? agents({ ...(query as Record<string, string>), pageSize, ...(pageToken ? { pageToken } : {}) })
          : search({ query, pageSize, ...(pageToken ? { pageToken } : {}) })
      const reference = await fetchPage(100)
      expect(reference.status).toBe(200)
      const expected: string[] = (listing ? reference.body.items : reference.body.results).map(
        (entry: Entry) => entry.identifier,
      )
      expect(expected.length).toBeGreaterThan(1)
      if (listing) expect(reference.body.total).toBe(expected.length)

      const seen: string[] = []
      let token: string | undefined
      for (let page = 0; page < 200; page += 1) {
        // Mostly small pages (many round trips), sometimes a large one.
        const pageSize = random() < 0.15 ? 1 + Math.floor(random() * 100) : 1 + Math.floor(random() * 6)
        const { status, body } = await fetchPage(pageSize, token)
        expect(status).toBe(200)
        const items: Entry[] = listing ? body.items : body.results
        expect(items.length).toBeLessThanOrEqual(pageSize)
        seen.push(...items.map((entry) => entry.identifier))
        token = body.pageToken
        if (token === undefined) break
      }
      expect(token).toBeUndefined()
      expect(new Set(seen).size).toBe(seen.length)
      expect(seen).toEqual(expected)
    }
  }, 180_000)
})

describe('POST /api/ard/explore', () => {
  test('facet counts per field over the whole index', async () => {
    const all = await dump()
    const { status, body } = await explore({
      resultType: {
        facets: [{ field: 'category', limit: 100 }, { field: 'type' }, { field: 'grade' }, { field: 'tags', limit: 2 }],
      },
    })
    expect(status).toBe(200)
    expect(body.resultType).toBe('facets')
    const tally = (values: (string | undefined)[]) => {
      const counts = new Map<string, number>()
      for (const value of values) if (value !== undefined) counts.set(value, (counts.get(value) ?? 0) + 1)
      return [...counts]
        .map(([value, count]) => ({ value, count }))
        .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1))
    }
    expect(body.facets.category).toEqual({ buckets: tally(all.map((entry) => entry.category)), otherCount: 0 })
    expect(body.facets.type).toEqual({ buckets: tally(all.map((entry) => entry.type)), otherCount: 0 })
    expect(body.facets.grade).toEqual({ buckets: tally(all.map((entry) => entry.oraScorecard.grade)), otherCount: 0 })
    const tags = tally(all.flatMap((entry) => entry.tags))
    expect(body.facets.tags).toEqual({
      buckets: tags.slice(0, 2),
      otherCount: tags.slice(2).reduce((sum, tag) => sum + tag.count, 0),
    })
  })

  test('minCount and a query narrow the counted entries', async () => {
    const all = await dump()
    const { body } = await explore({
      query: { filter: { type: [SERVER_CARD] } },
      resultType: { facets: [{ field: 'type' }, { field: 'tags', minCount: 3 }] },
    })
    expect(body.facets.type.buckets).toEqual([
      { value: SERVER_CARD, count: all.filter((entry) => entry.type === SERVER_CARD).length },
    ])
    expect(body.facets.tags.buckets.every((bucket: { count: number }) => bucket.count >= 3)).toBe(true)
    expect(body.facets.tags.buckets.map((bucket: { value: string }) => bucket.value)).toContain('mcp')
    const text = (await explore({ query: { text: 'shoes' }, resultType: { facets: [{ field: 'category' }] } })).body
    expect(text.facets.category.buckets).toEqual([{ value: 'ecommerce-retail', count: 2 }])
  })

  test.each([
    [{ resultType: { facets: [{ field: 'publisher' }] } }],
    [{ resultType: { facets: [{ field: 'type' }, { field: 'type' }] } }],
    [{ resultType: { facets: [] } }],
    [{ resultType: { facets: [{ field: 'type', minCount: 0 }] } }],
    [{ resultType: {} }],
    [{ query: { filter: { color: ['red'] } }, resultType: { facets: [{ field: 'type' }] } }],
  ])('400 INVALID_ARGUMENT for %j', async (body) => {
    const { status, body: error } = await explore(body)
    expect(status).toBe(400)
    expect(error.errorCode).toBe('INVALID_ARGUMENT')
  })
})
