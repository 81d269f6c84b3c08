import { expect, test } from 'bun:test'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
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

/** Every TypeScript file of the repository, its tests included (the top-level files and each folder of ours). */
function allFiles(): string[] {
  return readdirSync(ROOT, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return OUTSIDE.has(entry.name) ? [] : everySource(entry.name)
    return /\.tsx?$/.test(entry.name) ? [entry.name] : []
  })
}

/** The import graph over every file, tests included: the rules on features bind their tests too. */
function fullImportGraph(): Map<string, string[]> {
  const files = allFiles()
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

/** Non-test and test TypeScript files of a folder: the kernel's rule binds its tests too. */
function everySource(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => relative(ROOT, join(ROOT, folder, file)))
}

/** What composes the service: the feature list, createApp, the process entry points and the CLI. */
const COMPOSITION_ROOT = 'app/'
/** Harnesses that drive the whole service from outside (they may reach anything, and nothing reaches them). */
const HARNESSES = ['tests/', 'bench/']

/** What the kernel may never import: the features, the checks, the journeys and the composition root. */
const ABOVE_THE_KERNEL = ['plugins/', 'checks/', 'journeys/', COMPOSITION_ROOT]

test('the kernel knows nothing above it: nothing under core/, tests included, imports plugins/, checks/, journeys/ or app/', () => {
  const files = everySource('core')
  const known = new Set(allSources().concat(files))
  const offenders = files.flatMap((file) =>
    importsOf(file, known)
      .filter((target) => ABOVE_THE_KERNEL.some((folder) => target.startsWith(folder)))
      .map((target) => `${file} -> ${target}`),
  )
  expect(offenders).toEqual([])
})

test('one folder composes: only app/ imports plugins/ from outside it, and nothing but the harnesses imports app/', () => {
  const graph = importGraph()
  const outside = (file: string) => !file.startsWith('plugins/') && !HARNESSES.some((folder) => file.startsWith(folder))
  const composing = [...graph]
    .filter(([file, targets]) => outside(file) && targets.some((target) => target.startsWith('plugins/')))
    .map(([file]) => topFolder(file))
  expect([...new Set(composing)]).toEqual([COMPOSITION_ROOT.slice(0, -1)])
  const reachingRoot = [...graph]
    .filter(([file]) => !file.startsWith(COMPOSITION_ROOT) && !HARNESSES.some((folder) => file.startsWith(folder)))
    .flatMap(([file, targets]) =>
      targets.filter((target) => target.startsWith(COMPOSITION_ROOT)).map((target) => `${file} -> ${target}`),
    )
  expect(reachingRoot).toEqual([])
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
  expect(graph.get('app/app.ts')).toContain('app/feature-list.ts')
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

/** The feature a file belongs to (its folder under plugins/), or null outside plugins/. */
const featureOf = (file: string) => (file.startsWith('plugins/') ? file.split('/')[1]! : null)

/**
 * Imports from one feature into another that miss the other's public.ts: a feature shows the others one module
 * (plugins/<feature>/public.ts), so what it keeps elsewhere can change without touching them.
 */
function pastPublicSurfaces(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([file, targets]) => {
    const own = featureOf(file)
    if (own === null) return []
    return targets
      .filter((target) => {
        const other = featureOf(target)
        return other !== null && other !== own && target !== `plugins/${other}/public.ts`
      })
      .map((target) => `${file} -> ${target}`)
  })
}

/** Imports of a feature's tables.ts from outside that feature, the harnesses aside (they set up and inspect rows). */
function foreignTableReads(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([file, targets]) => {
    if (HARNESSES.some((folder) => file.startsWith(folder))) return []
    return targets
      .filter((target) => /^plugins\/[^/]+\/tables\.ts$/.test(target) && featureOf(target) !== featureOf(file))
      .map((target) => `${file} -> ${target}`)
  })
}

test("features meet at their public surface: every import from one feature into another, tests included, is of the other's public.ts", () => {
  expect(pastPublicSurfaces(fullImportGraph())).toEqual([])
})

test("a feature's tables are its own: outside the harnesses, nothing but the feature imports its tables.ts", () => {
  // drizzle.config.ts finds the tables by a path pattern, not an import; the migrations are generated SQL.
  expect(foreignTableReads(fullImportGraph())).toEqual([])
})

test('the feature rules see what they must: test files, type-only and dynamic imports, and a violation of each', () => {
  const graph = fullImportGraph()
  // Test files (a type-only import, a harness's import of tables), `export … from` and import('…') are all read.
  expect(graph.get('plugins/discover/discover.test.ts')).toContain('plugins/scan/public.ts')
  expect(graph.get('tests/scan-api.test.ts')).toContain('plugins/scan/tables.ts')
  expect(graph.get('plugins/scan/public.ts')).toContain('plugins/scan/competitors.ts')
  expect(graph.get('app/cli/journey.ts')).toContain('app/engine.ts')
  const violating = new Map([
    ['plugins/web/service.ts', ['plugins/journey/tables.ts', 'plugins/scan/public.ts', 'plugins/web/model.ts']],
    ['plugins/mcp/tools.test.ts', ['plugins/scan/model.ts']],
    ['app/engine.ts', ['plugins/ard/tables.ts']],
    ['tests/contact.test.ts', ['plugins/contact/tables.ts']],
  ])
  expect(pastPublicSurfaces(violating)).toEqual([
    'plugins/web/service.ts -> plugins/journey/tables.ts',
    'plugins/mcp/tools.test.ts -> plugins/scan/model.ts',
  ])
  expect(foreignTableReads(violating)).toEqual([
    'plugins/web/service.ts -> plugins/journey/tables.ts',
    'app/engine.ts -> plugins/ard/tables.ts',
  ])
})

/** The `§N` sections of a document in docs/: its numbered headings (`## 6. …`, `### 6.2 …`). */
function sectionsOf(document: string): Set<string> {
  const text = readFileSync(join(ROOT, 'docs', document), 'utf8')
  return new Set([...text.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].map((match) => match[1]!))
}

test('every document the code cites is in the repository: docs/<name>.md exists, and so does each §N it names', () => {
  const citing = [
    ...allFiles(),
    'README.md',
    'CHANGELOG.md',
    ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`),
  ]
  const citations = citing.flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(/(?<![/\w.])docs\/([\w-]+\.md)(?: §(\d+(?:\.\d+)*))?/g)].map(
      ([, document, section]) => ({ file, document: document!, section }),
    ),
  )
  expect(citations.length).toBeGreaterThan(50)
  const sections = new Map<string, Set<string>>()
  const broken = citations.filter(({ document, section }) => {
    if (!existsSync(join(ROOT, 'docs', document))) return true
    if (section === undefined) return false
    if (!sections.has(document)) sections.set(document, sectionsOf(document))
    return !sections.get(document)!.has(section)
  })
  expect(
    broken.map(({ file, document, section }) => `${file}: docs/${document}${section ? ` §${section}` : ''}`),
  ).toEqual([])
  // The design documents the project started from lived beside the repository; nothing may point there any more.
  expect(
    citing.filter((file) => /\.\.\/shared\/|shared\/(spec|design)\//.test(readFileSync(join(ROOT, file), 'utf8'))),
  ).toEqual([])
})
