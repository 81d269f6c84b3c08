import { createHash } from 'node:crypto'
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type AjvCore from 'ajv/dist/core.js'
import type { AnyValidateFunction } from 'ajv/dist/core.js'
import standaloneCode from 'ajv/dist/standalone/index.js'

/**
 * Large validators (the OpenAPI meta-schemas, JSON Schema's own meta-schemas) cost tens to hundreds of
 * milliseconds to compile, once per process. A process that scans once (the CLI) would pay that on every run, so
 * the compiled code is kept on disk (node_modules/.cache, keyed by what was compiled and the Ajv version) and later
 * processes load it instead.
 */

const require = createRequire(import.meta.url)
// Beside ajv, so that the generated code's own `require('ajv/dist/runtime/…')` resolves from there.
export const CACHE_DIR = join(dirname(require.resolve('ajv/package.json')), '..', '.cache', 'agent-readiness')
const AJV_VERSION = (require('ajv/package.json') as { version: string }).version

/** A validator and the Ajv that compiled it (made with `code: { source: true }`, so that its code can be saved). */
export interface Compiled<T extends AnyValidateFunction> {
  ajv: AjvCore
  validate: T
}

/** `identity` is everything the compiled code depends on besides Ajv's version: the schema, and the options. */
export function cachedValidator<T extends AnyValidateFunction>(
  name: string,
  identity: unknown,
  compile: () => Compiled<T>,
): T {
  const key = createHash('sha256')
    .update(`${AJV_VERSION}\0${JSON.stringify(identity)}`)
    .digest('hex')
    .slice(0, 16)
  const file = join(CACHE_DIR, `${name}-${key}.cjs`)
  try {
    return require(file) as T
  } catch {
    // Not cached yet (or unreadable): compile, then keep it for the next process if the disk allows.
  }
  const { ajv, validate } = compile()
  try {
    mkdirSync(CACHE_DIR, { recursive: true })
    const temporary = `${file}.${process.pid}.tmp`
    writeFileSync(temporary, standaloneCode(ajv, validate))
    renameSync(temporary, file)
  } catch {
    // A read-only install only loses the speed-up.
  }
  return validate
}
