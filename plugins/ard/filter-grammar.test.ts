import { describe, expect, test } from 'bun:test'
import { ardWorld, mulberry32 } from '../../tests/support/ard-world.ts'

const { search, explore, agents } = ardWorld()

describe('fuzzing the filter and orderBy grammar never yields a 5xx', () => {
  const FRAGMENTS = [
    'type',
    'displayName',
    'publisherId',
    'tags',
    'updatedAt',
    'identifier',
    'score',
    'category',
    'AND',
    'and',
    'OR',
    'NOT',
    'ASC',
    'DESC',
    'desc',
    '=',
    '!=',
    '>',
    '<',
    '>=',
    '<=',
    '==',
    '!',
    '=>',
    '<>',
    '"',
    "'",
    '(',
    ')',
    '\\',
    ',',
    ';',
    '%',
    '*',
    '--',
    '/*',
    '2026-01-01',
    '2026-13-45',
    '0000-01-01',
    '9999-12-31T23:59:59Z',
    '2026-02-30T10:00:00+05:30',
    '1e9',
    'mcp',
    'website',
    'grade-a',
    '"quoted value"',
    "'single quoted'",
    '"unterminated',
    '"esc\\"aped"',
    'application/mcp-server-card+json',
    "x'); DROP TABLE ard_entries; --",
    'é',
    '😀',
    '\u0000',
    '\t',
    '',
    'x'.repeat(300),
    // Whole valid conditions, so that a share of the corpus parses and reaches the database.
    'tags = website',
    'type != "text/html"',
    'displayName > a',
    'updatedAt <= 2030-01-01',
    'publisherId = a.test,b.test',
  ]

  const OPERATORS = ['=', '!=', '>', '<', '>=', '<=']
  const WORDS = ['mcp', 'website', '"text/html"', "'a b'", 'a.test,b.test', 'é', '""', '2026-01-01']
  const DATES = ['2026-01-01', '2026-01-01T10:00:00Z', '"2026-06-01 12:00"', 'now', '2026-02-31']
  const FIELDS: Record<string, { operators: string[]; values: string[] }> = {
    type: { operators: ['=', '!='], values: WORDS },
    publisherId: { operators: ['=', '!='], values: WORDS },
    tags: { operators: ['=', '!='], values: WORDS },
    displayName: { operators: OPERATORS, values: WORDS },
    updatedAt: { operators: OPERATORS, values: DATES },
    identifier: { operators: OPERATORS, values: WORDS },
  }
  const pickFrom =
    (random: () => number) =>
    <T>(items: T[]) =>
      items[Math.floor(random() * items.length)]!

  /** Mostly well-typed conditions with the occasional wrong operator, joiner or field. */
  function sentence(random: () => number): string[] {
    const pick = pickFrom(random)
    return Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
      const field = pick(Object.keys(FIELDS))
      const { operators, values } = FIELDS[field]!
      return `${field} ${random() < 0.85 ? pick(operators) : pick(OPERATORS)} ${pick(values)}`
    }).flatMap((condition, index) =>
      index === 0 ? [condition] : [random() < 0.85 ? 'AND' : pick(['OR', 'and', '&&', '']), condition],
    )
  }

  function orderBy(random: () => number): string[] {
    const pick = pickFrom(random)
    return [
      pick(['displayName', 'updatedAt', 'identifier', 'type', 'score', 'tags']),
      pick(['ASC', 'DESC', 'desc', '', '', 'up']),
    ]
  }

  /** Half near-valid input from the generators, half fragment soup; then, half the time, random character edits. */
  function garble(random: () => number, generate: (random: () => number) => string[]): string {
    const pick = pickFrom(random)
    const parts =
      random() < 0.5 ? generate(random) : Array.from({ length: 1 + Math.floor(random() * 8) }, () => pick(FRAGMENTS))
    let text = parts.join(random() < 0.8 ? ' ' : '')
    if (random() < 0.5) return text
    // Random single-character edits on top: insertions, deletions and replacements.
    for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits -= 1) {
      const at = Math.floor(random() * (text.length + 1))
      const char = String.fromCodePoint(
        random() < 0.9 ? 32 + Math.floor(random() * 95) : 0x80 + Math.floor(random() * 0x2000),
      )
      const op = random()
      text =
        op < 0.4
          ? text.slice(0, at) + char + text.slice(at)
          : op < 0.7
            ? text.slice(0, at) + text.slice(at + 1)
            : text.slice(0, at) + char + text.slice(at + 1)
    }
    return text
  }

  test('600 seeded random filter and orderBy expressions', async () => {
    const random = mulberry32(0x5eed)
    const statuses = new Map<number, number>()
    for (let run = 0; run < 600; run += 1) {
      const params =
        run % 3 === 2
          ? { orderBy: garble(random, orderBy) }
          : { filter: garble(random, sentence), ...(random() < 0.3 ? { orderBy: garble(random, orderBy) } : {}) }
      const { status, body } = await agents(params)
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
      if (status >= 500 || (status !== 200 && status !== 400))
        throw new Error(`${status} for ${JSON.stringify(params)}: ${JSON.stringify(body)}`)
      if (status === 400) expect(body.errorCode).toBe('INVALID_ARGUMENT')
    }
    // The corpus must exercise both outcomes, or it tests nothing.
    expect(statuses.get(200)).toBeGreaterThan(20)
    expect(statuses.get(400)).toBeGreaterThan(100)
  }, 180_000)

  test('200 seeded random search and explore bodies', async () => {
    const random = mulberry32(0xb0d7)
    const value = () =>
      random() < 0.5 ? garble(random, sentence) : [garble(random, sentence), garble(random, orderBy)]
    const fields = ['category', 'tags', 'type', 'grade', 'publisherId', 'identifier', 'score', '']
    for (let run = 0; run < 200; run += 1) {
      const filter = Object.fromEntries(
        Array.from({ length: Math.floor(random() * 3) }, () => [
          fields[Math.floor(random() * fields.length)]!,
          value(),
        ]),
      )
      const query = { ...(random() < 0.7 ? { text: garble(random, sentence) } : {}), filter }
      const { status, body } =
        run % 4 === 3
          ? await explore({
              query,
              resultType: {
                facets: [
                  {
                    field: ['tags', 'type', 'grade', 'category', 'x'][Math.floor(random() * 5)],
                    limit: 1 + Math.floor(random() * 5),
                  },
                ],
              },
            })
          : await search({
              query,
              pageSize: 1 + Math.floor(random() * 100),
              ...(random() < 0.2 ? { pageToken: garble(random, sentence) } : {}),
            })
      if (status !== 200 && status !== 400)
        throw new Error(`${status} for ${JSON.stringify(query)}: ${JSON.stringify(body)}`)
    }
  }, 180_000)
})
