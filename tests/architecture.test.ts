import { expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

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

/** Where the repository's own code lives; the rest (dependencies, build output, fixtures' data) is not ours. */
const OUTSIDE = new Set(['node_modules', 'dist', 'data', 'test-output', 'migrations', '.git', '.github', '.ci'])

/** Every non-test TypeScript source of the repository (the top-level files and each folder of ours). */
function allSources(): string[] {
  return readdirSync(ROOT, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return OUTSIDE.has(entry.name) ? [] : sources(entry.name)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [entry.name] : []
  })
}

/**
 * The repository files a module imports: static imports (type-only ones too: a circle through types is still a
 * circle for a reader), `export … from`, side-effect imports and `import('…')` with a literal specifier.
 */
function importsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const specifiers = [
    ...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((match) => match[1]!)
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => relative(ROOT, resolve(ROOT, dirname(file), specifier)))
    .filter((target) => known.has(target))
}

function importGraph(): Map<string, string[]> {
  const files = allSources()
  const known = new Set(files)
  return new Map(files.map((file) => [file, importsOf(file, known)]))
}

const topFolder = (file: string) => (file.includes('/') ? file.slice(0, file.indexOf('/')) : '(root)')

/** Strongly connected components of the graph (Tarjan), each a set of modules that import one another in a circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    index.set(node, counter)
    low.set(node, counter++)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1) found.push(component.sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return found
}

/** The one file of the kernel allowed to name the features (plugins/). */
const COMPOSITION_ROOT = 'core/features.ts'

test('the kernel names no feature: only the composition root under core/ imports plugins/', () => {
  const graph = importGraph()
  const offenders = [...graph]
    .filter(([file]) => file.startsWith('core/') && file !== COMPOSITION_ROOT)
    .flatMap(([file, targets]) =>
      targets.filter((target) => target.startsWith('plugins/')).map((target) => `${file} -> ${target}`),
    )
  expect(offenders).toEqual([])
  expect(graph.get(COMPOSITION_ROOT)!.some((target) => target.startsWith('plugins/'))).toBe(true)
})

test('no import circle crosses top-level folders (core, plugins, checks, journeys, tests, …)', () => {
  const crossing = circles(importGraph())
    .filter((component) => new Set(component.map(topFolder)).size > 1)
    .map((component) => `circle of ${component.length}: ${component.join(', ')}`)
  expect(crossing).toEqual([])
})

test('the import scanner sees what it must: a known cross-folder import and a dynamic import', () => {
  const graph = importGraph()
  // A circle the scanner cannot see is no circle: prove it reads type imports, `export … from` and import('…').
  expect(graph.get('journeys/runner.ts')).toContain('core/kernel.ts')
  expect(graph.get('core/cli.ts')).toContain('core/features.ts')
  expect(
    circles(
      new Map([
        ['a/x.ts', ['b/y.ts']],
        ['b/y.ts', ['a/x.ts']],
        ['a/z.ts', []],
      ]),
    ),
  ).toEqual([['a/x.ts', 'b/y.ts']])
})
