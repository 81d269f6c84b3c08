import { describe, expect, test } from 'bun:test'
import { stringify } from 'yaml'
import {
  MAX_YAML_NODES,
  ParseLimitError,
  parseBoundedJson,
  parseBoundedJsonOrYaml,
  parseBoundedYaml,
  tryParseBoundedJson,
  yamlShapeProblem,
} from './bounded.ts'
import { MAX_JSON_DEPTH } from './nesting.ts'

const nestedJson = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`

function limitOf(run: () => unknown): string | null {
  try {
    run()
    return null
  } catch (error) {
    return error instanceof ParseLimitError ? error.limit : `other: ${(error as Error).name}`
  }
}

describe('parseBoundedJson', () => {
  test('parses JSON within the bounds', () => {
    expect(parseBoundedJson('{"a":[1,{"b":null}]}')).toEqual({ a: [1, { b: null }] })
    expect(parseBoundedJson(nestedJson(MAX_JSON_DEPTH))).toBeDefined()
  })

  test('refuses nesting past the bound before parsing, as a SyntaxError', () => {
    let caught: unknown
    try {
      parseBoundedJson(nestedJson(MAX_JSON_DEPTH + 1))
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(ParseLimitError)
    expect(caught).toBeInstanceOf(SyntaxError)
    expect((caught as ParseLimitError).limit).toBe('depth')
  })

  test('refuses text over the size bound', () => {
    expect(limitOf(() => parseBoundedJson(`"${'x'.repeat(100)}"`, { maxChars: 50 }))).toBe('size')
  })

  test('a 1 MB unterminated object is refused in milliseconds', () => {
    const started = performance.now()
    expect(limitOf(() => parseBoundedJson('{"a":'.repeat(200_000)))).toBe('depth')
    expect(performance.now() - started).toBeLessThan(200)
  })

  test('JSON that is not JSON still throws JSON.parse’s own SyntaxError', () => {
    expect(limitOf(() => parseBoundedJson('{nope'))).toBe('other: SyntaxError')
  })

  test('tryParseBoundedJson: undefined for both kinds of failure', () => {
    expect(tryParseBoundedJson('[1]')).toEqual([1])
    expect(tryParseBoundedJson('{')).toBeUndefined()
    expect(tryParseBoundedJson('['.repeat(MAX_JSON_DEPTH + 1))).toBeUndefined()
  })
})

/** Seeded, so that a failure reproduces. */
function random(seed: number): () => number {
  let state = seed
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648
}

function depthOf(value: unknown): number {
  return typeof value === 'object' && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0
}

/** The smallest depth bound yamlShapeProblem lets the text through with. */
function estimatedDepth(text: string): number {
  for (let depth = 0; depth < 200; depth++) if (!yamlShapeProblem(text, { maxDepth: depth })) return depth
  return Number.POSITIVE_INFINITY
}

describe('yamlShapeProblem', () => {
  const hostile: [string, ParseLimitError['limit'], () => string][] = [
    ['flow nesting (1 MB of {"a":)', 'depth', () => '{"a":'.repeat(200_000)],
    ['compact sequences on one line', 'depth', () => `${'- '.repeat(1_000_000)}x`],
    ['nested complex keys', 'depth', () => `${'? '.repeat(2_000)}x`],
    [
      'ever deeper indentation',
      'depth',
      () => Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n'),
    ],
    ['indented sequences', 'depth', () => Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(i)}-`).join('\n')],
    ['too many nodes', 'nodes', () => Array.from({ length: MAX_YAML_NODES }, (_, i) => `k${i}: v`).join('\n')],
    ['too long', 'size', () => `a: "${'x'.repeat(3 * 1024 * 1024)}"`],
  ]
  test.each(hostile)('%s: refused for its %s, quickly', (_name, limit, build) => {
    const text = build()
    const started = performance.now()
    expect(yamlShapeProblem(text)?.limit).toBe(limit)
    expect(performance.now() - started).toBeLessThan(1_500)
  })

  test('brackets in strings, block scalars, plain scalars and comments are not nesting', () => {
    const text = [
      'a: "[[[[{{{{"',
      "b: '[[[['",
      'c: |',
      '  [[[[ {{{{',
      'd: plain [[[[ text',
      '# [[[[ {{{{',
      'e: [1, "]]]]", {f: g}]',
    ].join('\n')
    expect(yamlShapeProblem(text, { maxDepth: 3 })).toBeNull()
    expect(estimatedDepth(text)).toBe(3)
  })

  test('the block-and-flow estimate is never below the real depth, nor more than one above it', () => {
    const next = random(7)
    const generate = (depth: number): unknown => {
      if (depth === 0 || next() < 0.1) return next() < 0.5 ? 'x y' : 42
      const count = 1 + Math.floor(next() * (depth > 6 ? 1.6 : 3))
      if (next() < 0.5) return Array.from({ length: count }, () => generate(depth - 1))
      return Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, generate(depth - 1)]))
    }
    const styles = [{}, { indent: 1 }, { indentSeq: false }, { collectionStyle: 'flow' as const }, { indent: 4 }]
    const misses: string[] = []
    for (let round = 0; round < 40; round++) {
      const value = generate(2 + Math.floor(next() * 30))
      for (const style of styles) {
        const text = stringify(value, style)
        const estimate = estimatedDepth(text)
        const real = depthOf(value)
        if (estimate < real || estimate > real + 1)
          misses.push(`${JSON.stringify(style)}: real ${real}, estimated ${estimate}`)
      }
    }
    expect(misses).toEqual([])
  }, 30_000)
})

describe('parseBoundedYaml', () => {
  test('parses YAML within the bounds; a later duplicate key wins (no pairwise duplicate check, quadratic in keys)', () => {
    expect(
      parseBoundedYaml('openapi: 3.1.0\ninfo: {title: t, version: "1"}\npaths:\n  /a: {}\n  /a: {get: {}}\n'),
    ).toEqual({
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/a': { get: {} } },
    })
  })

  test('a billion-laughs alias bomb is refused as an alias limit', () => {
    let text = 'l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n'
    for (let level = 1; level < 10; level++)
      text += `l${level}: &l${level} [${Array(10)
        .fill(`*l${level - 1}`)
        .join(', ')}]\n`
    expect(limitOf(() => parseBoundedYaml(text))).toBe('aliases')
  })

  test('nested complex keys within the depth bound stay cheap', () => {
    const started = performance.now()
    parseBoundedYaml(`${'? '.repeat(60)}x`)
    expect(performance.now() - started).toBeLessThan(1_000)
  })
})

describe('parseBoundedJsonOrYaml', () => {
  test('JSON first, YAML when it is not JSON', () => {
    expect(parseBoundedJsonOrYaml('{"openapi":"3.1.0"}')).toEqual({ openapi: '3.1.0' })
    expect(parseBoundedJsonOrYaml('openapi: 3.1.0\n')).toEqual({ openapi: '3.1.0' })
    // YAML flow syntax JSON.parse refuses (a trailing comma) still parses.
    expect(parseBoundedJsonOrYaml('{"openapi": "3.1.0",}')).toEqual({ openapi: '3.1.0' })
  })

  test('a JSON-looking document refused for its nesting is not retried as YAML', () => {
    const started = performance.now()
    expect(limitOf(() => parseBoundedJsonOrYaml('{"a":'.repeat(200_000)))).toBe('depth')
    expect(performance.now() - started).toBeLessThan(200)
  })
})
