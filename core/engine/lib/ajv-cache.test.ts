import { afterAll, expect, test } from 'bun:test'
import { readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import Ajv2020 from 'ajv/dist/2020.js'
import { CACHE_DIR, cachedValidator } from './ajv-cache.ts'

const name = `test-${process.pid}`
afterAll(() => {
  for (const file of readdirSync(CACHE_DIR).filter((entry) => entry.startsWith(name))) rmSync(join(CACHE_DIR, file))
})

const schema = {
  type: 'object',
  properties: { id: { type: 'integer', minimum: 1 }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['id'],
}
const samples = [{ id: 1 }, { id: 0 }, { tags: [1] }, { id: 'x', tags: ['a', 2] }, 'not an object']

test('a validator is compiled once, kept on disk, and the kept one judges as the compiled one', () => {
  const ajv = new Ajv2020({ allErrors: true, code: { source: true } })
  let compiles = 0
  const compile = () => {
    compiles++
    return { ajv, validate: ajv.compile(schema) }
  }
  const first = cachedValidator(name, { schema }, compile)
  expect(readdirSync(CACHE_DIR).filter((entry) => entry.startsWith(name))).toHaveLength(1)
  const second = cachedValidator(name, { schema }, compile)
  expect(compiles).toBe(1)
  expect(second).not.toBe(first)
  for (const value of samples) {
    expect(second(value)).toBe(first(value))
    expect(second.errors ?? null).toEqual(first.errors ?? null)
  }
  expect(samples.map((value) => first(value))).toEqual([true, false, false, false, false])
})

test('another identity is another file', () => {
  const ajv = new Ajv2020({ code: { source: true } })
  cachedValidator(name, { schema, variant: 2 }, () => ({ ajv, validate: ajv.compile({ ...schema, required: [] }) }))
  expect(readdirSync(CACHE_DIR).filter((entry) => entry.startsWith(name))).toHaveLength(2)
})
