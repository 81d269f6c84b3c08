import { expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const ROOT = join(import.meta.dir, '..')

/** Non-test TypeScript sources under a folder of the repository, as paths relative to its root. */
function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => relative(ROOT, join(ROOT, folder, file)))
}

test('the engine speaks its own errors: nothing under core/engine/ imports core/errors.ts or builds an AppError', () => {
  const offenders = sources('core/engine').filter((file) => {
    const text = readFileSync(join(ROOT, file), 'utf8')
    return /from\s+['"](\.\.\/)+errors\.ts['"]|import\(\s*['"](\.\.\/)+errors\.ts['"]\s*\)|\bAppError\b/.test(text)
  })
  expect(offenders).toEqual([])
})
