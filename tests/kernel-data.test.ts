import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { AppHandle } from '../app/app.ts'
import { testApp } from './helpers.ts'
import { SERVICE_LIMITS } from './support/limits.ts'

/**
 * The kernel holds mechanism, the features their data: no file of core/ (tests aside) declares a rate limit, names
 * a feature's limit, or uses the path of a feature's routes as data. The engine and the MCP client are left out
 * of the word checks: "score" and "mcp" are theirs too, about the sites they scan.
 */

const ROOT = join(import.meta.dir, '..')
const SCANNED_TARGETS = ['core/engine/', 'core/mcp-client/']

const kernelFiles = readdirSync(join(ROOT, 'core'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
  .map((file) => relative(ROOT, join(ROOT, 'core', file)))
/** A file's code without its comments, which may well name a feature (as data, nothing may). */
const code = (file: string) =>
  readFileSync(join(ROOT, file), 'utf8')
    .replace(/^\s*\/\*\*[\s\S]*?\*\//gm, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1')
const escaped = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')

test('no kernel file declares a limit: specs are written only in the features (defineLimits there)', () => {
  const declaring = kernelFiles.filter((file) => /defineLimits\(\s*\{|\bwindowMs:\s*[\d(A-Z]/.test(code(file)))
  expect(declaring).toEqual([])
})

test("no kernel file names a feature's limit", () => {
  expect(SERVICE_LIMITS.size).toBeGreaterThan(0)
  const offenders = kernelFiles.flatMap((file) => {
    const source = code(file)
    const aboutTargets = SCANNED_TARGETS.some((folder) => file.startsWith(folder))
    return [...SERVICE_LIMITS.keys()]
      .filter((name) =>
        // A camel-case name is the limit's own word; a plain one ("contact") counts as a string or a key.
        /[A-Z]/.test(name)
          ? new RegExp(`\\b${name}\\b`).test(source)
          : !aboutTargets && new RegExp(`['"\`]${name}['"\`]|\\b${name}\\s*:\\s*\\{`).test(source),
      )
      .map((name) => `${file}: ${name}`)
  })
  expect(offenders).toEqual([])
})

let handle: AppHandle
beforeAll(async () => {
  handle = await testApp()
}, 60_000)
afterAll(() => handle.close())

test("no kernel file uses a feature's route prefix as data", () => {
  const prefixes = new Set(
    handle.app.routes.map(({ path }) => /^\/api\/[^/]+/.exec(path)?.[0]).filter((prefix) => prefix !== undefined),
  )
  expect(prefixes).toContain('/api/scan')
  expect(prefixes).toContain('/api/journey')
  const offenders = kernelFiles
    .filter((file) => !SCANNED_TARGETS.some((folder) => file.startsWith(folder)))
    .flatMap((file) =>
      [...prefixes]
        .filter((prefix) => new RegExp(`['"\`]${escaped(prefix)}(?![\\w-])`).test(code(file)))
        .map((prefix) => `${file}: ${prefix}`),
    )
  // The ARD envelope is still chosen by path in core/errors.ts; the errors part of this item gives that choice to
  // the features. Once it has landed this list is empty.
  expect(offenders.toSorted()).toEqual(['core/errors.ts: /api/ard', 'core/errors.ts: /api/checks'])
})
