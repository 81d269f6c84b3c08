import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AppHandle } from '../app/app.ts'
import { FEATURES } from '../app/feature-list.ts'
import { AppError, ERRORS } from '../core/errors.ts'
import { CONTACT_ERRORS } from '../plugins/contact/errors.ts'
import { testApp } from './helpers.ts'
import { SERVICE_LIMITS } from './support/limits.ts'

/**
 * The kernel holds mechanism, the features their data: no file of core/ (tests aside) declares a rate limit or
 * names a feature's limit, error code or route prefix. The engine and the MCP client are left out of the plain-word
 * limit check: "score" and "mcp" are theirs too, about the sites they scan.
 */

const ROOT = join(import.meta.dir, '..')
const SCANNED_TARGETS = ['core/engine/', 'core/mcp-client/']

/** Each non-test source under core/ as code alone: transpiled, so its comments (and types) are gone. */
function coreCode(): { file: string; code: string }[] {
  return readdirSync(join(ROOT, 'core'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => {
      const transpiler = new Bun.Transpiler({ loader: file.endsWith('x') ? 'tsx' : 'ts' })
      return {
        file: join('core', file),
        code: transpiler.transformSync(readFileSync(join(ROOT, 'core', file), 'utf8')),
      }
    })
}

test('no kernel file declares a limit: specs are written only in the features (defineLimits there)', () => {
  const declaring = coreCode()
    .filter(({ code }) => /defineLimits\(\s*\{|\bwindowMs:\s*[\d(A-Z]/.test(code))
    .map(({ file }) => file)
  expect(declaring).toEqual([])
})

test("no kernel file names a feature's limit", () => {
  expect(SERVICE_LIMITS.size).toBeGreaterThan(0)
  const offenders = coreCode().flatMap(({ file, code: source }) => {
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

test("the kernel names no feature's error code: each feature declares its own", () => {
  const featureCodes = FEATURES.flatMap((feature) => Object.keys(feature.errors?.codes ?? {}))
  expect(featureCodes).toContain('MAIL_FAILED')
  const named = coreCode().flatMap(({ file, code }) =>
    featureCodes.filter((name) => new RegExp(`\\b${name}\\b`).test(code)).map((name) => `${file}: ${name}`),
  )
  expect(named).toEqual([])
})

/** Paths of the scanned site that the engine probes, which only happen to look like routes of ours. */
const PROBED_ON_TARGETS = new Set(['core/engine/collectors/mcp-endpoints.ts: /api/mcp'])

test('the kernel names no route prefix as data: the features claim their paths (error envelopes included)', () => {
  const prefixes = [...new Set(handle.app.routes.flatMap(({ path }) => /^\/api\/[^/:*]+/.exec(path)?.[0] ?? []))]
  expect(prefixes).toEqual(expect.arrayContaining(['/api/ard', '/api/checks', '/api/scan', '/api/journey']))
  // A path as data opens a string (or follows a base URL in a template); prose that mentions a route does not.
  const named = coreCode()
    .flatMap(({ file, code }) =>
      prefixes
        .filter((prefix) => new RegExp(`["'\`}]${prefix}(?![\\w.-])`).test(code))
        .map((prefix) => `${file}: ${prefix}`),
    )
    .filter((found) => !PROBED_ON_TARGETS.has(found))
  expect(named).toEqual([])
})

test('an error is thrown from its definition: a kernel code by name, a feature code from its table', () => {
  expect(new AppError('NOT_FOUND')).toMatchObject({ code: 'NOT_FOUND', status: 404, title: ERRORS.NOT_FOUND.title })
  expect(new AppError(CONTACT_ERRORS.MAIL_FAILED)).toMatchObject({ code: 'MAIL_FAILED', status: 500 })
  // A feature's code is not the kernel's, and a misspelt one is not in its table: neither compiles.
  // @ts-expect-error
  expect(() => new AppError('MAIL_FAILED')).toThrow(TypeError)
  // @ts-expect-error
  expect(() => new AppError(CONTACT_ERRORS.MAIL_FAILD)).toThrow(TypeError)
})
