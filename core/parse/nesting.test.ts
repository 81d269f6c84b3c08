import { describe, expect, test } from 'bun:test'
import { jsonNestingExceeds, xmlNestingExceeds } from './nesting.ts'

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

describe('xmlNestingExceeds', () => {
  test.each([
    ['<urlset><url><loc>x</loc></url></urlset>', 3, false],
    ['<urlset><url><loc>x</loc></url></urlset>', 2, true],
    ['<a><b/><b/><b/></a>', 1, false],
    ['<a x="<b><c><d>" y=\'>\'><b></b></a>', 2, false],
    ['<?xml version="1.0"?><!-- <a><a><a> --><a><![CDATA[<b><c><d>]]></a>', 1, false],
    ['<!DOCTYPE a [<!ELEMENT a ANY>]><a></a>', 1, false],
  ])('%s within %d: %p', (text, depth, exceeds) => {
    expect(xmlNestingExceeds(text, depth)).toBe(exceeds)
  })

  test('5 MB of nested elements is refused in one pass', () => {
    const started = performance.now()
    expect(xmlNestingExceeds(`<?xml version="1.0"?>${'<url>'.repeat(1_000_000)}`, 32)).toBe(true)
    expect(performance.now() - started).toBeLessThan(200)
  })
})
