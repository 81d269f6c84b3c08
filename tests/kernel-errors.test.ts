import { afterAll, beforeAll, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AppHandle } from '../app/app.ts'
import { FEATURES } from '../app/feature-list.ts'
import { AppError, ERRORS } from '../core/errors.ts'
import { CONTACT_ERRORS } from '../plugins/contact/errors.ts'
import { testApp } from './helpers.ts'

const ROOT = join(import.meta.dir, '..')

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

let handle: AppHandle
beforeAll(async () => {
  handle = await testApp()
})
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
