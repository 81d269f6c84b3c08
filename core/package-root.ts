import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

const PACKAGE_NAME = 'agent-readiness'

/**
 * The directory of our package.json, where migrations/ and plugins/web/assets/ live. Code runs from its source
 * file or from the built CLI (dist/bundle.js, one file for every module), so a path relative to `import.meta`
 * would differ between the two; this one does not.
 */
function findPackageRoot(start: string): string {
  for (let directory = start; ; directory = dirname(directory)) {
    const manifest = join(directory, 'package.json')
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === PACKAGE_NAME
    ) {
      return directory
    }
    if (dirname(directory) === directory) throw new Error(`no ${PACKAGE_NAME} package.json above ${start}`)
  }
}

export const PACKAGE_ROOT = findPackageRoot(import.meta.dir)
