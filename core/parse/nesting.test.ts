import { describe, expect, test } from 'bun:test'
import { jsonNestingExceeds } from './nesting.ts'

describe('jsonNestingExceeds', () => {
  test.each([
    ['{}', 1, false],
    ['{"a":[1,{"b":[]}]}', 4, false],
    ['{"a":[1,{"b":[]}]}', 3, true],
    ['{"a":"[[[[[[[[["}', 1, false],
    ['{"a":"\\"[[[["}', 1, false],
    ['[[]] [[]]', 2, false],
  ])('%s within %d: %p', (text, depth, exceeds) => {
    expect(jsonNestingExceeds(text, depth)).toBe(exceeds)
  })

  test('a body nested 100,000 deep is refused without parsing it', () => {
    expect(jsonNestingExceeds('{"a":'.repeat(100_000))).toBe(true)
    expect(jsonNestingExceeds('['.repeat(100_000))).toBe(true)
  })
})
