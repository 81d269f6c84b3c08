// One topic per module (issue 24): shared helpers live by topic in small modules, and the engine's collectors and
// shared formats never reach into the checks that build on them.
import { expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'

const ROOT = join(import.meta.dir, '..')
/** Where helpers live: formats shared by collectors and checks, collector helpers, check helpers, request plugins. */
const HELPER_FOLDERS = ['core/engine/lib', 'core/engine/collectors/lib', 'checks/lib', 'core/request']
const MAX_LINES = 300

function sourceFiles(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => join(folder, file))
}

const lineCount = (file: string): number => readFileSync(join(ROOT, file), 'utf8').split('\n').length

test(`no helper module is over ${MAX_LINES} lines`, () => {
  const files = HELPER_FOLDERS.flatMap(sourceFiles)
  expect(files.length).toBeGreaterThan(20)
  expect(files.filter((file) => lineCount(file) > MAX_LINES)).toEqual([])
})

/** Whether a file imports (statically or dynamically) a module under checks/. */
function importsFromChecks(file: string): boolean {
  const text = readFileSync(join(ROOT, file), 'utf8')
  return [...text.matchAll(/from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].some((match) => {
    const specifier = match[1] ?? match[2]!
    return specifier.startsWith('.') && relative(ROOT, join(ROOT, file, '..', specifier)).startsWith('checks/')
  })
}

test('the engine below the checks (collectors, shared formats) imports nothing from checks/', () => {
  expect(['core/engine/collectors', 'core/engine/lib'].flatMap(sourceFiles).filter(importsFromChecks)).toEqual([])
})

test('the import scan sees an import from checks/ where there is one', () => {
  expect(importsFromChecks('checks/mcp/mcp-tool-naming.ts')).toBe(true)
  expect(importsFromChecks('core/engine/lib/describe.ts')).toBe(false)
})
