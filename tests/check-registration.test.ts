// A check file nobody registered never runs and nothing else would notice: the registry only validates what
// checks/index.ts lists. These tests tie the list to the files on disk.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { REGISTERED_CHECKS } from '../checks/index.ts'

const CHECKS_DIR = join(import.meta.dir, '..', 'checks')

/**
 * Every check file under checks/, as `<folder>/<id>` (the form `file` takes in the registry), sorted. checks/lib/
 * holds the helpers checks share, not checks.
 */
function checkFilesOnDisk(): string[] {
  return [...new Bun.Glob('**/*.ts').scanSync({ cwd: CHECKS_DIR })]
    .filter((path) => path !== 'index.ts' && !path.startsWith('lib/') && !path.endsWith('.test.ts'))
    .map((path) => path.replace(/\.ts$/, ''))
    .sort()
}

describe('check registration', () => {
  test('every file under checks/ is registered in checks/index.ts, once', () => {
    const registered = REGISTERED_CHECKS.map((check) => check.file).sort()
    expect(registered).toEqual(checkFilesOnDisk())
  })

  test('each registered file really holds the check registered under its name', async () => {
    for (const { file, definition } of REGISTERED_CHECKS) {
      const module = (await import(join(CHECKS_DIR, `${file}.ts`))) as { default: unknown }
      expect({ file, same: module.default === definition }).toEqual({ file, same: true })
    }
  })

  test('a check id equals its file name, and it lives in the folder of the first kind it applies to', () => {
    // Checks that run on every kind start with `domain` and sit with the domain checks.
    const placed = REGISTERED_CHECKS.map(({ file, definition }) => ({
      file,
      at: `${definition.meta.appliesTo[0]}/${definition.meta.id}`,
    }))
    expect(placed.filter(({ file, at }) => file !== at)).toEqual([])
  })
})
